/**
 * `edge:parseZoneFile` (provider/edge/zone-file.ts): a BIND zone file read into a record set's records. Its reading
 * is checked against dnspython's (a real zone-file reader, installed by scripts/install-python.sh) on a fixture with
 * every feature the reader handles; the records it gives pass the record set's own check; bad files are refused with
 * their line and the fix.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { call } from "../../provider/door";
import { parseZoneFile } from "../../provider/edge/zone-file";
import { ROOT } from "../../scripts/root";

const DIR = path.join(__dirname, "zone-files");
const FIXTURE = path.join(DIR, "example.com.zone");
const PYTHON = path.join(ROOT, ".tools/python/bin/python");

type Rec = { type: string; name: string; ttl: number; content?: string; priority?: number };
const sorted = (recs: Rec[]) => recs.map((r) => JSON.stringify(r, Object.keys(r).sort())).sort();

describe("parseZoneFile", () => {
  it("reads the fixture as dnspython does: every record, name, TTL and content", () => {
    const theirs = JSON.parse(execFileSync(PYTHON, [path.join(DIR, "read.py"), FIXTURE, "example.com"], { encoding: "utf8" })) as Rec[];
    const { records, skipped } = parseZoneFile(readFileSync(FIXTURE, "utf8"), { origin: "example.com" });
    // The SOA and the apex NS records are left out (listed in skipped); everything else is the same.
    const kept = theirs.filter((r) => r.type !== "SOA" && !(r.type === "NS" && r.name === "@"));
    expect(theirs.length - kept.length).toBe(3);
    expect(sorted(Object.values(records))).toEqual(sorted(kept));
    expect(skipped.map((s) => `${s.line} ${s.type} ${s.name}`)).toEqual(["4 SOA @", "10 NS @", "11 NS @"]);
  });

  it("keys records by type and name, numbering more of the same in file order", () => {
    const { records } = parseZoneFile(readFileSync(FIXTURE, "utf8"), { origin: "example.com" });
    expect(Object.keys(records)).toEqual([
      "A:@", "A:@:2", "AAAA:@", "CNAME:www", "CNAME:api", "MX:@", "MX:@:2", "A:mail", "TXT:@", "TXT:_dmarc", "TXT:long",
      "TXT:quoted", "TXT:escaped", "A:*.dev", "NS:dev", "A:shop", "CNAME:cart.shop", "CNAME:img.shop",
    ]);
    expect(records["TXT:quoted"].content).toBe('she said "hi"; then left');
    expect(records["TXT:escaped"].content).toBe("semi;colon and \\backslash");
    expect(records["MX:@"]).toEqual({ type: "MX", name: "@", ttl: 3600, content: "mail.example.com", priority: 10 });
  });

  it("gives records the record set's check accepts, with nothing to correct", async () => {
    const { records } = parseZoneFile(readFileSync(FIXTURE, "utf8"), { origin: "example.com" });
    const { inputs, failures } = await call("edge:DnsRecordSet", "check", [{}, { zoneName: "example.com", records }]);
    expect(failures).toEqual([]);
    expect(Object.keys(inputs.records)).toEqual(Object.keys(records));
  });

  it("without $TTL, a record takes the last TTL written, else the SOA's minimum", () => {
    const last = parseZoneFile("a 600 A 203.0.113.1\nb A 203.0.113.2\n", { origin: "example.com" }).records;
    expect([last["A:a"].ttl, last["A:b"].ttl]).toEqual([600, 600]);
    const soa = parseZoneFile("@ SOA ns1 host 1 2 3 4 900\nb A 203.0.113.2\n", { origin: "example.com" }).records;
    expect(soa["A:b"].ttl).toBe(900);
  });

  it("skips types a set does not manage only when asked, listing them", () => {
    const text = "$TTL 300\n@ A 203.0.113.1\n_sip._tcp SRV 10 5 5060 sip\n";
    expect(() => parseZoneFile(text, { origin: "example.com" })).toThrow(/line 3: SRV records are not managed by a record set .* pass `skipUnsupported: true`/);
    const { records, skipped } = parseZoneFile(text, { origin: "example.com", skipUnsupported: true });
    expect(Object.keys(records)).toEqual(["A:@"]);
    expect(skipped).toEqual([{ line: 3, type: "SRV", name: "_sip._tcp", reason: "a record set manages A, AAAA, CNAME, MX, TXT, NS records" }]);
  });

  it.each([
    ["www A 203.0.113.1", /line 1: the record has no TTL, and no \$TTL or earlier TTL gives one\. Put `\$TTL 3600`/],
    ["$TTL 300\n  A 203.0.113.1", /line 2: the first record has no name/],
    ["$TTL 300\nwww.other.org. A 203.0.113.1", /line 2: www\.other\.org is outside the zone example\.com/],
    ["$TTL 300\n$INCLUDE other.zone", /line 2: \$INCLUDE is not supported\. Inline the records/],
    ["$TTL soon", /line 1: \$TTL needs a time such as 3600 or 1h, got "soon"/],
    ["$TTL 300\n@ CH A 203.0.113.1", /line 2: the class CH is not the Internet's/],
    ["$TTL 300\n@ MX mail", /line 2: MX data is a preference and a host name, got 1 item/],
    ["$TTL 300\n@ MX ten mail", /line 2: an MX record's preference must be a number, got "ten"/],
    ["$TTL 300\n@ A 203.0.113.1 203.0.113.2", /line 2: A data is one value, got 2 item/],
    ['$TTL 300\n@ TXT "open', /line 2: a quoted string is not closed on its line/],
    ["$TTL 300\n@ SOA ns1 host ( 1 2 3\n", /line 2: a `\(` is not closed before the end of the file/],
    ["$TTL 300\n@ A 203.0.113.1 )", /line 2: a `\)` closes no `\(`/],
    ["$TTL 300\n@ 300", /line 2: the record has no type/],
    ["$TTL 300\n@ TXT abc\\", /line 2: a `\\` ends the line with nothing to escape/],
  ])("refuses %j with its line and the fix", (text, message) => {
    expect(() => parseZoneFile(text, { origin: "example.com" })).toThrow(message);
  });
});

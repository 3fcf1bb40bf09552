/**
 * `edge:parseZoneFile` and `edge:toZoneFile` (provider/edge/zone-file/): a BIND zone file read into a record set's
 * records and written back. The reading is held against dnspython's (a real zone-file reader, installed by
 * scripts/install-python.sh): on two fixtures, and on zone files fast-check generates, valid and broken, parsed by
 * both — what dnspython accepts gives the same records, what it refuses is refused with a line number.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { call, invoke } from "../../provider/door";
import { normalizeData, type DataType } from "../../provider/edge/dns-record/data";
import { normalizeContent } from "../../provider/edge/dns-record/normalize";
import { parseZoneFile, toZoneFile } from "../../provider/edge/zone-file";
import { ROOT } from "../../scripts/root";
import { zoneFile } from "../helpers/zone-files";

const DIR = path.join(__dirname, "zone-files");
const PYTHON = path.join(ROOT, ".tools/python/bin/python");
const READ = path.join(DIR, "read.py");
const fixture = (f: string) => readFileSync(path.join(DIR, f), "utf8");

type Rec = { type: string; name: string; ttl: number; content?: string; data?: Record<string, unknown>; priority?: number };
/** A record as one comparable line, value in the service's spelling. */
const line = (r: Rec) =>
  JSON.stringify({
    type: r.type,
    name: r.name,
    ttl: r.ttl,
    ...(r.content !== undefined ? { content: normalizeContent(r.type, r.content) } : {}),
    ...(r.data ? { data: normalizeData(r.type as DataType, r.data) } : {}),
    ...(r.priority !== undefined ? { priority: r.priority } : {}),
  });
const managed = (recs: Rec[]) => recs.filter((r) => r.type !== "SOA" && !(r.type === "NS" && r.name === "@"));
const same = (ours: Rec[], theirs: Rec[]) => expect(ours.map(line).sort()).toEqual(managed(theirs).map(line).sort());

function dnspython(texts: string[], origin = "example.com"): (Rec[] | { error: string })[] {
  return JSON.parse(
    execFileSync(PYTHON, [READ, "--many", origin], { input: JSON.stringify(texts), encoding: "utf8", maxBuffer: 64 << 20 }),
  );
}
const ours = (text: string) => {
  try {
    return Object.values(parseZoneFile(text, { origin: "example.com" }).records) as Rec[];
  } catch (e) {
    return { error: (e as Error).message };
  }
};

describe("parseZoneFile reads as dnspython does", () => {
  it.each(["example.com.zone", "company.zone"])("%s: every record, name, TTL and value", (file) => {
    const theirs = JSON.parse(execFileSync(PYTHON, [READ, path.join(DIR, file), "example.com"], { encoding: "utf8" })) as Rec[];
    const { records, skipped } = parseZoneFile(fixture(file), { origin: "example.com" });
    same(Object.values(records), theirs);
    expect(skipped.map((s) => s.type)).toEqual(["SOA", "NS", "NS"]);
  });

  it("the company fixture holds every type the service manages, and the record set's check accepts them as read", async () => {
    const { records } = parseZoneFile(fixture("company.zone"), { origin: "example.com" });
    expect(new Set(Object.values(records).map((r) => r.type))).toEqual(
      new Set([
        "A",
        "AAAA",
        "CNAME",
        "MX",
        "TXT",
        "NS",
        "PTR",
        "OPENPGPKEY",
        "SRV",
        "CAA",
        "DS",
        "HTTPS",
        "SVCB",
        "TLSA",
        "SSHFP",
        "NAPTR",
        "CERT",
        "URI",
        "SMIMEA",
        "DNSKEY",
        "LOC",
      ]),
    );
    const { inputs, failures } = await call("edge:DnsRecordSet", "check", [{}, { zoneName: "example.com", records }]);
    expect(failures).toEqual([]);
    expect(Object.keys(inputs.records)).toEqual(Object.keys(records));
    expect(records["TXT:@"].content).toBe("v=spf1 include:_spf.example.net include:sendgrid.net ~all");
    expect(records["TXT:escaped"].content).toBe("semi;colon, \\backslash and café");
    expect(records["CNAME:xn--bcher-kva"].content).toBe("www.example.com");
    expect(records["SRV:_sip._tcp:20-0-5060-."].data).toEqual({ priority: 20, weight: 0, port: 5060, target: "." });
    expect(records["LOC:hq"].data).toMatchObject({
      lat_degrees: 37,
      lat_minutes: 46,
      lat_seconds: 0,
      lat_direction: "N",
      size: 1,
      precision_horz: 10000,
    });
  });

  it("agrees on generated zone files, valid and broken (fast-check, one dnspython run)", () => {
    const cases = fc.sample(zoneFile, { numRuns: 300, seed: 20261125 });
    const theirs = dnspython(cases.map((c) => c.text));
    let refused = 0;
    cases.forEach((c, i) => {
      const mine = ours(c.text);
      const ctx = `${c.text}\n--- dnspython: ${JSON.stringify(theirs[i]).slice(0, 300)}\n--- ours: ${JSON.stringify(mine).slice(0, 300)}`;
      // One deliberate difference: dnspython keeps the last of two CNAMEs at a name; BIND and the service refuse them.
      const twoCnames = !("error" in theirs[i]) && "error" in mine && /has a CNAME \(line \d+\) and another CNAME/.test(mine.error);
      if ("error" in theirs[i] || twoCnames) {
        refused++;
        expect("error" in mine, ctx).toBe(true);
        expect((mine as { error: string }).error, ctx).toMatch(/^zone file, line \d+: /);
      } else {
        expect("error" in mine, ctx).toBe(false);
        expect((mine as Rec[]).map(line).sort(), ctx).toEqual(
          managed(theirs[i] as Rec[])
            .map(line)
            .sort(),
        );
      }
    });
    // Both kinds were generated: the property says something about acceptance and refusal alike.
    expect(refused).toBeGreaterThan(20);
    expect(cases.length - refused).toBeGreaterThan(150);
  });
});

describe("never half a record", () => {
  const cut = '$TTL 300\n@ TXT "v=spf1 include:_spf.example.net"\n   "include:sendgrid.net ~all"\n';
  it("a text continued on the next line without parentheses is refused, as dnspython refuses it, even with skipUnsupported", () => {
    expect("error" in dnspython([cut])[0]).toBe(true);
    for (const skipUnsupported of [false, true]) {
      expect(() => parseZoneFile(cut, { origin: "example.com", skipUnsupported })).toThrow(
        /line 3: "include:sendgrid\.net ~all" is not a record type\. .*inside parentheses/,
      );
    }
  });

  it("skipUnsupported leaves out whole records of known types the service does not manage, and lists each", () => {
    const text = '$TTL 300\n@ A 203.0.113.1\n@ HINFO "PC" "Linux"\n@ RP admin.example.com. .\n';
    expect(() => parseZoneFile(text, { origin: "example.com" })).toThrow(
      /line 3: HINFO records are not managed by the service\. .*skipUnsupported/,
    );
    const { records, skipped } = parseZoneFile(text, { origin: "example.com", skipUnsupported: true });
    expect(Object.keys(records)).toEqual(["A:@"]);
    expect(skipped.map((s) => `${s.line} ${s.type}`)).toEqual(["3 HINFO", "4 RP"]);
  });
});

describe("keys follow values, not lines", () => {
  const base = "$TTL 300\nshop A 203.0.113.1\nshop A 203.0.113.2\nwww CNAME shop\n@ MX 10 mail\n";
  const keys = (t: string) => Object.keys(parseZoneFile(t, { origin: "example.com" }).records).sort();
  it("tags and CNAME flattening ride in the service's cf_tags marker, and read back as the record had them (issue 46)", () => {
    const records = {
      www: { type: "A", name: "www", content: "203.0.113.10", ttl: 300, proxied: true, tags: ["env:prod", "team:web"] },
      docs: { type: "CNAME", name: "docs", content: "docs.example.net", ttl: 300, settings: { flattenCname: true } },
    };
    const text = toZoneFile(records, "example.com");
    expect(text).toContain("203.0.113.10 ; cf_tags=env:prod,team:web,cf-proxied:true");
    expect(text).toContain("docs.example.net. ; cf_tags=cf-flatten-cname");
    const back = Object.values(parseZoneFile(text, { origin: "example.com" }).records);
    expect(back).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: "A", tags: ["env:prod", "team:web"], proxied: true }),
        expect.objectContaining({ type: "CNAME", settings: { flattenCname: true } }),
      ]),
    );
  });

  it("reordering lines changes no key; inserting a record adds exactly one", () => {
    const lines = base.trim().split("\n");
    const reordered = [lines[0], ...lines.slice(1).reverse()].join("\n");
    expect(keys(reordered)).toEqual(keys(base));
    const inserted = base.replace("shop A 203.0.113.2\n", "shop A 203.0.113.2\nshop A 203.0.113.3\n");
    expect(keys(inserted).filter((k) => !keys(base).includes(k))).toEqual(["A:shop:203.0.113.3"]);
    expect(keys(base).filter((k) => !keys(inserted).includes(k))).toEqual([]);
  });
  it("keys stay within the set's 128 characters for long names and values, and stay distinct", async () => {
    const long = `${"a".repeat(60)}.${"b".repeat(60)}`;
    const text = `$TTL 300\n${long} A 203.0.113.1\n${long} A 203.0.113.2\n${long}.${"c".repeat(40)} TXT "${"x".repeat(200)}"\n`;
    const { records } = parseZoneFile(text, { origin: "example.com" });
    const keys = Object.keys(records);
    expect(keys).toHaveLength(3);
    for (const k of keys) expect(k.length).toBeLessThanOrEqual(128);
    expect((await call("edge:DnsRecordSet", "check", [{}, { zoneName: "example.com", records }])).failures).toEqual([]);
  });

  it("a value written twice is one record, and a set of one type and name shares the lowest TTL, as DNS has it", () => {
    const { records } = parseZoneFile("$TTL 300\nx A 203.0.113.1\nx 600 A 203.0.113.1\nx 120 A 203.0.113.2\n", { origin: "example.com" });
    expect(Object.values(records).map((r) => `${r.content} ${r.ttl}`)).toEqual(["203.0.113.1 120", "203.0.113.2 120"]);
  });
});

describe("refusals name the line and the fix", () => {
  it.each([
    ["www A 203.0.113.1", /line 1: the record has no TTL, and no \$TTL or earlier TTL gives one\. Put `\$TTL 3600`/],
    ["$TTL 300\n  A 203.0.113.1", /line 2: the first record has no name/],
    ["$TTL 300\nwww.other.org. A 203.0.113.1", /line 2: www\.other\.org is outside the zone example\.com/],
    ["$TTL 300\n$INCLUDE other.zone", /line 2: \$INCLUDE is not supported\. Inline the records/],
    ["$TTL 300\n$GENERATE 1-4 host$ A 203.0.113.$", /line 2: \$GENERATE is not supported\. .*write them out/],
    ["$TTL soon", /line 1: \$TTL takes one time such as 3600 or 1h, got "soon"/],
    ["$TTL 300\n@ CH A 203.0.113.1", /line 2: the class CH is not the Internet's/],
    ["$TTL 300\n@ MX mail", /line 2: MX data: the preference must be a whole number from 0 to 65535, got "mail"/],
    ["$TTL 300\n@ A 203.0.113.1 203.0.113.2", /line 2: A data: 1 item\(s\) too many/],
    ["$TTL 300\n@ A 203.0.113.300", /line 2: the A record @ \(key A:@\): content must be an IPv4 address/],
    [
      "$TTL 20\n@ A 203.0.113.1",
      /line 2: the A record @ \(key A:@\): ttl must be 1 \(automatic\) or from 60 to 86400 seconds \(from 30 on Enterprise zones\)\. Correct the line/,
    ],
    ['$TTL 300\n@ TXT "open', /line 2: a quoted string is not closed on its line/],
    [`$TTL 300\n@ TXT "${"x".repeat(256)}"`, /line 2: TXT data: a string is 256 bytes, and one string holds at most 255\. Split it/],
    ['$TTL 300\n@ TXT "\\256"', /line 2: the escape \\256 is not a byte/],
    ["$TTL 300\n@ SOA ns1 host ( 1 2 3\n", /line 2: a `\(` is not closed before the end of the file/],
    ["$TTL 300\n@ A 203.0.113.1 )", /line 2: a `\)` closes no `\(`/],
    ["$TTL 300\n@ 300", /line 2: the record has no type/],
    ["$TTL 300\n@ TXT abc\\", /line 2: a `\\` ends the line with nothing to escape/],
    ["$TTL 300\n_sip._tcp SRV 10 5 70000 sip", /line 2: SRV data: the port must be a whole number from 0 to 65535, got "70000"/],
    ['$TTL 300\n@ CAA 0 issuer "ca.example.net"', /line 2: the CAA record @ \(key CAA:@\): data\.tag must be issue, issuewild, iodef/],
    [
      "$TTL 300\ns DS 1 13 2 ABCD",
      /line 2: the DS record s \(key DS:s\): data\.digest of a DS record with digest_type 2 must be 64 hexadecimal digits, got 4/,
    ],
    ["$TTL 300\n@ FOO bar", /line 2: "FOO" is not a record type/],
  ])("refuses %j with its line and the fix", (text, message) => {
    expect(() => parseZoneFile(text, { origin: "example.com" })).toThrow(message);
  });

  it("and dnspython refuses each of them too (the reference agrees these are not zone files)", () => {
    const service = [
      "$TTL 20\n@ A 203.0.113.1",
      '$TTL 300\n@ CAA 0 issuer "ca.example.net"',
      "$TTL 300\n$GENERATE 1-4 host$ A 203.0.113.$",
      "$TTL 300\n$INCLUDE other.zone",
    ];
    const texts = [
      "$TTL 300\n@ A 203.0.113.1 203.0.113.2",
      `$TTL 300\n@ TXT "${"x".repeat(256)}"`,
      '$TTL 300\n@ TXT "\\256"',
      "$TTL 300\n_sip._tcp SRV 10 5 70000 sip",
      "$TTL 300\ns DS 1 13 2 ABCD",
      "$TTL 300\n@ FOO bar",
    ];
    expect(dnspython(texts).map((r) => "error" in r)).toEqual(texts.map(() => true));
    // These dnspython reads; the service would refuse them (TTL below 60, a CAA tag it does not know), or the reader
    // leaves them to the program ($GENERATE, $INCLUDE): refused at the line rather than at up.
    expect(dnspython(service.slice(0, 3)).map((r) => "error" in r)).toEqual([false, false, false]);
  });
});

describe("toZoneFile", () => {
  it("writes what parseZoneFile and dnspython read back as the same records (round trip of every type)", async () => {
    const { records } = parseZoneFile(fixture("company.zone"), { origin: "example.com" });
    const proxied = { ...records, "A:www2": { type: "A" as const, name: "www2", content: "203.0.113.9", ttl: 1, proxied: true } };
    const result = await invoke("edge:toZoneFile", { origin: "example.com", records: proxied });
    expect(result.failures ?? []).toEqual([]);
    const { text } = result.outputs as { text: string };
    const back = parseZoneFile(text, { origin: "example.com" });
    expect(Object.values(back.records).map(line).sort()).toEqual(Object.values(proxied).map(line).sort());
    expect(back.records["A:www2"].proxied).toBe(true);
    same(Object.values(back.records), dnspython([text])[0] as Rec[]);
  });
});

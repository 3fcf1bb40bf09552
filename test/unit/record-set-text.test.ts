/**
 * The record set's compact form (provider/edge/dns-record-set/text.ts): every record type, every field and any
 * input (bad ones too, so that check can name their problem) read back exactly as written; keys in natural order;
 * a text neither JSON nor YAML, so the engine's display diffs it line by line; a damaged text refused naming the line.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import {
  byKey,
  compacted,
  expanded,
  HEADER,
  recordsAndIds,
  recordsFromText,
  recordsToText,
  withoutIds,
} from "../../provider/edge/dns-record-set/text";
import { SAMPLES } from "../helpers/record-samples";

const full = (r: Record<string, unknown>) => ({ proxied: false, ...r });

describe("the record set's text", () => {
  it("reads back every record type's value, spelled any way, with every field", () => {
    const records: Record<string, Record<string, unknown>> = {};
    for (const [i, s] of SAMPLES.entries()) {
      records[`${s.type}-v`] = { type: s.type, name: s.name, ttl: 300, ...s.value };
      records[`${s.type}-r`] = { type: s.type, name: s.name, ...s.respelled, comment: `sample ${i}: "quoted" {braced} \\ back` };
    }
    records["proxied"] = { type: "CNAME", name: "www", content: "example.com", proxied: true, ttl: 1 };
    const text = recordsToText(records);
    expect(text.split("\n")).toHaveLength(Object.keys(records).length + 1);
    expect(recordsFromText(text)).toEqual(Object.fromEntries(Object.entries(records).map(([k, r]) => [k, full(r)])));
    expect(text).toContain("\nA-v A a 300 203.0.113.10\n"); // one word: bare
    expect(text).toContain('\nTXT-v TXT txt 300 ="v=spf1 include:_spf.example.net ~all"\n'); // text with spaces: JSON after =
    expect(text).toContain('\nSRV-v SRV _sip._tcp 300 {"priority":10,"weight":60,"port":5060,"target":"sip.example.com"}\n');
    expect(text).toContain('\nproxied CNAME www 1 example.com {"proxied":true}');
  });

  it("writes a TXT's zone-file strings as a zone file does, with no escaping, and reads them back exactly", () => {
    const records = {
      dmarc: { type: "TXT", name: "_dmarc", ttl: 3600, content: '"v=DMARC1; p=reject"' },
      long: { type: "TXT", name: "dkim", content: '"v=DKIM1; k=rsa; p=MIIB" "IjANBgkqhkiG9w0BAQEF"', comment: "two strings" },
      said: { type: "TXT", name: "said", content: '"she said \\"hi\\"" "and \\\\ left"' },
      open: { type: "TXT", name: "open", content: '"not closed' },
    };
    const text = recordsToText(records);
    expect(text).toContain('\ndmarc TXT _dmarc 3600 "v=DMARC1; p=reject"\n');
    expect(text).toContain('\nlong TXT dkim - "v=DKIM1; k=rsa; p=MIIB" "IjANBgkqhkiG9w0BAQEF" {"comment":"two strings"}\n');
    expect(text).toContain('\nopen TXT open - ="\\"not closed"'); // not zone-file text: JSON
    expect(recordsFromText(text)).toEqual(Object.fromEntries(Object.entries(records).map(([k, r]) => [k, full(r)])));
  });

  it("keeps input that check must refuse as it was given: a bad type, a name with a space, a number for content, a key outside the alphabet", () => {
    const bad = {
      "web a": { type: "A", name: "w", content: "1.2.3.4" },
      x: { type: "a", name: "has space", content: 7, ttl: "300" },
      y: "not an object",
      z: { type: "TXT", name: "t", content: "c", data: { a: 1 } },
    };
    const text = recordsToText(bad as Record<string, unknown>);
    expect(text).toContain('\n"web a" A w - 1.2.3.4');
    expect(text).toContain('\nx = {"type":"a","name":"has space","content":7,"ttl":"300"}');
    expect(recordsFromText(text)).toEqual({ ...bad, "web a": full(bad["web a"]) });
  });

  it("sorts keys in natural order, the same on every machine", () => {
    expect(["host-10", "host-2", "host-1", "A:@:203.0.113.10", "A:@:203.0.113.9", "b", "a"].sort(byKey)).toEqual([
      "A:@:203.0.113.9",
      "A:@:203.0.113.10",
      "a",
      "b",
      "host-1",
      "host-2",
      "host-10",
    ]);
    const text = recordsToText({
      "host-10": { type: "A", name: "h", content: "203.0.113.1" },
      "host-9": { type: "A", name: "g", content: "203.0.113.2" },
    });
    expect(text.split("\n").map((l) => l.split(" ")[0])).toEqual([HEADER.split(" ")[0], "host-9", "host-10"]);
  });

  it("keeps the order earlier versions wrote state in, for any keys (runs of digits and of other characters)", () => {
    // The order of 0.3.0 (regular expressions and BigInt), which every set's state is written in.
    const earlier = (a: string, b: string) => {
      const x = a.match(/\d+|\D+/g) ?? [];
      const y = b.match(/\d+|\D+/g) ?? [];
      for (let i = 0; i < Math.min(x.length, y.length); i++) {
        if (x[i] === y[i]) continue;
        if (/^\d/.test(x[i]) && /^\d/.test(y[i]) && BigInt(x[i]) !== BigInt(y[i])) return BigInt(x[i]) < BigInt(y[i]) ? -1 : 1;
        return x[i] < y[i] ? -1 : 1;
      }
      return Math.sign(x.length - y.length || (a < b ? -1 : a > b ? 1 : 0));
    };
    const part = fc.constantFrom(
      "a",
      "b",
      "Z",
      "-",
      ".",
      "_",
      ":",
      "@",
      "*",
      "é",
      "0",
      "00",
      "007",
      "7",
      "9",
      "10",
      "99999999999999999999",
    );
    const key = fc.array(part, { minLength: 1, maxLength: 6 }).map((p) => p.join(""));
    fc.assert(
      fc.property(key, key, (a, b) => Math.sign(byKey(a, b)) === earlier(a, b)),
      { numRuns: 20000 },
    );
  });

  it("is neither JSON nor YAML, so the engine's display diffs it as lines", () => {
    const text = recordsToText({ a: { type: "A", name: "a", content: "203.0.113.1" }, b: { type: "TXT", name: "b", content: "k: v" } });
    expect(() => JSON.parse(text)).toThrow();
    expect(() => parseYaml(text)).toThrow();
  });

  it("refuses a damaged text, naming the line", () => {
    expect(() => recordsFromText('www A www 300 "x"')).toThrow(/not a record set's text/);
    expect(() => recordsFromText(`${HEADER}\nok A a 300 "203.0.113.1"\nbroken A b 300 "unterminated`)).toThrow(
      /line 3 of the record set's text cannot be read/,
    );
  });

  it("carries outputs' ids after the records, so a record's line reads as the program's: the service's hex ids short, others as they are; a bag either way", () => {
    const rec = { type: "A", name: "a", content: "203.0.113.1", proxied: false };
    const ids = { "host-2": "0123456789abcdef0123456789abcdef", "web a": "an-id of another form", tilde: "~not-base64" };
    const text = recordsToText({ "host-2": rec, "web a": rec, tilde: rec }, ids);
    expect(text).toBe(
      `${HEADER}\nhost-2 A a - 203.0.113.1\ntilde A a - 203.0.113.1\n"web a" A a - 203.0.113.1\n@ids\nhost-2 ~ASNFZ4mrze8BI0VniavN7w\ntilde "~not-base64"\n"web a" "an-id of another form"`,
    );
    expect(recordsAndIds(text)).toEqual({ records: { "host-2": rec, "web a": rec, tilde: rec }, ids });
    const bag = { zoneName: "example.com", records: { a: rec }, ids: { a: "c".repeat(32) } };
    const compact = compacted(bag);
    expect(Object.keys(compact)).toEqual(["zoneName", "records"]); // the ids are in the records' lines
    expect(expanded(compact)).toEqual(bag);
    expect(expanded(bag)).toBe(bag); // maps stay maps
  });

  it("reads an outputs' text without its ids as the inputs' text of the same records, for any key and id", () => {
    const rec = { type: "TXT", name: "a b", content: "v=spf1 -all", proxied: true, comment: "x" };
    const records = { "host-2": rec, "web a": { type: "A", name: "a", content: "203.0.113.1" }, tilde: rec };
    const ids = { "host-2": "0123456789abcdef0123456789abcdef", "web a": 'an-id "of" another form', tilde: "~not-base64" };
    expect(withoutIds(recordsToText(records, ids))).toBe(recordsToText(records));
    expect(withoutIds(recordsToText(records))).toBeUndefined(); // no ids to take out: not an outputs' text
    expect(withoutIds(`${HEADER} with ids\nbroken`)).toBeUndefined();
  });

  it("reads the texts 0.12 and older wrote (ids in the lines, JSON strings) as the same records", () => {
    const v1 = '@records v1 with ids\nhost-2 ~ASNFZ4mrze8BI0VniavN7w A a 300 203.0.113.1\nspf "an id" TXT @ - "\\"v=spf1 -all\\""';
    const records = {
      "host-2": full({ type: "A", name: "a", ttl: 300, content: "203.0.113.1" }),
      spf: full({ type: "TXT", name: "@", content: '"v=spf1 -all"' }),
    };
    expect(recordsAndIds(v1)).toEqual({ records, ids: { "host-2": "0123456789abcdef0123456789abcdef", spf: "an id" } });
    expect(recordsFromText('@records v1\nspf TXT @ - "v=spf1 -all"').spf).toEqual(full({ type: "TXT", name: "@", content: "v=spf1 -all" }));
    // A state's outputs of 0.12 against this release's inputs: the same records, so no change to diff.
    expect(withoutIds(v1)).toBe(recordsToText(records));
  });

  it("gives every reader maps of its own, also of a text read just before; the program's records are its own", () => {
    const text = recordsToText({ a: { type: "A", name: "a", content: "203.0.113.1" } }, { a: "c".repeat(32) });
    const bag = { zoneName: "example.com", records: text };
    const first = expanded(bag) as unknown as { records: Record<string, unknown>; ids: Record<string, string> };
    delete first.records.a;
    first.ids.b = "x";
    const again = { records: { a: { type: "A", name: "a", content: "203.0.113.1", proxied: false } }, ids: { a: "c".repeat(32) } };
    expect(expanded(bag)).toEqual({ zoneName: "example.com", ...again });
    const program = recordsAndIds(text);
    (program.records.a as Record<string, unknown>).ttl = 5; // a program may change what it reads
    expect(recordsAndIds(text)).toEqual(again);
    expect(expanded(bag)).toEqual({ zoneName: "example.com", ...again });
  });
});

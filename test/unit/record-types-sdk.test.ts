/**
 * The record types' fields, held against a reference nobody here wrote: the official `cloudflare` npm SDK's typings
 * (`dns.records`, each `XxxRecordParam` and its `Data`). Every type the SDK can create in a zone is one the provider
 * manages, with exactly the SDK's data fields, and a structured type's priority sits where the SDK puts it.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { DATA_FIELDS, DATA_TYPES } from "../../provider/edge/dns-record/data";
import { RECORD_TYPES } from "../../provider/edge/dns-record/normalize";
import { ROOT } from "../../scripts/root";

const typings = readFileSync(path.join(ROOT, "node_modules/cloudflare/resources/dns/records.d.ts"), "utf8");

/** The body of a top-level `export <head> {` block (an interface or a namespace), as text. */
function block(head: string): string {
  const start = typings.indexOf(`export ${head} {`);
  expect(start, `${head} in the SDK's typings`).toBeGreaterThan(-1);
  return typings.slice(start, typings.indexOf("\n}\n", start));
}
const iface = (name: string) => block(`interface ${name}`);
/** The property names declared directly in a block of an interface's text (comments dropped). */
const props = (block: string) => [...block.replace(/\/\*\*[\s\S]*?\*\//g, "").matchAll(/^ {4}(\w+)\??:/gm)].map((m) => m[1]);

describe("record types against the official cloudflare SDK's typings", () => {
  it("the SDK's batch endpoint can post every type the provider manages, and the provider manages every type the SDK posts", () => {
    const posts = /posts\?: Array<([^>]*RecordParam[^>]*)>/.exec(typings)![1];
    const sdkTypes = [...posts.matchAll(/(\w+?)RecordParam\b|(Openpgpkey)Record\b/g)].map((m) => (m[1] ?? m[2]).toUpperCase());
    expect(new Set(sdkTypes)).toEqual(new Set(RECORD_TYPES));
  });

  it.each(DATA_TYPES)("%s data has exactly the SDK's fields", (type) => {
    const data = /interface Data \{([\s\S]*?)\n {4}\}/.exec(block(`declare namespace ${type}RecordParam`))![1];
    expect(props(data.replace(/^ {4}/gm, "")).sort()).toEqual(Object.keys(DATA_FIELDS[type]).sort());
  });

  it("priority is a field of the record itself for MX and URI, as in the SDK", () => {
    for (const type of RECORD_TYPES) {
      const fields = type === "OPENPGPKEY" ? ["content"] : props(iface(`${type}RecordParam`)); // the SDK types it inside RecordBatchParams
      expect(fields.includes("priority"), type).toBe(type === "MX" || type === "URI");
    }
  });
});

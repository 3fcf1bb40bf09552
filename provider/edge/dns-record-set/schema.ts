/**
 * `ops.edge.DnsRecordSet`: many records of one zone as one resource, each under a stable key of the program's
 * choosing. The set manages exactly its own records (by id), so several sets, and single DnsRecords, can share a
 * zone without touching each other's records.
 */
import { z } from "zod";
import { withPlannedTransform } from "../../check";
import { ruleFailure } from "../../check";
import { plannedRecord, recordFields, recordRule, normalizeRecord } from "../dns-record/schema";
import { fullName, valueOf } from "../dns-record/normalize";
import { zoneInputs, zoneRule } from "../zone-ref";
import { IgnorePattern } from "./authority";
import { DEFAULT_MAX_CHANGE_PERCENT } from "./guard";
import type { Example } from "../../doc-example";

export const token = "edge:DnsRecordSet";

/** `*` for a wildcard's key as parseZoneFile makes it (`A:*`). */
const KEY = /^[A-Za-z0-9][A-Za-z0-9._:@*-]{0,127}$/;

export const SetRecord = withPlannedTransform(
  z
    .object(recordFields)
    .superRefine((r, ctx) => recordRule(r, ctx))
    .transform(normalizeRecord),
  plannedRecord,
);
export type SetRecord = z.output<typeof SetRecord>;

export const DnsRecordSetInputs = z
  .object({
    ...zoneInputs,
    records: z
      .record(
        z.string().regex(KEY, "a record's key must be 1 to 128 letters, digits, . _ : @ * or -, starting with a letter or digit"),
        SetRecord,
      )
      .describe(
        "The records, each under a stable key (a name of your choosing, such as `www-a`): a record whose key stays keeps its identity however its fields change; a new key creates a record; a key that goes deletes its record. Changing a record's type replaces that record alone.",
      ),
    adopt: z
      .boolean()
      .default(false)
      .describe(
        "When a record of the same type, name and content already exists in the zone, take it over instead of failing with 81058 (an identical record already exists). Where the zone's plan takes tags (paid plans), records carry their stack's tag `pulumi-ops-stack:<project>/<stack>`: one tagged by another stack is refused even so (see ops:adoptFromStack), and this stack's own is taken back without adopt.",
      ),
    authoritative: z
      .boolean()
      .optional()
      .describe(
        "Make the set the whole truth of the names it declares: up deletes their other records (an `A` of `www` the set does not declare), and the preview lists each one. Declaring the apex (`@`) and giving `ignore` (even `[]`) widens it to the whole zone. Never deleted: the service's own records (read-only, Worker-made, app- or tunnel-managed), a record another resource of the stack holds or any pulumi-ops stack labelled, and what `ignore` matches. Off by default: the set then touches only its own records.",
      ),
    ignore: z
      .array(IgnorePattern)
      .optional()
      .describe(
        "With `authoritative`: records left alone, by name relative to the zone (`@` the apex, `*` any characters: `*.dev`, `_acme-challenge*`), optionally followed by types (`@ MX,TXT`). Given, with the apex declared, the set is authoritative for the whole zone but these.",
      ),
    maxChangePercent: z
      .number()
      .min(0, "maxChangePercent must be from 0 to 100")
      .max(100, "maxChangePercent must be from 0 to 100")
      .optional()
      .describe(
        `The most of the zone's records one run may update, or delete, in percent (default ${DEFAULT_MAX_CHANGE_PERCENT}, as octoDNS): a larger change fails at preview, naming the counts, with nothing sent. Zones of fewer than 10 records are not weighed.`,
      ),
    allowLargeChange: z
      .boolean()
      .optional()
      .describe("Let a change larger than `maxChangePercent` through, for the run that makes it: set it, run up, remove it."),
  })
  .superRefine((r, ctx) => {
    zoneRule(r, ctx);
    if (r.ignore !== undefined && r.authoritative !== true)
      ruleFailure(ctx, "ignore", "ignore applies to an authoritative set: set `authoritative: true`, or remove ignore", ["authoritative"]);
    // The service keeps one record per type, name and content: two keys asking for the same one is a program error.
    const seen = new Map<string, string>();
    for (const [key, rec] of Object.entries(r.records ?? {})) {
      const identity = `${rec.type} ${fullName(rec.name, "zone.invalid")} ${valueOf(rec).toLowerCase()}`;
      const other = seen.get(identity);
      if (other !== undefined)
        ruleFailure(
          ctx,
          `records.${key}`,
          `records ${other} and ${key} are the same ${rec.type} record (${rec.name} ${valueOf(rec)}): keep one key`,
          [],
        );
      else seen.set(identity, key);
    }
  });
export type DnsRecordSetInputs = z.output<typeof DnsRecordSetInputs>;

export const DnsRecordSetOutputs = z.object({
  zoneId: z.string().describe("The zone's id."),
  zoneName: z.string().describe("The zone's name."),
  records: z
    .record(z.string(), z.object({ ...recordFields, ttl: z.number(), proxied: z.boolean() }))
    .describe("The records as the service holds them, by key."),
  adopt: z.boolean(),
  authoritative: z.boolean().optional().describe("Whether the set deletes the records of its names (or zone) it does not declare."),
  ignore: z.array(z.string()).optional().describe("The records an authoritative set leaves alone."),
  ids: z.record(z.string(), z.string()).describe("Each record's id, by key."),
});
export type DnsRecordSetOutputs = z.infer<typeof DnsRecordSetOutputs>;

/**
 * The class's doc comment in the TypeScript SDK (scripts/gen-sdk-classes.ts writes it, whitespace folded, above the
 * example below): what the resource is for and how it behaves.
 */
export const classDoc = `
  Many DNS records of one zone as one resource, each under a stable key of your choosing. The set manages exactly its
  own records, so several sets (and single DnsRecords) can share a zone. Up sends only the records that change, in
  parallel under the account's allowance; refresh is one listing of the zone; destroy removes exactly the set's
  records. For thousands of records it is far faster than as many DnsRecords, and keeps the state small.`;

/**
 * The example of the reference and of the class's doc comment, in every language (scripts/example-render.ts), run
 * by the tests against the emulators' seeds.
 */
export const example: Example = {
  step: {
    name: "hosts",
    args: {
      zoneName: "example.com",
      records: {
        docs: { type: "CNAME", name: "docs", content: "docs-host.example.net", proxied: true },
        "api-a": { type: "A", name: "api", content: "203.0.113.20", ttl: 300 },
      },
    },
  },
};

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
      .record(z.string().regex(KEY, "a record's key must be 1 to 128 letters, digits, . _ : @ * or -, starting with a letter or digit"), SetRecord)
      .describe("The records, each under a stable key (a name of your choosing, such as `www-a`): a record whose key stays keeps its identity however its fields change; a new key creates a record; a key that goes deletes its record. Changing a record's type replaces that record alone."),
    adopt: z
      .boolean()
      .default(false)
      .describe("When a record of the same type, name and content already exists in the zone, take it over instead of failing with 81058 (an identical record already exists). Where the zone's plan takes tags (paid plans), records carry their stack's tag `pulumi-ops-stack:<project>/<stack>`: one tagged by another stack is refused even so (see ops:adoptFromStack), and this stack's own is taken back without adopt."),
  })
  .superRefine((r, ctx) => {
    zoneRule(r, ctx);
    // The service keeps one record per type, name and content: two keys asking for the same one is a program error.
    const seen = new Map<string, string>();
    for (const [key, rec] of Object.entries(r.records ?? {})) {
      const identity = `${rec.type} ${fullName(rec.name, "zone.invalid")} ${valueOf(rec).toLowerCase()}`;
      const other = seen.get(identity);
      if (other !== undefined) ruleFailure(ctx, `records.${key}`, `records ${other} and ${key} are the same ${rec.type} record (${rec.name} ${valueOf(rec)}): keep one key`, []);
      else seen.set(identity, key);
    }
  });
export type DnsRecordSetInputs = z.output<typeof DnsRecordSetInputs>;

export const DnsRecordSetOutputs = z.object({
  zoneId: z.string().describe("The zone's id."),
  zoneName: z.string().describe("The zone's name."),
  records: z.record(z.string(), z.object({ ...recordFields, ttl: z.number(), proxied: z.boolean() })).describe("The records as the service holds them, by key."),
  adopt: z.boolean(),
  ids: z.record(z.string(), z.string()).describe("Each record's id, by key."),
});
export type DnsRecordSetOutputs = z.infer<typeof DnsRecordSetOutputs>;

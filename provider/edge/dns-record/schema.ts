/** `ops.edge.DnsRecord`: inputs and outputs as zod schemas, the one source of `check`, the SDK types and schema.json. */
import { z } from "zod";
import { ruleFailure } from "../../check";
import { zoneInputs, zoneRule } from "../zone-ref";
import { RECORD_TYPES, contentProblem, isHostname, isPrivateAddress, normalizeContent, normalizeName, PROXIABLE_TYPES } from "./normalize";

export const token = "edge:DnsRecord";

/** A record's own fields, shared with `DnsRecordSet`'s records. */
export const recordFields = {
  type: z
    .enum(RECORD_TYPES, { error: `type must be one of ${RECORD_TYPES.join(", ")}` })
    .describe("Record type. Changing it replaces the record.")
    .meta({ replaceOnChanges: true }),
  name: z
    .string()
    .min(1, "name must not be empty: use @ for the zone apex")
    .max(253)
    .refine((n) => n === "@" || isHostname(n), { error: "name must be @, a label such as www, or a full name of letters, digits, - and _" })
    .describe("`@` for the zone apex, a label such as `www`, or a full name; all three spellings compare equal."),
  content: z.string().min(1, "content must not be empty").describe("The target: an IPv4 address (A), an IPv6 address (AAAA), a host name (CNAME, MX, NS) or text (TXT)."),
  ttl: z
    .number({ error: "ttl must be a number of seconds" })
    .int("ttl must be a whole number of seconds")
    .refine((t) => t === 1 || (t >= 60 && t <= 86400), { error: "ttl must be 1 (automatic) or from 60 to 86400 seconds" })
    .default(1)
    .describe("Time to live in seconds, 60 to 86400, or 1 for automatic. A proxied record is always automatic."),
  proxied: z.boolean({ error: "proxied must be true or false" }).default(false).describe("Serve the record through the proxy (A, AAAA and CNAME only; not for private addresses)."),
  priority: z.number().int().min(0).max(65535, "priority must be from 0 to 65535").optional().describe("Required for MX records, refused for the others."),
  comment: z.string().max(100, "comment must be at most 100 characters").regex(/^[^\u0000-\u001f\u007f]*$/, "comment must not contain control characters").optional().describe("A note kept with the record."),
};

type RecordFields = { type: (typeof RECORD_TYPES)[number]; name: string; content: string; proxied: boolean; priority?: number };

/** The rules between a record's fields, as the service applies them. */
export function recordRule(r: RecordFields, ctx: z.RefinementCtx): void {
  const problem = contentProblem(r.type, r.content);
  if (problem) ruleFailure(ctx, "content", problem, ["type"]);
  if (r.type === "MX" && r.priority === undefined) ruleFailure(ctx, "priority", "an MX record needs a priority (0 to 65535)", ["type"]);
  if (r.type !== "MX" && r.priority !== undefined) {
    ruleFailure(ctx, "priority", `priority applies to MX records only: remove it from this ${r.type} record`, ["type"]);
  }
  if (r.proxied && !PROXIABLE_TYPES.includes(r.type)) ruleFailure(ctx, "proxied", `a ${r.type} record cannot be proxied: set proxied to false`, ["type"]);
  if (r.proxied && isPrivateAddress(r.type, r.content)) {
    ruleFailure(ctx, "proxied", `${r.content} is a private address, which the proxy refuses (error 1004): set proxied to false`, ["type", "content"]);
  }
}

/** The spelling every comparison uses: the name and content as the service would store them. */
export const normalizeRecord = <R extends RecordFields>(r: R): R => ({ ...r, name: normalizeName(r.name), content: normalizeContent(r.type, r.content) });

export const DnsRecordInputs = z
  .object({
    ...zoneInputs,
    ...recordFields,
    adopt: z
      .boolean()
      .default(false)
      .describe("When a record of the same type and name already exists, take it over (and update it to these inputs) instead of failing with 81044."),
  })
  .superRefine((r, ctx) => {
    zoneRule(r, ctx);
    recordRule(r, ctx);
  })
  .transform(normalizeRecord);

export type DnsRecordInputs = z.output<typeof DnsRecordInputs>;

export const DnsRecordOutputs = z.object({
  zoneId: z.string().describe("The zone's id."),
  zoneName: z.string().describe("The zone's name."),
  type: z.string(),
  name: z.string(),
  content: z.string(),
  ttl: z.number(),
  proxied: z.boolean(),
  priority: z.number().optional(),
  comment: z.string().optional(),
  adopt: z.boolean(),
  hostname: z.string().describe("The record's full name, as the service reports it."),
  proxiable: z.boolean().describe("Whether the record can be proxied."),
  createdOn: z.string().optional(),
  modifiedOn: z.string().optional(),
});
export type DnsRecordOutputs = z.infer<typeof DnsRecordOutputs>;

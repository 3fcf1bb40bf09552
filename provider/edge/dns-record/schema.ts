/** `ops.edge.DnsRecord`: inputs and outputs as zod schemas, the one source of `check`, the SDK types and schema.json. */
import { z } from "zod";
import { ruleFailure, UNKNOWN, withPlannedTransform } from "../../check";
import { zoneInputs, zoneRule } from "../zone-ref";
import { STACK_TAG } from "../../owner";
import { allDataFields, DATA_FIELDS, dataProblems, isDataType, normalizeData, DATA_TYPES } from "./data";
import {
  aRecord,
  PRIORITY_TYPES,
  RECORD_TYPES,
  contentProblem,
  isHostname,
  isPrivateAddress,
  normalizeContent,
  normalizeName,
  PROXIABLE_TYPES,
} from "./normalize";
import type { Example } from "../../doc-example";

/** `data`: every field of every structured type, each optional; the type's own rule says which it takes. */
const dataShape = Object.fromEntries(
  Object.entries(allDataFields()).map(([name, f]) => {
    const schema = f.number && f.text ? z.union([z.number(), z.string()]) : f.number ? z.number() : z.string();
    return [name, schema.optional().describe(f.about.join("; "))];
  }),
);

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
  content: z
    .string()
    .min(1, "content must not be empty")
    .optional()
    .describe(
      "The value of an A, AAAA, CNAME, MX, TXT, NS, PTR or OPENPGPKEY record: an IPv4 address (A), an IPv6 address (AAAA), a host name (CNAME, MX, NS, PTR), text (TXT) or a base64 key (OPENPGPKEY). The other types take `data`.",
    ),
  data: z
    .object(dataShape)
    .optional()
    .describe(
      `The value of a ${DATA_TYPES.join(", ")} record, field by field as the service's API takes it (for example SRV: priority, weight, port, target). Host names may end with a dot; hex is compared without case.`,
    ),
  ttl: z
    .number({ error: "ttl must be a number of seconds" })
    .int("ttl must be a whole number of seconds")
    .refine((t) => t === 1 || (t >= 30 && t <= 86400), {
      error: "ttl must be 1 (automatic) or from 60 to 86400 seconds (from 30 on Enterprise zones)",
    })
    .default(1)
    .describe(
      "Time to live in seconds, 60 to 86400 (30 to 86400 on Enterprise zones), or 1 for automatic. A proxied record is always automatic.",
    ),
  proxied: z
    .boolean({ error: "proxied must be true or false" })
    .default(false)
    .describe("Serve the record through the proxy (A, AAAA and CNAME only; not for private addresses)."),
  priority: z
    .number()
    .int()
    .min(0)
    .max(65535, "priority must be from 0 to 65535")
    .optional()
    .describe("Required for MX and URI records, refused for the others (SRV, HTTPS and SVCB carry theirs in `data`)."),
  comment: z
    .string()
    .max(500, "comment must be at most 500 characters (100 on the Free plan)")
    .regex(/^[^\u0000-\u001f\u007f]*$/, "comment must not contain control characters")
    .optional()
    .describe("A note kept with the record: up to 100 characters on the Free plan, 500 on paid plans."),
  tags: z
    .array(
      z
        .string()
        .regex(
          /^[A-Za-z0-9_-]{1,32}(:[^\n\r]{0,100})?$/,
          "a tag is name:value, the name 1 to 32 letters, digits, _ and -, the value at most 100 characters on one line",
        )
        .refine((t) => !t.toLowerCase().startsWith(`${STACK_TAG}:`), {
          error: `the tag name ${STACK_TAG} is the owner's label pulumi-ops writes itself: use another name`,
        }),
    )
    .max(20, "a record takes at most 20 tags")
    .refine((tags) => new Set(tags.map((t) => t.replace(/^[^:]*/, (n) => n.toLowerCase()))).size === tags.length, {
      error: "a tag is given twice (tag names compare without case): the service keeps one, so give each once",
    })
    .optional()
    .describe(
      "Tags as the service spells them, `name:value` (paid plans, up to 20 a record; names compare without case). Unset: the record's tags are left as the service has them; set: compared and restored (the stack's owner label is kept beside them).",
    ),
  settings: z
    .object({
      ipv4Only: z.boolean().optional().describe("Answer only A records for this proxied name (`ipv4_only`)."),
      ipv6Only: z.boolean().optional().describe("Answer only AAAA records for this proxied name (`ipv6_only`)."),
      flattenCname: z
        .boolean()
        .optional()
        .describe(
          "Answer this CNAME with the addresses of its target (`flatten_cname`, paid plans; proxied records are always flattened).",
        ),
    })
    .optional()
    .describe("The record's settings, each compared only where given (unset ones are left as the service has them)."),
};

type RecordFields = {
  type: (typeof RECORD_TYPES)[number];
  name: string;
  content?: string;
  data?: Record<string, unknown>;
  proxied: boolean;
  priority?: number;
  settings?: { ipv4Only?: boolean; ipv6Only?: boolean; flattenCname?: boolean };
};

/** The rules between a record's fields, as the service applies them. */
export function recordRule(r: RecordFields, ctx: z.RefinementCtx): void {
  if (isDataType(r.type)) {
    if (r.content !== undefined)
      ruleFailure(
        ctx,
        "content",
        `${aRecord(r.type)} takes its value as data, not content: move it into data (e.g. ${dataExample(r.type)})`,
        ["type"],
      );
    for (const problem of dataProblems(r.type, r.data)) ruleFailure(ctx, "data", problem, ["type"]);
    if (r.type === "SRV" && !/^_[^.]+\._[^.]+(\.|$)/.test(r.name) && r.name !== "@")
      ruleFailure(ctx, "name", `an SRV record's name is _service._protocol[.name] (e.g. _sip._tcp), got "${r.name}"`, ["type"]);
  } else {
    if (r.data !== undefined)
      ruleFailure(ctx, "data", `${aRecord(r.type)} takes its value as content, not data: set content and remove data`, ["type"]);
    if (r.content === undefined)
      ruleFailure(ctx, "content", `${aRecord(r.type)} needs content: ${contentProblem(r.type, "")?.replace(/, got ""$/, "") ?? "set it"}`, [
        "type",
      ]);
    else {
      const problem = contentProblem(r.type, r.content);
      if (problem) ruleFailure(ctx, "content", problem, ["type"]);
    }
  }
  if (PRIORITY_TYPES.includes(r.type) && r.priority === undefined)
    ruleFailure(ctx, "priority", `${aRecord(r.type)} needs a priority (0 to 65535)`, ["type"]);
  if (!PRIORITY_TYPES.includes(r.type) && r.priority !== undefined) {
    ruleFailure(
      ctx,
      "priority",
      `priority applies to MX and URI records only: remove it from this ${r.type} record${isDataType(r.type) && "priority" in DATA_FIELDS[r.type] ? " (its priority goes in data.priority)" : ""}`,
      ["type"],
    );
  }
  if (r.proxied && !PROXIABLE_TYPES.includes(r.type))
    ruleFailure(ctx, "proxied", `a ${r.type} record cannot be proxied: set proxied to false`, ["type"]);
  if (r.proxied && r.content !== undefined && isPrivateAddress(r.type, r.content)) {
    ruleFailure(ctx, "proxied", `${r.content} is a private address, which the proxy refuses (error 9041): set proxied to false`, [
      "type",
      "content",
    ]);
  }
}

/** The spelling every comparison uses: the name and content as the service would store them. */
export const normalizeRecord = <R extends RecordFields>(r: R): R => {
  const out = { ...r, name: normalizeName(r.name) };
  if (r.content !== undefined) out.content = normalizeContent(r.type, r.content);
  if (r.data !== undefined && isDataType(r.type)) out.data = normalizeData(r.type, r.data);
  return out;
};

/** normalizeRecord while some inputs are unknown (a saved plan): what depends on an unknown type is unknown too. */
export const plannedRecord = (r: Record<string, unknown>, unknownKeys: Set<string>): Record<string, unknown> => {
  const out = { ...r };
  if (typeof r.name === "string" && !unknownKeys.has("name")) out.name = normalizeName(r.name);
  const typeKnown = typeof r.type === "string" && !unknownKeys.has("type");
  if (typeof r.content === "string" && !unknownKeys.has("content"))
    out.content = typeKnown ? normalizeContent(r.type as string, r.content) : UNKNOWN;
  if (r.data !== undefined && !unknownKeys.has("data"))
    out.data = typeKnown ? (isDataType(r.type as string) ? normalizeData(r.type as never, r.data as never) : r.data) : UNKNOWN;
  return out;
};

/** A one-line example of a type's data, for the remedy of a record written the other way. */
function dataExample(type: (typeof DATA_TYPES)[number]): string {
  return `data: { ${Object.keys(DATA_FIELDS[type])
    .slice(0, 4)
    .map((k) => `${k}: ...`)
    .join(", ")} }`;
}

export const DnsRecordInputs = withPlannedTransform(
  z
    .object({
      ...zoneInputs,
      ...recordFields,
      adopt: z
        .boolean()
        .default(false)
        .describe(
          "When a record of this type, name and value already exists (one no other resource of the stack holds), take it over (its ttl, proxy and comment become these inputs) instead of failing with 81057/81058 (the record already exists). A record of the same type and name with another value is someone else's and is left alone: this one is made beside it. A CNAME (one per name) is taken over whatever its target. Where the zone's plan takes tags (paid plans), records carry their stack's tag `pulumi-ops-stack:<project>/<stack>`: one tagged by another stack is refused even so (see ops:adoptFromStack), and this stack's own is taken back without adopt.",
        ),
    })
    .superRefine((r, ctx) => {
      zoneRule(r, ctx);
      recordRule(r, ctx);
    })
    .transform(normalizeRecord),
  plannedRecord,
);

export type DnsRecordInputs = z.output<typeof DnsRecordInputs>;

export const DnsRecordOutputs = z.object({
  zoneId: z.string().describe("The zone's id."),
  zoneName: z.string().describe("The zone's name."),
  type: z.string(),
  name: z.string(),
  content: z.string().describe("The value as the service writes it (for structured types, rendered from data)."),
  data: z
    .object(dataShape)
    .optional()
    .describe(
      "The structured value of an SRV, CAA, DS, ... record, as the service holds it (its fields as `data` takes them: numbers and text).",
    ),
  ttl: z.number(),
  proxied: z.boolean(),
  priority: z.number().optional(),
  comment: z.string().optional(),
  tags: z.array(z.string()).optional().describe("The record's tags (where the program gives tags), without the owner's label."),
  settings: z
    .object({ ipv4Only: z.boolean().optional(), ipv6Only: z.boolean().optional(), flattenCname: z.boolean().optional() })
    .optional()
    .describe("The record's settings the program gives, as the service has them."),
  adopt: z.boolean(),
  hostname: z.string().describe("The record's full name, as the service reports it."),
  proxiable: z.boolean().describe("Whether the record can be proxied."),
  createdOn: z.string().optional().describe("When the service made the record (RFC 3339)."),
  modifiedOn: z.string().optional().describe("When it last changed (RFC 3339)."),
});
export type DnsRecordOutputs = z.infer<typeof DnsRecordOutputs>;

/**
 * The class's doc comment in the TypeScript SDK (scripts/gen-sdk-classes.ts writes it, whitespace folded, above the
 * example below): what the resource is for and how it behaves.
 */
export const classDoc = `
  A DNS record of a zone. Give the zone by \`zoneId\` or \`zoneName\`; \`name\` may be \`@\`, a label or a full name.
  Changing \`type\` or the zone replaces the record; everything else is updated in place.`;

/**
 * The example of the reference and of the class's doc comment, in every language (scripts/example-render.ts), run
 * by the tests against the emulators' seeds.
 */
export const example: Example = {
  step: { name: "www", args: { zoneName: "example.com", type: "A", name: "www", content: "203.0.113.10", proxied: true } },
};

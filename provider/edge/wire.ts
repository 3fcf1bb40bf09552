/** The edge API's wire format (the Cloudflare API v4), as zod schemas: what the client sends and accepts. */
import { z } from "zod";

/** One error of an envelope. Some carry no `code` (the official SDKs' ErrorData has it optional). */
export const EdgeErrorItem = z.looseObject({ code: z.number().optional(), message: z.string().default("") });

export const ResultInfo = z.object({
  page: z.number(),
  per_page: z.number(),
  count: z.number().optional(),
  total_count: z.number().optional(),
  total_pages: z.number().optional(),
});

export const Envelope = z.object({
  success: z.boolean(),
  errors: z.array(EdgeErrorItem).default([]),
  messages: z.array(z.unknown()).optional(),
  result: z.unknown(),
  result_info: ResultInfo.optional(),
});
export type Envelope = z.infer<typeof Envelope>;

export const Zone = z.looseObject({
  id: z.string(),
  name: z.string(),
  status: z.string().optional(),
  account: z.looseObject({ id: z.string() }).optional(),
  /** The zone's plan: `legacy_id` is free, pro, business or enterprise (what rate-limiting rules may use). */
  plan: z.looseObject({ legacy_id: z.string().optional(), name: z.string().optional() }).optional(),
});
export type Zone = z.infer<typeof Zone>;

export const DnsRecord = z.looseObject({
  id: z.string(),
  zone_id: z.string().optional(),
  zone_name: z.string().optional(),
  name: z.string(),
  type: z.string(),
  content: z.string(),
  data: z.record(z.string(), z.union([z.number(), z.string()])).nullish(),
  proxiable: z.boolean().optional(),
  proxied: z.boolean().optional(),
  ttl: z.number(),
  priority: z.number().optional(),
  comment: z.string().nullish(),
  /** `name:value` pairs (paid plans); the owner's label is one (`pulumi-ops-stack:<project>/<stack>`). */
  tags: z.array(z.string()).nullish(),
  /** `ipv4_only`, `ipv6_only` (A/AAAA of a proxied name), `flatten_cname` (CNAME): the record's settings. */
  settings: z
    .looseObject({ ipv4_only: z.boolean().nullish(), ipv6_only: z.boolean().nullish(), flatten_cname: z.boolean().nullish() })
    .nullish(),
  /** `read_only`: a record the service made and keeps (a Worker's custom domain's). */
  meta: z.looseObject({ read_only: z.boolean().nullish() }).nullish(),
  /** A record another product of the service locked (Email Routing's MX and SPF: "adds and locks" them). */
  locked: z.boolean().nullish(),
  created_on: z.string().optional(),
  modified_on: z.string().optional(),
});
export type DnsRecord = z.infer<typeof DnsRecord>;

/**
 * A listed record as the preview's DNS rules read it: what tells its value, and its id. The other fields of the
 * service's answer are left out, not copied, since a preview may list a zone of 100,000 records.
 */
export const DnsRecordValue = DnsRecord.pick({
  id: true,
  name: true,
  type: true,
  content: true,
  data: true,
  priority: true,
  ttl: true,
  proxied: true,
  comment: true,
  tags: true,
  settings: true,
  meta: true,
  locked: true,
}).strip();
export type DnsRecordValue = z.infer<typeof DnsRecordValue>;

/** The body of a create or an update: PATCH takes any subset. */
export interface DnsRecordBody {
  type?: string;
  name?: string;
  content?: string;
  /** The structured value of SRV, CAA, DS, ... records (the official client's `XxxRecordParam.Data`). */
  data?: Record<string, number | string>;
  ttl?: number;
  proxied?: boolean;
  priority?: number;
  comment?: string | null;
  tags?: string[];
  settings?: { ipv4_only?: boolean | null; ipv6_only?: boolean | null; flatten_cname?: boolean | null };
}

/** `POST /zones/{id}/dns_records/batch`: run deletes, patches, puts, posts in that order, in one transaction. */
export interface DnsBatch {
  deletes?: { id: string }[];
  patches?: (DnsRecordBody & { id: string })[];
  puts?: (DnsRecordBody & { id: string })[];
  posts?: DnsRecordBody[];
}
/**
 * A record of a batch's answer as a set keeps it: what its outputs are made of. A batch answers thousands of
 * records, kept until the last batch is in, so the rest of each (zone, times, meta, tags) is left out, not copied.
 */
export const DnsRecordKept = DnsRecord.pick({
  id: true,
  name: true,
  type: true,
  content: true,
  data: true,
  ttl: true,
  proxied: true,
  priority: true,
  comment: true,
  tags: true,
  settings: true,
}).strip();
/** Its answer: each group's records, in the order sent (the official client's RecordBatchResponse). */
export const DnsBatchResult = z.looseObject({
  deletes: z.array(DnsRecordKept).optional(),
  patches: z.array(DnsRecordKept).optional(),
  puts: z.array(DnsRecordKept).optional(),
  posts: z.array(DnsRecordKept).optional(),
});

export const ZoneSetting = z.looseObject({
  id: z.string(),
  value: z.unknown(),
  editable: z.boolean().optional(),
  modified_on: z.string().nullish(),
});
export type ZoneSetting = z.infer<typeof ZoneSetting>;

export const TokenStatus = z.looseObject({ id: z.string(), status: z.string(), expires_on: z.string().nullish() });
export type TokenStatus = z.infer<typeof TokenStatus>;
export type EdgeErrorItem = z.infer<typeof EdgeErrorItem>;
export const Deleted = z.looseObject({ id: z.string() }).nullable();

export const PageRuleTarget = z.object({
  target: z.literal("url"),
  constraint: z.object({ operator: z.string(), value: z.string() }),
});
export const PageRuleAction = z.looseObject({ id: z.string(), value: z.unknown().optional() });
export const PageRule = z.looseObject({
  id: z.string(),
  targets: z.array(PageRuleTarget),
  actions: z.array(PageRuleAction),
  priority: z.number(),
  status: z.string(),
  created_on: z.string().optional(),
  modified_on: z.string().optional(),
});
export type PageRule = z.infer<typeof PageRule>;
export type PageRuleBody = Pick<PageRule, "targets" | "actions" | "priority" | "status">;

/** The rate limiting part of a rule in the `http_ratelimit` phase (the official SDK's `Ratelimit`). */
export const RuleRatelimit = z.looseObject({
  characteristics: z.array(z.string()),
  period: z.number(),
  requests_per_period: z.number().optional(),
  mitigation_timeout: z.number().optional(),
  counting_expression: z.string().nullish(),
  requests_to_origin: z.boolean().optional(),
  score_per_period: z.number().optional(),
  score_response_header_name: z.string().optional(),
});
export type RuleRatelimit = z.infer<typeof RuleRatelimit>;

/** A rule of a ruleset (the official SDK's `BlockRule`, `SkipRule`, ... share these fields). */
export const RulesetRule = z.looseObject({
  id: z.string(),
  ref: z.string().optional(),
  version: z.string().optional(),
  action: z.string(),
  expression: z.string(),
  description: z.string().nullish(),
  enabled: z.boolean().optional(),
  action_parameters: z.record(z.string(), z.unknown()).nullish(),
  ratelimit: RuleRatelimit.nullish(),
  last_updated: z.string().optional(),
});
export type RulesetRule = z.infer<typeof RulesetRule>;

/** What a rule is sent as (create or patch). */
export interface RuleBody {
  ref?: string;
  action: string;
  expression: string;
  description: string;
  enabled: boolean;
  action_parameters?: Record<string, unknown>;
  ratelimit?: RuleRatelimit;
  /** Fields the program does not manage, sent back as the service has them (logging, ...). */
  [kept: string]: unknown;
}

/** A ruleset with its rules, as the entry point and every rule endpoint answer it. */
export const Ruleset = z.looseObject({
  id: z.string(),
  phase: z.string().optional(),
  kind: z.string().optional(),
  version: z.string().optional(),
  rules: z
    .array(RulesetRule)
    .nullish()
    .transform((r) => r ?? []),
});
export type Ruleset = z.infer<typeof Ruleset>;

export const WorkerScript = z.looseObject({
  id: z.string(),
  etag: z.string().optional(),
  size: z.number().optional(),
  created_on: z.string().optional(),
  modified_on: z.string().optional(),
  /** The tag of the Durable Object migration last applied (none: never migrated). */
  migration_tag: z.string().nullish(),
});
export type WorkerScript = z.infer<typeof WorkerScript>;
/** A binding as the settings read shows it (a secret's text is never shown). */
export const WorkerBinding = z.looseObject({ type: z.string(), name: z.string(), text: z.string().optional() });
export type WorkerBinding = z.infer<typeof WorkerBinding>;
export const WorkerScriptSettings = z.looseObject({
  compatibility_date: z.string().nullish(),
  compatibility_flags: z.array(z.string()).nullish(),
  tags: z.array(z.string()).nullish(),
  bindings: z.array(WorkerBinding).nullish(),
});
export type WorkerScriptSettings = z.infer<typeof WorkerScriptSettings>;

/** A route of a zone: a URL pattern and the script it runs (none: requests on it run no script). */
export const WorkerRoute = z.looseObject({ id: z.string(), pattern: z.string(), script: z.string().nullish() });
export type WorkerRoute = z.infer<typeof WorkerRoute>;

/** A custom domain: a host name the account's script serves (the service makes and keeps its DNS record). */
export const WorkerDomain = z.looseObject({
  id: z.string(),
  hostname: z.string(),
  service: z.string(),
  environment: z.string().nullish(),
  zone_id: z.string(),
  zone_name: z.string().nullish(),
  cert_id: z.string().nullish(),
});
export type WorkerDomain = z.infer<typeof WorkerDomain>;

/** A script's workers.dev endpoint and its preview URLs. */
export const WorkerSubdomain = z.looseObject({ enabled: z.boolean(), previews_enabled: z.boolean().nullish() });
export const WorkerSecret = z.looseObject({ name: z.string(), type: z.string() });

/** A GraphQL answer (the analytics API): data, and errors that may come with HTTP 200. */
export const GraphqlAnswer = z.looseObject({
  data: z.unknown().nullish(),
  errors: z
    .array(z.looseObject({ message: z.string(), path: z.array(z.unknown()).nullish(), extensions: z.unknown().optional() }))
    .nullish(),
});

/** A Workers KV namespace (`/accounts/{id}/storage/kv/namespaces`): its title is unique in the account. */
export const KvNamespace = z.looseObject({
  id: z.string(),
  title: z.string(),
  jurisdiction: z.string().nullish(),
  supports_url_encoding: z.boolean().nullish(),
});
export type KvNamespace = z.infer<typeof KvNamespace>;

/** An R2 bucket: its name is unique in the account's jurisdiction; `location` may come back upper case. */
export const R2Bucket = z.looseObject({
  name: z.string(),
  creation_date: z.string().nullish(),
  location: z.string().nullish(),
  storage_class: z.string().nullish(),
  jurisdiction: z.string().nullish(),
});
export type R2Bucket = z.infer<typeof R2Bucket>;

/** A D1 database, by uuid. */
export const D1Database = z.looseObject({
  uuid: z.string(),
  name: z.string(),
  version: z.string().nullish(),
  created_at: z.string().nullish(),
  num_tables: z.number().nullish(),
  file_size: z.number().nullish(),
});
export type D1Database = z.infer<typeof D1Database>;

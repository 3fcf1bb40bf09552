/** The edge API's wire format (Document 1), as zod schemas: what the client sends and accepts. */
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
  created_on: z.string().optional(),
  modified_on: z.string().optional(),
});
export type DnsRecord = z.infer<typeof DnsRecord>;

/**
 * A listed record as the preview's DNS rules read it: what tells its value, and its id. The other fields of the
 * service's answer are left out, not copied, since a preview may list a zone of 100,000 records.
 */
export const DnsRecordValue = DnsRecord.pick({ id: true, name: true, type: true, content: true, data: true, priority: true }).strip();
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
export const DnsRecordKept = DnsRecord.pick({ id: true, name: true, type: true, content: true, data: true, ttl: true, proxied: true, priority: true, comment: true }).strip();
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

export const FirewallRule = z.looseObject({
  id: z.string(),
  filter: z.looseObject({ id: z.string().optional(), expression: z.string() }),
  action: z.string(),
  description: z.string().optional(),
  paused: z.boolean().optional(),
});
export type FirewallRule = z.infer<typeof FirewallRule>;
export interface FirewallRuleBody {
  filter: { expression: string };
  action: string;
  description?: string;
  paused?: boolean;
}

export const RateLimit = z.looseObject({
  id: z.string(),
  threshold: z.number(),
  period: z.number(),
  action: z.looseObject({ mode: z.string(), timeout: z.number().optional() }),
  match: z.looseObject({ request: z.looseObject({ url: z.string(), methods: z.array(z.string()).optional() }) }),
  description: z.string().optional(),
  disabled: z.boolean().optional(),
});
export type RateLimit = z.infer<typeof RateLimit>;
export interface RateLimitBody {
  threshold: number;
  period: number;
  action: { mode: string; timeout?: number };
  match: { request: { url: string; methods?: string[] } };
  description?: string;
  disabled?: boolean;
}

export const WorkerScript = z.looseObject({
  id: z.string(),
  etag: z.string().optional(),
  size: z.number().optional(),
  created_on: z.string().optional(),
  modified_on: z.string().optional(),
});
export type WorkerScript = z.infer<typeof WorkerScript>;

export const Analytics = z.looseObject({ totals: z.looseObject({}) });
export const SecurityEvent = z.looseObject({ ray_id: z.string().optional(), action: z.string().optional() });
export const ColoStats = z.looseObject({ colo_id: z.string(), totals: z.looseObject({}) });

/** The edge API's wire format (Document 1), as zod schemas: what the client sends and accepts. */
import { z } from "zod";

export const EdgeErrorItem = z.object({ code: z.number(), message: z.string() });

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

export const Zone = z.looseObject({ id: z.string(), name: z.string(), status: z.string().optional() });
export type Zone = z.infer<typeof Zone>;

export const DnsRecord = z.looseObject({
  id: z.string(),
  zone_id: z.string().optional(),
  zone_name: z.string().optional(),
  name: z.string(),
  type: z.string(),
  content: z.string(),
  proxiable: z.boolean().optional(),
  proxied: z.boolean().optional(),
  ttl: z.number(),
  priority: z.number().optional(),
  comment: z.string().nullish(),
  created_on: z.string().optional(),
  modified_on: z.string().optional(),
});
export type DnsRecord = z.infer<typeof DnsRecord>;

/** The body of a create or an update: PATCH takes any subset. */
export interface DnsRecordBody {
  type?: string;
  name?: string;
  content?: string;
  ttl?: number;
  proxied?: boolean;
  priority?: number;
  comment?: string | null;
}

export const ZoneSetting = z.looseObject({
  id: z.string(),
  value: z.unknown(),
  editable: z.boolean().optional(),
  modified_on: z.string().nullish(),
});
export type ZoneSetting = z.infer<typeof ZoneSetting>;

export const TokenStatus = z.looseObject({ id: z.string(), status: z.string() });
export const Deleted = z.looseObject({ id: z.string() }).nullable();

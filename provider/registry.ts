/** One flat, alphabetical table: resource type token -> handler, schemas and metadata. */
import type { z } from "zod";
import type { Handler } from "./handler";
import { dnsRecord } from "./edge/dns-record/handler";
import * as dnsRecordSchema from "./edge/dns-record/schema";
import { zoneSetting } from "./edge/zone-setting/handler";
import * as zoneSettingSchema from "./edge/zone-setting/schema";

export interface ResourceEntry {
  handler: Handler;
  inputs: z.ZodType;
  outputs: z.ZodType;
  description: string;
}

export const registry: Record<string, ResourceEntry> = {
  [dnsRecordSchema.token]: {
    handler: dnsRecord,
    inputs: dnsRecordSchema.DnsRecordInputs,
    outputs: dnsRecordSchema.DnsRecordOutputs,
    description: "A DNS record of a zone on the edge network.",
  },
  [zoneSettingSchema.token]: {
    handler: zoneSetting,
    inputs: zoneSettingSchema.ZoneSettingInputs,
    outputs: zoneSettingSchema.ZoneSettingOutputs,
    description: "One setting of a zone (ssl, always_use_https, security_level, ...); destroy restores the value found before.",
  },
};

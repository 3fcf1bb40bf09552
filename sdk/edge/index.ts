export { DnsRecord, type DnsRecordArgs } from "./dns-record";
export { DnsRecordSet, type DnsRecordSetArgs } from "./dns-record-set";
export { FirewallRule, type FirewallRuleArgs } from "./firewall-rule";
export * from "./functions";
export { PageRule, type PageRuleArgs } from "./page-rule";
export { RateLimit, type RateLimitArgs } from "./rate-limit";
export { WorkerScript, type WorkerScriptArgs } from "./worker-script";
export { ZoneSetting, type ZoneSettingArgs } from "./zone-setting";
export type * from "./types";

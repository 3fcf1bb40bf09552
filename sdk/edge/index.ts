export { DnsRecord, type DnsRecordArgs } from "./dns-record";
export { ZoneSetting, type ZoneSettingArgs } from "./zone-setting";

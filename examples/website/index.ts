import * as pulumi from "@pulumi/pulumi";
import * as ops from "pulumi-ops";

const config = new pulumi.Config();
const zoneName = config.get("zoneName") ?? "example.com";
const origin = config.get("originIp") ?? "203.0.113.10";
/** Changing this updates the api record in place. */
const apiTtl = config.getNumber("apiTtl") ?? 300;
/** Changing this between CNAME and A replaces the docs record. */
const docsType = config.get("docsType") ?? "CNAME";

// Zone settings: each is restored to the value found before when the stack is destroyed.
const https = new ops.edge.ZoneSetting("always-use-https", { zoneName, settingId: "always_use_https", value: "on" });
const ssl = new ops.edge.ZoneSetting("ssl", { zoneName, settingId: "ssl", value: "strict" });
new ops.edge.ZoneSetting("security-level", { zoneName, settingId: "security_level", value: "high" });

// The apex, proxied: the service reports ttl 1 for it, which is not a change.
const apex = new ops.edge.DnsRecord("apex", { zoneName, type: "A", name: "@", content: origin, proxied: true });
// Spelled unlike the service's canonical form on purpose: still no diff on the next up.
new ops.edge.DnsRecord("apex-v6", { zoneName, type: "AAAA", name: "@", content: "2001:DB8:0:0::10", proxied: true });
new ops.edge.DnsRecord("www", { zoneName, type: "CNAME", name: "www", content: `${zoneName}.`, proxied: true });
// Named by its label: the service answers with the full name, which is not a change either.
const api = new ops.edge.DnsRecord("api", { zoneName, type: "A", name: "api", content: "203.0.113.20", ttl: apiTtl });
new ops.edge.DnsRecord("docs", {
  zoneName,
  type: docsType as "CNAME" | "A",
  name: "docs",
  content: docsType === "A" ? "203.0.113.30" : "docs-host.example.net",
  ttl: 3600,
});
new ops.edge.DnsRecord("mail", { zoneName, type: "MX", name: "@", content: "mail.example.net", priority: 10, ttl: 3600 });
new ops.edge.DnsRecord("spf", { zoneName, type: "TXT", name: "@", content: "v=spf1 include:_spf.example.net ~all", ttl: 3600 });

export const zoneId = apex.zoneId;
export const apexHostname = apex.hostname;
export const apiRecord = { id: api.id, hostname: api.hostname, ttl: api.ttl };
export const sslWas = ssl.initialValue;
export const httpsWas = https.initialValue;

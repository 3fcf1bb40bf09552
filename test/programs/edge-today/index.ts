import * as pulumi from "@pulumi/pulumi";
import * as ops from "pulumi-ops";

const config = new pulumi.Config();
const zoneName = "example.com";
/** A 2048-bit DKIM key's record: 400 characters, which the service stores as two quoted strings. */
const dkim = `v=DKIM1; k=rsa; p=${"MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA".repeat(9)}`.slice(0, 400);

new ops.edge.FirewallRule("block-bad-net", {
  zoneName,
  expression: "ip.src in {198.51.100.0/24}",
  action: (config.get("firewallAction") ?? "block") as "block" | "managed_challenge",
  description: "known bad network",
});
new ops.edge.RateLimit("login", {
  zoneName,
  threshold: 20,
  period: config.getNumber("period") ?? 10,
  action: { mode: "ban", timeout: 10 },
  match: { request: { url: "*/login*" } },
});
new ops.edge.DnsRecord("dkim", { zoneName, type: "TXT", name: "sel._domainkey", content: dkim });
new ops.edge.DnsRecordSet("mail", {
  zoneName,
  records: {
    dkim2: { type: "TXT", name: "sel2._domainkey", content: dkim, ttl: 300 },
    spf: { type: "TXT", name: "@", content: "v=spf1 -all", ttl: 300 },
  },
});
new ops.edge.WorkerScript("module", {
  name: "site-module",
  content: "export default {\n  async fetch() {\n    return new Response('module');\n  },\n};\n",
});
new ops.edge.WorkerScript("service-worker", {
  name: "site-sw",
  content: "addEventListener('fetch', (event) => event.respondWith(new Response('sw')));\n",
  compatibilityDate: "2024-09-23",
});

const zone = ops.edge.getZoneOutput({ name: zoneName });
export const requestsLastDay = ops.edge.getZoneAnalyticsOutput({ zoneId: zone.id, since: -1440 }).requests.all;
export const token = ops.edge.verifyTokenOutput({}).kind;

import * as pulumi from "@pulumi/pulumi";
import * as ops from "pulumi-ops";

const config = new pulumi.Config();
const zoneName = config.get("zoneName") ?? "example.com";
const origin = config.get("originIp") ?? "203.0.113.10";
/** Changing this updates the api record in place. */
const apiTtl = config.getNumber("apiTtl") ?? 300;
/** Changing this between CNAME and A replaces the docs record. */
const docsType = config.get("docsType") ?? "CNAME";
/** Changing these updates the page rule, firewall rule, rate limit and edge script in place. */
const cacheLevel = config.get("cacheLevel") ?? "cache_everything";
const firewallAction = (config.get("firewallAction") ?? "block") as "block" | "managed_challenge";
const loginThreshold = config.getNumber("loginThreshold") ?? 10;
const workerVersion = config.get("workerVersion") ?? "1";
/** Changing this renames the edge script, which replaces it. */
const workerName = config.get("workerName") ?? "site-edge";

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

// Caching: two page rules with sparse ranks (10, 20); the service renumbers them 1, 2 and nothing churns.
const cacheStatic = new ops.edge.PageRule("cache-static", {
  zoneName,
  targets: [`${zoneName}/static/*`],
  actions: [{ id: "cache_level", value: cacheLevel }],
  priority: 10,
});
// The service places a new rule by rank among the rules that exist when it arrives, so rules are created in
// rank order: the higher-ranked one after the lower.
new ops.edge.PageRule(
  "https-docs",
  {
    zoneName,
    targets: [`docs.${zoneName}/*`],
    actions: [{ id: "always_use_https" }, { id: "browser_cache_ttl", value: 3600 }],
    priority: 20,
  },
  { dependsOn: [cacheStatic] },
);

// Security: a network that is blocked outright, and a rate limit on the login path.
new ops.edge.FirewallRule("block-bad-net", {
  zoneName,
  expression: "ip.src in {198.51.100.0/24}",
  action: firewallAction,
  description: "known bad network",
});
// What a Free zone's plan allows a rate limiting rule: a 10-second count, a 10-second ban, paths of any host. A Pro
// or Business zone may count longer, ban longer, and match the host and the method (docs/reference/edge.md).
new ops.edge.RateLimit("login", {
  zoneName,
  threshold: loginThreshold,
  period: 10,
  action: { mode: "ban", timeout: 10 },
  match: { request: { url: "*/login*" } },
  description: "slow down password guessing",
});

// A Workers KV namespace for the site's sessions: renamed in place when its title changes; destroy deletes it with
// its keys.
const sessions = new ops.edge.KvNamespace("sessions", { title: "site-sessions" });
export const sessionsId = sessions.namespaceId;
// Its files (an R2 bucket: destroy deletes it only when empty) and its orders (a D1 database).
const files = new ops.edge.R2Bucket("files", { name: "site-files", storageClass: "Standard" });
const orders = new ops.edge.D1Database("orders", { name: "site-orders" });
export const ordersId = orders.databaseId;

// The edge script, from a file next to this program; compared by content hash. It reads the sessions through a
// binding: made after the namespace, whose id it names. Its class Visits is a Durable Object through the migration
// v1 (an up applies only the steps the script has not had), which the VISITS binding names.
const script = new ops.edge.WorkerScript("edge-script", {
  name: workerName,
  source: workerVersion === "2" ? "worker-v2.js" : "worker.js",
  bindings: [
    { name: "SESSIONS", type: "kv_namespace", namespaceId: sessions.namespaceId },
    { name: "FILES", type: "r2_bucket", bucketName: files.name },
    { name: "ORDERS", type: "d1", databaseId: orders.databaseId },
    { name: "VISITS", type: "durable_object_namespace", className: "Visits" },
  ],
  migrations: [{ tag: "v1", newSqliteClasses: ["Visits"] }],
});
// Where the zone runs it: a script serves nothing until a route (or a custom domain) points at it. Renaming the
// script moves the route to the new one in place.
const route = new ops.edge.WorkerRoute("edge-route", { zoneName, pattern: `${zoneName}/edge/*`, script: script.name });

// Read-only views: `getX` returns a promise, `getXOutput` takes and returns outputs.
const zone = ops.edge.getZoneOutput({ name: zoneName });
export const zoneStatus = zone.status;
export const lastDayRequests = ops.edge.getZoneAnalyticsOutput({ zoneId: zone.id, since: -1440 }).requests.all;
export const busiestLocation = ops.edge
  .getCacheStatsOutput({ zoneId: zone.id })
  .colos.apply((colos) => [...colos].sort((a, b) => b.requests.all - a.requests.all)[0].colo);

export const zoneId = apex.zoneId;
export const cacheRank = { asked: cacheStatic.priority, effective: cacheStatic.effectivePriority };
export const scriptHash = script.contentHash;
export const scriptRoute = route.pattern;
export const apexHostname = apex.hostname;
export const apiRecord = { id: api.id, hostname: api.hostname, ttl: api.ttl };
export const sslWas = ssl.initialValue;
export const httpsWas = https.initialValue;

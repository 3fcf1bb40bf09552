import * as ops from "pulumi-ops";

// Every edge resource a site has, as the previous release's users declare them (no input of the new release).
const zoneName = "example.com";
new ops.edge.DnsRecord("www", { zoneName, type: "CNAME", name: "www", content: "example.com", proxied: true });
new ops.edge.DnsRecordSet("hosts", {
  zoneName,
  records: {
    apex: { type: "A", name: "@", content: "203.0.113.10", ttl: 300, comment: "the shop" },
    mail: { type: "MX", name: "@", content: "mx.example.net", priority: 10, ttl: 3600 },
    caa: { type: "CAA", name: "@", data: { flags: 0, tag: "issue", value: "letsencrypt.org" }, ttl: 3600 },
    spf: { type: "TXT", name: "@", content: '"v=spf1 include:_spf.example.net -all"', ttl: 3600 },
  },
});
new ops.edge.ZoneSetting("ssl", { zoneName, settingId: "ssl", value: "full" });
new ops.edge.PageRule("static", {
  zoneName,
  targets: ["example.com/static/*"],
  actions: [{ id: "cache_level", value: "cache_everything" }],
});
new ops.edge.RulesetRule("old-blog", {
  zoneName,
  phase: "http_request_dynamic_redirect",
  ref: "old-blog",
  expression: '(http.request.uri.path eq "/blog")',
  action: "redirect",
  actionParameters: { from_value: { status_code: 301, target_url: { value: "https://example.com/news" } } },
});
new ops.edge.FirewallRule("block-admin", {
  zoneName,
  expression: '(http.request.uri.path contains "/wp-admin")',
  action: "block",
  description: "no admin",
});
const site = new ops.edge.WorkerScript("site", {
  name: "site",
  content: 'export default { fetch() { return new Response("hello"); } };\n',
  vars: { GREETING: "hello" },
  compatibilityFlags: ["nodejs_compat"],
});
new ops.edge.WorkerRoute("app", { zoneName, pattern: "example.com/app/*", script: site.name });

import * as pulumi from "@pulumi/pulumi";
import * as ops from "pulumi-ops";

const config = new pulumi.Config();
const zoneName = "example.com";

// An allow rule with no position: it must go before the block rule the zone has already, or it allows nothing.
new ops.edge.FirewallRule("allow-partner", {
  zoneName,
  expression: 'http.request.uri.path wildcard "/api/*" and ip.src eq 203.0.113.7',
  action: "allow",
  ref: "allow_partner",
});
// The block rule made in the dashboard (with logging and a custom response), taken over and renamed.
new ops.edge.FirewallRule("block-api", {
  zoneName,
  expression: 'http.request.uri.path wildcard "/api/*"',
  action: "block",
  ref: "block_api",
  description: config.get("blockDescription") ?? "block the API",
  adopt: true,
});
// What a Pro zone's plan allows: a 30 s period, a 10-minute timeout, a threshold of 1.
new ops.edge.RateLimit("login", {
  zoneName,
  threshold: 1,
  period: config.getNumber("period") ?? 30,
  action: { mode: "ban", timeout: 600 },
  match: { request: { url: "example.com/login*" } },
});

// Rules of the products that replace page rules, one each, beside the rules the zone has.
new ops.edge.RulesetRule("cache-static", {
  zoneName,
  phase: "http_request_cache_settings",
  expression: 'http.request.uri.path wildcard "/static/*"',
  action: "set_cache_settings",
  actionParameters: { cache: true, edge_ttl: { mode: "override_origin", default: 3600 } },
  ref: "cache_static",
  position: { before: "bypass_all" },
});
new ops.edge.RulesetRule("old-blog", {
  zoneName,
  phase: "http_request_dynamic_redirect",
  expression: 'http.request.uri.path eq "/old-blog"',
  action: "redirect",
  actionParameters: { from_value: { target_url: { value: "https://example.com/blog" }, status_code: 301 } },
});
new ops.edge.RulesetRule("admin-high", {
  zoneName,
  phase: "http_config_settings",
  expression: 'http.request.uri.path wildcard "/admin/*"',
  action: "set_config",
  actionParameters: { security_level: config.get("adminSecurityLevel") ?? "high" },
});

import * as pulumi from "@pulumi/pulumi";
import * as ops from "pulumi-ops";

const config = new pulumi.Config();
const zoneName = "example.com";

// An allow rule with no position: it must go before the block rule the zone has already, or it allows nothing.
new ops.edge.FirewallRule("allow-partner", { zoneName, expression: 'http.request.uri.path wildcard "/api/*" and ip.src eq 203.0.113.7', action: "allow", ref: "allow_partner" });
// The block rule made in the dashboard (with logging and a custom response), taken over and renamed.
new ops.edge.FirewallRule("block-api", { zoneName, expression: 'http.request.uri.path wildcard "/api/*"', action: "block", ref: "block_api", description: config.get("blockDescription") ?? "block the API", adopt: true });
// What a Pro zone's plan allows: a 30 s period, a 10-minute timeout, a threshold of 1.
new ops.edge.RateLimit("login", { zoneName, threshold: 1, period: config.getNumber("period") ?? 30, action: { mode: "ban", timeout: 600 }, match: { request: { url: "example.com/login*" } } });

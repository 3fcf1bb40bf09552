import * as pulumi from "@pulumi/pulumi";
import * as ops from "pulumi-ops";

const config = new pulumi.Config();
const pageId = config.require("pageId");

// A colleague's access: the tasks a reviewer sees change.
new ops.pages.PageRole("colleague", { pageId, user: "300000000000003", tasks: config.requireObject<string[]>("tasks") as never });

// 50 records, one of which a pull request changes (its TXT text).
const records: Record<string, ops.edge.DnsRecordSetRecordArgs> = {
  dmarc: { type: "TXT", name: "_dmarc", content: `"v=DMARC1; p=${config.get("dmarc") ?? "none"}"`, ttl: 3600 },
};
for (let i = 1; i < 50; i++) records[`host-${i}`] = { type: "A", name: `host-${i}`, content: `203.0.113.${i}`, ttl: 300 };
new ops.edge.DnsRecordSet("zone", { zoneName: "example.com", records });

// Two page rules: the product's deprecation is said once.
for (const [name, url] of [
  ["old-blog", "example.com/blog/*"],
  ["old-shop", "example.com/shop/*"],
]) {
  new ops.edge.PageRule(name, {
    zoneName: "example.com",
    targets: [url],
    actions: [{ id: "forwarding_url", value: { url: "https://example.com/", status_code: 301 } }],
  });
}

// A host made in the same pull request, and a post naming it.
if (config.getBoolean("launch")) {
  const shop = new ops.edge.DnsRecord("shop", {
    zoneName: "example.com",
    type: "CNAME",
    name: "shop",
    content: "shops.example.net",
    proxied: true,
  });
  new ops.pages.PagePost("launch", { pageId, message: pulumi.interpolate`Our shop is open: https://${shop.hostname}/` });
}

// Twenty records made by hand before this program, taken over: nothing is made, nothing is sent.
for (let i = 1; i <= (config.getNumber("takeOver") ?? 0); i++) {
  new ops.edge.DnsRecord(`legacy-${i}`, {
    zoneName: "example.com",
    type: "A",
    name: `legacy-${i}`,
    content: `198.51.100.${i}`,
    ttl: 300,
    adopt: true,
  });
}

// Six mistakes in one pull request, each resource's own: four the program's check finds, two only the provider's
// (a schedule against the stack's state), which the engine says one at a time and the pipeline collects.
if (config.getBoolean("mistakes")) {
  new ops.edge.DnsRecord("typo-address", { zoneName: "example.com", type: "A", name: "typo", content: "203.0.113.300" });
  new ops.edge.DnsRecord("short-ttl", { zoneName: "example.com", type: "A", name: "short", content: "203.0.113.7", ttl: 5 });
  new ops.edge.PageRule("no-zone-pattern", {
    zoneName: "example.com",
    targets: ["other.example.net/*"],
    actions: [{ id: "always_use_https" }],
  });
  new ops.pages.PagePost("yesterday", { pageId, message: "Too late", published: false, scheduledPublishTime: "2020-01-01T00:00:00Z" });
  new ops.pages.PagePost("last-year", {
    pageId,
    message: "Later still too late",
    published: false,
    scheduledPublishTime: "2025-11-01T00:00:00Z",
  });
  new ops.pages.PageRole("unknown-task", { pageId, user: "300000000000004", tasks: ["MODERATE", "DANCE"] as never });
}

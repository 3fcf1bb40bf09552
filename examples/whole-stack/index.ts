/**
 * One operator's whole stack, across the six services, each resource where a user would put it:
 *   edge network   a zone setting, DNS records, a page rule, a firewall rule, a rate limit, an edge script on a route
 *   pages          a helper's role on the page, and a post that links to the site
 *   short posts    a post that links to the site
 *   model runner   a base model pulled, and the site's assistant made from it
 *   skills         a runbook skill written by that assistant from the bakery's handbooks
 *   remote host    the web server's site file, naming the site's hostnames
 * `npm run demo` runs it against the embedded emulators; see README.md here to run it yourself.
 */
import * as pulumi from "@pulumi/pulumi";
import * as ops from "pulumi-ops";

const config = new pulumi.Config();
const zoneName = config.get("zoneName") ?? "example.com";
const pageId = config.get("pageId") ?? "200000000000001";
const origin = config.get("originIp") ?? "203.0.113.10";

// The site on the edge network. ssl goes back to the value found before when the stack is destroyed.
new ops.edge.ZoneSetting("ssl", { zoneName, settingId: "ssl", value: "strict" });
const apex = new ops.edge.DnsRecord("apex", { zoneName, type: "A", name: "@", content: origin, proxied: true });
const www = new ops.edge.DnsRecord("www", { zoneName, type: "CNAME", name: "www", content: zoneName, proxied: true });
new ops.edge.DnsRecord("api", { zoneName, type: "A", name: "api", content: "203.0.113.20", ttl: 300 });
new ops.edge.PageRule("cache-static", {
  zoneName,
  targets: [`${zoneName}/static/*`],
  actions: [{ id: "cache_level", value: "cache_everything" }],
  priority: 1,
});
new ops.edge.FirewallRule("block-bad-net", {
  zoneName,
  expression: "ip.src in {198.51.100.0/24}",
  action: "block",
  description: "known bad network",
});
new ops.edge.RateLimit("login", {
  zoneName,
  threshold: 10,
  period: 10,
  action: { mode: "ban", timeout: 10 },
  match: { request: { url: "*/login*" } },
});
const edgeScript = new ops.edge.WorkerScript("site-edge", { name: "site-edge", source: "worker.js" });
// A script serves nothing until a route (or a custom domain) points at it: the site's /edge/ paths run it.
new ops.edge.WorkerRoute("site-edge", { zoneName, pattern: `${zoneName}/edge/*`, script: edgeScript.name });

// The page: a helper who moderates it, and a post announcing the site by the hostname the edge answers for.
new ops.pages.PageRole("helper", { pageId, user: "300000000000003", role: "MODERATOR" });
const pagePost = new ops.pages.PagePost("site-launch", {
  pageId,
  message: pulumi.interpolate`Order online now at https://${www.hostname}`,
});

// A short post with the same link (any change to a short post replaces it: the service cannot edit one).
const post = new ops.posts.Post("site-launch", {
  mediaType: "TEXT",
  text: pulumi.interpolate`Fresh bread, now online: https://${www.hostname}`,
});

// A base model pulled by name, and the site's assistant made from it, told which site it serves.
const base = new ops.runner.RunnerModel("base", { name: "qwen2.5:0.5b" });
const assistant = new ops.runner.RunnerModel("assistant", {
  name: "site-assistant",
  from: base.name,
  system: pulumi.interpolate`You answer the bakery's staff about ${apex.hostname}. Be brief.`,
  parameters: { temperature: 0.2 },
});

// A skill the assistant writes from the bakery's handbooks, validated, then published to the registry.
const runbook = new ops.skills.GeneratedSkill("oven-runbook", {
  slug: "oven-runbook",
  sources: ["../ai-host/sources/deck-oven-handbook.md", "../ai-host/sources/bake-schedule.md"],
  model: assistant.name,
  topic: "running the deck ovens through a bake day",
  category: "ops",
});

// The web server's site file on the host, naming the hostnames the edge sends to it; removed on destroy.
const siteFile = new ops.control.RemoteCommand("site-file", {
  create: pulumi.interpolate`mkdir -p /etc/site && echo "server_name ${apex.hostname} ${www.hostname}" > /etc/site/bakery.conf && cat /etc/site/bakery.conf`,
  delete: "rm -f /etc/site/bakery.conf",
});

export const site = pulumi.interpolate`https://${www.hostname}`;
export const pagePostId = pagePost.postId;
export const postLink = post.permalink;
export const assistantDigest = assistant.digest;
export const runbookLines = runbook.lines;
export const siteFileOnHost = siteFile.stdout;

/**
 * One resource of every type; `replacements:step` 2 changes, for each, a property that replaces it. Where old and
 * new stand for the same thing on the service (a name's record type, an account move of one subscription, one
 * host's session, a command's marker), the replacement must leave the new object in place, not undo it.
 */
import * as pulumi from "@pulumi/pulumi";
import * as ops from "pulumi-ops";

const config = new pulumi.Config();
const two = config.requireNumber("step") === 2;
const zoneName = two ? "example.org" : "example.com";
const account = two ? "b" : undefined; // the same service and credentials under another account name: the same objects
const pageId = "200000000000001";
const ex = "../../../examples/ai-host";

new ops.edge.DnsRecord(
  "www",
  two
    ? { zoneName: "example.com", type: "CNAME", name: "www", content: "target.example.net", ttl: 300 }
    : { zoneName: "example.com", type: "A", name: "www", content: "203.0.113.10", ttl: 300 },
);
new ops.edge.DnsRecordSet("set", { zoneName, records: { "A:api": { type: "A", name: "api", content: "203.0.113.20", ttl: 300 } } });
new ops.edge.ZoneSetting("level", { zoneName, settingId: "security_level", value: "high" });
new ops.edge.PageRule("cache", {
  zoneName,
  targets: [`${zoneName}/static/*`],
  actions: [{ id: "cache_level", value: "cache_everything" }],
});
new ops.edge.FirewallRule("block", { zoneName, filter: { expression: 'http.request.uri.path eq "/admin"' }, action: "block" });
new ops.edge.RateLimit("login", {
  zoneName,
  threshold: 10,
  period: 10,
  action: { mode: "ban", timeout: 10 },
  match: { request: { url: "*/login*" } },
});
new ops.edge.WorkerScript("script", {
  name: two ? "edge-b" : "edge-a",
  content: "export default { fetch() { return new Response('ok') } }",
});

new ops.pages.PagePost("post", {
  pageId,
  message: "Winter menu, coming soon",
  published: false,
  ...(two ? { link: "https://example.com/menu" } : {}),
});
// Alice already has a role on the page (outside a business, as 0.3.0 left it): taken over with adopt, which it keeps.
new ops.pages.PageRole("role", { pageId, user: two ? "300000000000003" : "300000000000002", role: "EDITOR", adopt: true });
new ops.pages.PageSubscription("subscription", { pageId, subscribedFields: ["feed"], account });

// A published post cannot be edited: this program means its replacement (a new post, the old one deleted).
new ops.posts.Post("hello", { mediaType: "TEXT", text: two ? "Fresh bread from 7." : "Fresh bread every morning.", allowRepublish: true });

const model = new ops.runner.RunnerModel("model", { name: "baker", from: "qwen2.5:0.5b", system: "You bake.", account });
new ops.skills.Skill("care", { slug: two ? "oven-care-v2" : "oven-care", source: `${ex}/skills/oven-care/SKILL.md`, category: "ops" });
new ops.skills.GeneratedSkill("runbook", {
  slug: two ? "oven-runbook-v2" : "oven-runbook",
  sources: [`${ex}/sources/deck-oven-handbook.md`, `${ex}/sources/bake-schedule.md`],
  model: model.name,
  category: "ops",
});

new ops.control.RemoteDesktopSession("desk", {
  host: "kiosk.local",
  username: "ops",
  password: config.requireSecret("vncPassword"),
  waitSeconds: 3,
  triggers: [two ? 2 : 1],
});
new ops.control.RemoteCommand("marker", { create: "echo deployed > /tmp/marker", delete: "rm -f /tmp/marker", triggers: [two ? 2 : 1] });

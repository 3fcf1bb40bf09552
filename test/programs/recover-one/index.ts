import * as pulumi from "@pulumi/pulumi";
import * as ops from "pulumi-ops";

// One resource of each kind named by config (comma-separated), each named by its kind.
const kinds = new Set(new pulumi.Config().require("kinds").split(","));
if (kinds.has("record"))
  new ops.edge.DnsRecord("record", { zoneName: "example.com", type: "A", name: "killed-once", content: "203.0.113.77", ttl: 300 });
if (kinds.has("pageRule"))
  new ops.edge.PageRule("pageRule", {
    zoneName: "example.com",
    targets: ["example.com/blog/*"],
    actions: [{ id: "cache_level", value: "cache_everything" }],
  });
if (kinds.has("pagePost")) new ops.pages.PagePost("pagePost", { pageId: "200000000000001", message: "Read our new blog" });
if (kinds.has("post")) new ops.posts.Post("post", { mediaType: "TEXT", text: "Read our new blog" });
if (kinds.has("firewallRule"))
  new ops.edge.FirewallRule("firewallRule", {
    zoneName: "example.com",
    expression: 'http.request.uri.path eq "/killed"',
    action: "block",
  });
if (kinds.has("skill"))
  new ops.skills.Skill("skill", { slug: "oven-care", source: "../../../examples/ai-host/skills/oven-care/SKILL.md", category: "ops" });
if (kinds.has("command")) new ops.control.RemoteCommand("command", { create: "echo deployed-once" });

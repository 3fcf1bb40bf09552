import * as pulumi from "@pulumi/pulumi";
import * as ops from "pulumi-ops";

const kind = new pulumi.Config().require("kind");
if (kind === "record")
  new ops.edge.DnsRecord("one", { zoneName: "example.com", type: "A", name: "killed-once", content: "203.0.113.77", ttl: 300 });
if (kind === "pageRule")
  new ops.edge.PageRule("one", {
    zoneName: "example.com",
    targets: ["example.com/blog/*"],
    actions: [{ id: "cache_level", value: "cache_everything" }],
  });
if (kind === "pagePost") new ops.pages.PagePost("one", { pageId: "200000000000001", message: "Read our new blog" });
if (kind === "post") new ops.posts.Post("one", { mediaType: "TEXT", text: "Read our new blog" });
if (kind === "firewallRule")
  new ops.edge.FirewallRule("one", { zoneName: "example.com", expression: 'http.request.uri.path eq "/killed"', action: "block" });
if (kind === "skill")
  new ops.skills.Skill("one", { slug: "oven-care", source: "../../../examples/ai-host/skills/oven-care/SKILL.md", category: "ops" });
if (kind === "command") new ops.control.RemoteCommand("one", { create: "echo deployed-once" });

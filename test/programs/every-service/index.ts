import * as pulumi from "@pulumi/pulumi";
import * as ops from "pulumi-ops";

/** The bad-input scenario sets a ttl the service refuses, to see `pulumi preview` stop it. */
const ttl = new pulumi.Config().getNumber("ttl") ?? 300;

new ops.edge.DnsRecord("www", { zoneName: "example.com", type: "A", name: "www", content: "203.0.113.10", ttl });
new ops.pages.PagePost("draft", { pageId: "200000000000001", message: "Winter menu, coming soon", published: false });
new ops.posts.Post("hello", { mediaType: "TEXT", text: "Fresh bread every morning from 7." });
new ops.skills.Skill("oven-care", { slug: "oven-care", source: "../../../examples/ai-host/skills/oven-care/SKILL.md", category: "ops" });
new ops.runner.RunnerModel("base", { name: "qwen2.5:0.5b" });
new ops.control.RemoteCommand("marker", { create: "echo deployed > /tmp/marker", delete: "rm -f /tmp/marker" });

import * as ops from "pulumi-ops";

// Four posts, published at once (the account may publish 250 a day), while slowed records are still being made.
for (let i = 1; i <= 4; i++) new ops.posts.Post(`post-${i}`, { mediaType: "TEXT", text: `Bake ${i} of the day is out.` });
for (let i = 1; i <= 6; i++)
  new ops.edge.DnsRecord(`host-${i}`, { zoneName: "example.com", type: "A", name: `host-${i}`, content: `203.0.113.${i}`, ttl: 300 });
// One of each other kind the recovery must leave once and in state.
new ops.pages.PagePost("announcement", { pageId: "200000000000001", message: "Open on Sunday." });
new ops.edge.PageRule("static", {
  zoneName: "example.com",
  targets: ["example.com/static/*"],
  actions: [{ id: "cache_level", value: "cache_everything" }],
});
new ops.skills.Skill("oven-care", { slug: "oven-care", source: "../../../examples/ai-host/skills/oven-care/SKILL.md", category: "ops" });
new ops.control.RemoteCommand("marker", { create: "echo deployed > /tmp/marker", delete: "rm -f /tmp/marker" });

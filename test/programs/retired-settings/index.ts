import * as ops from "pulumi-ops";

// Resources of several services: before, the retired key failed every one of them at preview.
new ops.edge.DnsRecord("www", { zoneName: "example.com", type: "A", name: "www", content: "203.0.113.10", ttl: 300 });
new ops.posts.Post("hello", { mediaType: "TEXT", text: "Fresh bread at 7." });
new ops.runner.RunnerModel("base", { name: "qwen2.5:0.5b" });

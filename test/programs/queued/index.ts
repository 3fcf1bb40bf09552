import * as ops from "pulumi-ops";

// Four posts: the service takes one publish per 10 seconds, so three wait in the provider's queue at any moment.
for (let i = 1; i <= 4; i++) new ops.posts.Post(`post-${i}`, { mediaType: "TEXT", text: `Bake ${i} of the day is out.` });
for (let i = 1; i <= 6; i++) new ops.edge.DnsRecord(`host-${i}`, { zoneName: "example.com", type: "A", name: `host-${i}`, content: `203.0.113.${i}`, ttl: 300 });

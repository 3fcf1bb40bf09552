import * as ops from "pulumi-ops";

const www = new ops.edge.DnsRecord("www", { zoneName: "example.com", type: "A", name: "www", content: "203.0.113.10", ttl: 300 });
const cache = new ops.edge.PageRule("cache", {
  zoneName: "example.com",
  targets: ["example.com/static/*"],
  actions: [{ id: "cache_level", value: "cache_everything" }],
});
export const wwwId = www.id;
export const cacheId = cache.id;

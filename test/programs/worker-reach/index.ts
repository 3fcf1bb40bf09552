import * as pulumi from "@pulumi/pulumi";
import * as ops from "pulumi-ops";

const config = new pulumi.Config();
const zoneName = "example.com";

const site = new ops.edge.WorkerScript("site", {
  name: "site",
  content: "export default {\n  async fetch(request, env) {\n    return new Response(`${env.GREETING} from the edge`);\n  },\n};\n",
  vars: { GREETING: config.get("greeting") ?? "hello" },
  secrets: { API_KEY: config.requireSecret("apiKey") },
  workersDev: true,
});
new ops.edge.WorkerRoute("app", { zoneName, pattern: "example.com/app/*", script: site.name });
new ops.edge.WorkerDomain("api", { zoneName, hostname: "api.example.com", script: site.name });
// A pattern another script is routed on already: refused at preview unless adopted.
const taken = config.get("takePattern");
if (taken) new ops.edge.WorkerRoute("taken", { zoneName, pattern: taken, script: site.name });

// Records as the service keeps them: tags and settings, on one record and on a set of many.
new ops.edge.DnsRecord("www", {
  zoneName,
  type: "CNAME",
  name: "www",
  content: "origin.example.net",
  ttl: 300,
  tags: ["env:prod", "team:web"],
  settings: { flattenCname: true },
});
const count = config.getNumber("fleet") ?? 1000;
const records: Record<string, ops.edge.DnsRecordSetRecordArgs> = {};
for (let i = 0; i < count; i++)
  records[`h${i}`] = { type: "A", name: `h${i}`, content: `10.1.${i >> 8}.${i & 255}`, ttl: 300, tags: [`index:${i}`, "fleet:web"] };
new ops.edge.DnsRecordSet("fleet", { zoneName, records });

export const scriptName = site.name;

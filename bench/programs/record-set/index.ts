import * as pulumi from "@pulumi/pulumi";
import * as ops from "pulumi-ops";

const config = new pulumi.Config();
const count = config.requireNumber("count");
/** Records whose index is a multiple of 100 get this in their content: raising it updates 1% of them. */
const generation = config.getNumber("generation") ?? 0;

const records: Record<string, ops.edge.DnsRecordSetRecordArgs> = {};
for (let i = 0; i < count; i++) {
  const bumped = i % 100 === 0 ? generation : 0;
  records[`r${i}`] = { type: "A", name: `host-${i}`, content: `203.${bumped}.${Math.floor(i / 250) % 250}.${(i % 250) + 1}`, ttl: 300 };
}

if (config.getBoolean("floor")) {
  // Floor (a): the same records in a no-I/O resource of the same property names (noop-floor/set.js).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { NoopSet } = require("noop-floor") as { NoopSet: new (name: string, args: Record<string, unknown>) => pulumi.CustomResource };
  new NoopSet("records", { zoneName: "example.com", records });
} else {
  new ops.edge.DnsRecordSet("records", { zoneName: "example.com", records });
}

import * as pulumi from "@pulumi/pulumi";
import * as ops from "pulumi-ops";

const config = new pulumi.Config();
const count = config.requireNumber("count");
/** Records whose index is a multiple of 10 get this in their content: raising it updates 10% of them. */
const generation = config.getNumber("generation") ?? 0;
/** Set per stack when two stacks share the zone (bench/two-stacks.ts), so neither touches the other's records. */
const prefix = config.get("prefix") ?? "";

for (let i = 0; i < count; i++) {
  const bumped = i % 10 === 0 ? generation : 0;
  new ops.edge.DnsRecord(`r${i}`, {
    zoneName: "example.com",
    type: "A",
    name: `${prefix}host-${i}`,
    content: `203.${bumped}.${Math.floor(i / 250)}.${(i % 250) + 1}`,
    ttl: 300,
  });
}

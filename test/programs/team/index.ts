import * as pulumi from "@pulumi/pulumi";
import * as ops from "pulumi-ops";

const config = new pulumi.Config();
const count = config.getNumber("count") ?? 4;
const ttl = config.getNumber("ttl") ?? 300;
const stack = pulumi.getStack();

export const hostnames = Array.from(
  { length: count },
  (_, i) =>
    new ops.edge.DnsRecord(`host-${i}`, {
      zoneName: "example.com",
      type: "A",
      name: `${stack}-host-${i}`,
      content: `203.0.113.${i + 1}`,
      ttl,
    }).hostname,
);

import * as pulumi from "@pulumi/pulumi";
type NoopClass = new (name: string, args: Record<string, unknown>) => pulumi.CustomResource;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const floor = require("noop-floor") as { Noop: NoopClass; RecordShapedNoop: NoopClass };

const config = new pulumi.Config();
// `outputs: record`: the variant whose outputs are the size of a DNS record's (bench/repeat.ts).
const Noop = config.get("outputs") === "record" ? floor.RecordShapedNoop : floor.Noop;
const count = config.requireNumber("count");
const generation = config.getNumber("generation") ?? 0;

for (let i = 0; i < count; i++) {
  const bumped = i % 10 === 0 ? generation : 0;
  new Noop(`r${i}`, {
    zoneName: "example.com",
    type: "A",
    name: `host-${i}`,
    content: `203.${bumped}.${Math.floor(i / 250)}.${(i % 250) + 1}`,
    ttl: 300,
  });
}

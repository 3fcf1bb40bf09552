import * as pulumi from "@pulumi/pulumi";

const config = new pulumi.Config();
const count = config.requireNumber("count");
const generation = config.getNumber("generation") ?? 0;

// The same shape of provider as pulumi-ops' (methods that call into a module), doing no I/O.
const provider: pulumi.dynamic.ResourceProvider = {
  async check(_olds, news) {
    return { inputs: news };
  },
  async diff(_id, olds, news) {
    return { changes: olds.content !== news.content };
  },
  async create(inputs) {
    return { id: `noop-${inputs.name}`, outs: inputs };
  },
  async read(id, props) {
    return { id, props };
  },
  async update(_id, _olds, news) {
    return { outs: news };
  },
  async delete() {},
};

/**
 * The same property names as ops.edge.DnsRecord registers (its inputs, and its output-only properties passed as
 * undefined), because the Node SDK's cost of registering a resource grows with its number of properties: each one
 * becomes an Output resolved through four promises, each capturing a stack trace that source-map-support rewrites.
 * That cost is the engine's, whatever the provider does, so the floor carries it too.
 */
const OUTPUT_ONLY = ["zoneId", "proxied", "priority", "comment", "adopt", "hostname", "proxiable", "createdOn", "modifiedOn"];

class Noop extends pulumi.dynamic.Resource {
  constructor(name: string, args: Record<string, unknown>) {
    super(provider, name, { ...Object.fromEntries(OUTPUT_ONLY.map((k) => [k, undefined])), ...args }, {}, "bench", "Noop");
  }
}

for (let i = 0; i < count; i++) {
  const bumped = i % 10 === 0 ? generation : 0;
  new Noop(`r${i}`, { zoneName: "example.com", type: "A", name: `host-${i}`, content: `203.${bumped}.${Math.floor(i / 250)}.${(i % 250) + 1}`, ttl: 300 });
}

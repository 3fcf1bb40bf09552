// The floor (a) of npm run bench: a package installed in the program's node_modules, as pulumi-ops is, so that
// everything but the provider's work costs the same. Its class is plain JavaScript, like pulumi-ops' dist/ (ts-node
// maps the frames of a program's own .ts files through source maps on every stack capture, and the Node SDK
// captures four stacks per property of every resource).
const pulumi = require("@pulumi/pulumi");

const provider = require("./provider");
const recordShaped = require("./record-shaped");
const set = require("./set");

/**
 * The same property names as ops.edge.DnsRecord registers (its inputs, and its output-only properties passed as
 * undefined), because the Node SDK's cost of registering a resource grows with its number of properties: each one
 * becomes an Output resolved through four promises, each capturing a stack trace that source-map-support rewrites.
 * That cost is the engine's, whatever the provider does, so the floor carries it too.
 */
const OUTPUT_ONLY = ["zoneId", "proxied", "priority", "comment", "adopt", "hostname", "proxiable", "createdOn", "modifiedOn"];

class Noop extends pulumi.dynamic.Resource {
  constructor(name, args) {
    super(provider, name, { ...Object.fromEntries(OUTPUT_ONLY.map((k) => [k, undefined])), ...args }, {}, "bench", "Noop");
  }
}

/** The same, with outputs the size of a DNS record's (./record-shaped.js). */
class RecordShapedNoop extends pulumi.dynamic.Resource {
  constructor(name, args) {
    super(recordShaped, name, { ...Object.fromEntries(OUTPUT_ONLY.map((k) => [k, undefined])), ...args }, {}, "bench", "Noop");
  }
}

/** Floor (a) of the record set (./set.js): the property names ops.edge.DnsRecordSet registers. */
class NoopSet extends pulumi.dynamic.Resource {
  constructor(name, args) {
    super(set, name, { zoneId: undefined, adopt: undefined, ids: undefined, account: undefined, ...args }, {}, "bench", "NoopSet");
  }
}

module.exports = { Noop, RecordShapedNoop, NoopSet };

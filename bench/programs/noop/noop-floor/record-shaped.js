// A variant of the floor's provider for `node dist/bench/repeat.js`: no I/O either, but its check and create
// return bags of the same keys and sizes as ops.edge.DnsRecord's (defaults filled in; outputs with the zone id,
// hostname, proxiable and timestamps). Set beside the plain floor, it shows what the engine itself spends on
// carrying a record's outputs through every step, which no provider can avoid while it reports them.
module.exports = {
  async check(_olds, news) {
    return { inputs: { ttl: 1, proxied: false, adopt: false, ...news } };
  },
  async diff(_id, olds, news) {
    return { changes: olds.content !== news.content };
  },
  async create(inputs) {
    const { __provider, ...rest } = inputs;
    const zoneId = "023e105f4ecef8ad9ca31a8372d0c353";
    const now = "2026-11-23T02:00:00.000000Z";
    return {
      id: inputs.name.padStart(32, "0"), // a record id is 32 hex characters
      outs: { ...rest, zoneId, hostname: `${inputs.name}.example.com`, proxiable: true, createdOn: now, modifiedOn: now },
    };
  },
  async read(id, props) {
    return { id, props };
  },
  async update(_id, _olds, news) {
    return { outs: news };
  },
  async delete() {},
};

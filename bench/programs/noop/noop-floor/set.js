// Floor (a) of the record set: a provider doing no I/O and no validation, whose inputs and outputs are the bags
// ops.edge.DnsRecordSet's are (the records by key, each record's id by key, the zone). Set beside the set, it shows
// what the engine and the Node SDK spend carrying N records in one resource's inputs and outputs at every step,
// apart from anything pulumi-ops does.
const ZONE_ID = "023e105f4ecef8ad9ca31a8372d0c353";

/** A record id is 32 hex characters: the same bytes in state as the service's. */
const idOf = (key) => Buffer.from(key).toString("hex").padStart(32, "0").slice(-32);

function outputs(inputs) {
  const { __provider, ...rest } = inputs;
  const records = Object.fromEntries(Object.entries(rest.records).map(([k, r]) => [k, { proxied: false, ...r }]));
  return { ...rest, zoneId: ZONE_ID, adopt: false, records, ids: Object.fromEntries(Object.keys(records).map((k) => [k, idOf(k)])) };
}

module.exports = {
  async check(_olds, news) {
    return { inputs: news };
  },
  async diff(_id, olds, news) {
    const changed = Object.entries(news.records).some(([k, r]) => olds.records[k]?.content !== r.content) || Object.keys(olds.records).length !== Object.keys(news.records).length;
    return { changes: changed };
  },
  async create(inputs) {
    return { id: `${ZONE_ID}/set-floor`, outs: outputs(inputs) };
  },
  async read(id, props) {
    return { id, props };
  },
  async update(_id, _olds, news) {
    return { outs: outputs(news) };
  },
  async delete() {},
};

// The floor's provider: the same shape as pulumi-ops' (one object per type, the whole exports of its module, so
// that installed under node_modules it is stored in state as a require, as pulumi-ops' is), doing no I/O.
module.exports = {
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

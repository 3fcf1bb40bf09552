/**
 * `ops.edge.KvNamespace`. id: `<accountId>/<namespaceId>`. Natural key: the title (one namespace per title in the
 * account), so a create whose answer was lost is found by its title, never made twice; a namespace of the title made
 * elsewhere is taken only with `adopt: true`, with nothing written (the service keeps no label to write). A new title
 * is a rename in place; a new jurisdiction or account replaces it, which loses its data: said at preview.
 */
import { checkWith, isUnknown, withoutProvider } from "../../check";
import { createResumed } from "../../create-journal";
import { changedKeys, createByKey, deleteUnlessGone, unlessGone, type Bag, type Handler } from "../../handler";
import { AlreadyExistsError, ValidationError } from "../../http/errors";
import { takeoverNotice, warn } from "../../log";
import type * as wire from "../wire";
import { adopting, edge, edgeClaim, holdEdge } from "../zones";
import { KvNamespaceInputs, type KvNamespaceOutputs } from "./schema";

const same = (_k: string, a: unknown, b: unknown) => (a ?? "") === (b ?? "");

function outputs(wanted: Bag, n: wire.KvNamespace): KvNamespaceOutputs {
  return {
    accountId: wanted.accountId,
    title: n.title,
    ...(n.jurisdiction ? { jurisdiction: n.jurisdiction } : {}),
    adopt: wanted.adopt ?? false,
    namespaceId: n.id,
    ...(typeof n.supports_url_encoding === "boolean" ? { supportsUrlEncoding: n.supports_url_encoding } : {}),
  };
}

const byTitle = async (accountId: string, title: string) => (await edge().listKvNamespaces(accountId)).find((n) => n.title === title);

export function titleTaken(title: string, id: string): AlreadyExistsError {
  return new AlreadyExistsError({
    service: "edge",
    code: 10014,
    message: `the account has a KV namespace titled "${title}" already (id ${id}), made by another tool or stack`,
    remedy: "Set `adopt: true` on this KvNamespace to take it over with its data, or choose another title",
  });
}

/** A namespace taken over must be where the program says its data is: a jurisdiction cannot be changed. */
function sameJurisdiction(r: Bag, n: wire.KvNamespace): void {
  if (r.jurisdiction !== undefined && (n.jurisdiction ?? undefined) !== r.jurisdiction)
    throw new ValidationError({
      service: "edge",
      message: `the KV namespace "${n.title}" (id ${n.id}) stores its data in ${n.jurisdiction ? `the ${n.jurisdiction} jurisdiction` : "the default jurisdiction"}, not ${r.jurisdiction}, and a jurisdiction is set only when a namespace is made`,
      remedy: "Set jurisdiction to the namespace's own (or remove it), or choose another title for a new namespace",
    });
}

/**
 * At preview: a title taken by a namespace this stack does not hold is refused, or said to be taken over. `olds` are
 * the inputs in state; `owned`: the stack holds the namespace of this title (in state, or one being replaced).
 */
async function previewTitle(r: Bag, olds: Bag, owned: boolean): Promise<void> {
  if (["accountId", "title", "adopt", "jurisdiction"].some((k) => isUnknown(r[k]))) return;
  const inState = Object.keys(olds).length > 0;
  if (owned && (!inState || (olds.accountId === r.accountId && olds.title === r.title))) return;
  const there = await byTitle(r.accountId, r.title);
  if (!there || createResumed()) return;
  if (inState && olds.accountId === r.accountId)
    throw new AlreadyExistsError({
      service: "edge",
      code: 10014,
      message: `the KV namespace "${olds.title}" cannot be renamed "${r.title}": the account has a namespace of that title already (id ${there.id})`,
      remedy: "Choose another title, or rename or delete the other namespace first",
    });
  if (!adopting(r)) throw titleTaken(r.title, there.id);
  sameJurisdiction(r, there);
  takeoverNotice(`edge: KvNamespace "${r.title}" will adopt the existing namespace (id ${there.id}) with its data`, 1, 0);
}

export const kvNamespace: Handler<KvNamespaceInputs, KvNamespaceOutputs> = {
  preview: async (ctx) => {
    if (ctx.reads) await previewTitle(ctx.inputs, ctx.olds, ctx.ownedByStack());
  },
  async check(_olds, news) {
    return checkWith(KvNamespaceInputs, news);
  },

  async diff(_id, olds, news) {
    holdEdge("kv", [olds.namespaceId]);
    const wanted = withoutProvider(news);
    // A jurisdiction is compared where the program gives one: a namespace taken over keeps the service's.
    const replaces = changedKeys(["accountId", ...(wanted.jurisdiction === undefined ? [] : ["jurisdiction"])], olds, wanted, same);
    if (replaces.length)
      warn(
        `edge: the KV namespace "${olds.title}" (id ${olds.namespaceId}) is replaced (${replaces.join(", ")}): the new one starts empty, and every key of this one is deleted with it`,
      );
    const changed = changedKeys(["title"], olds, wanted, same);
    // The new namespace takes the title: the old one must go first (the service keeps one per title).
    const deleteBeforeReplace = replaces.length > 0 && olds.title === wanted.title && olds.accountId === wanted.accountId;
    return { changes: replaces.length + changed.length > 0, replaces, deleteBeforeReplace };
  },

  async create(r) {
    const n = await createByKey({
      what: `KV namespace "${r.title}"`,
      adopt: adopting(r),
      find: () => byTitle(r.accountId, r.title),
      create: () => edge().createKvNamespace(r.accountId, { title: r.title, ...(r.jurisdiction ? { jurisdiction: r.jurisdiction } : {}) }),
      update: async (x) => (sameJurisdiction(r, x), x),
      unchanged: (x) => (sameJurisdiction(r, x), true),
      claimKey: (x) => edgeClaim("kv", x.id),
    });
    return { id: `${r.accountId}/${n.id}`, outs: outputs(r, n) };
  },

  async read(id, props) {
    const [accountId, namespaceId] = id.split("/", 2);
    const n = await unlessGone(() => edge().getKvNamespace(accountId, namespaceId));
    if (!n) return {};
    const outs = outputs({ ...props, accountId }, n);
    if (props.title === undefined || props.title === n.title) return { id, props: outs };
    const { namespaceId: _n, supportsUrlEncoding: _s, ...inputs } = outs;
    return { id, props: outs, inputs };
  },

  async update(id, olds, news) {
    const r = withoutProvider(news);
    const [accountId, namespaceId] = id.split("/", 2);
    const n = await edge().renameKvNamespace(accountId, namespaceId, r.title);
    return { outs: outputs({ ...r, accountId }, n) };
  },

  async delete(id) {
    const [accountId, namespaceId] = id.split("/", 2);
    await deleteUnlessGone(() => edge().deleteKvNamespace(accountId, namespaceId));
  },
};

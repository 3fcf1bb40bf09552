/**
 * `ops.edge.D1Database`. id: `<accountId>/<uuid>`. Natural key: the name (one database per name in the account), so
 * a lost create is found by name and a database made elsewhere is taken only with `adopt: true`, with nothing written.
 * Nothing of a database changes in place: a new name or location hint replaces it, which loses its data (said at
 * preview).
 */
import { checkWith, isUnknown, withoutProvider } from "../../check";
import { createResumed } from "../../create-journal";
import { changedKeys, createByKey, deleteUnlessGone, unlessGone, type Bag, type Handler } from "../../handler";
import { AlreadyExistsError } from "../../http/errors";
import { takeoverNotice, warn } from "../../log";
import type * as wire from "../wire";
import { adopting, edge, edgeClaim, holdEdge } from "../zones";
import { D1DatabaseInputs, type D1DatabaseOutputs } from "./schema";

const same = (_k: string, a: unknown, b: unknown) => (a ?? "") === (b ?? "");

function outputs(wanted: Bag, d: wire.D1Database): D1DatabaseOutputs {
  return {
    accountId: wanted.accountId,
    name: d.name,
    ...(wanted.primaryLocationHint ? { primaryLocationHint: wanted.primaryLocationHint } : {}),
    databaseId: d.uuid,
    ...(d.version ? { version: d.version } : {}),
    ...(d.created_at ? { createdAt: d.created_at } : {}),
    adopt: wanted.adopt ?? false,
  };
}

const byName = async (accountId: string, name: string) => (await edge().listD1Databases(accountId, name)).find((d) => d.name === name);

function nameTaken(name: string, uuid: string): AlreadyExistsError {
  return new AlreadyExistsError({
    service: "edge",
    code: 7502,
    message: `the account has a D1 database named ${name} already (id ${uuid}), made by another tool or stack`,
    remedy: "Set `adopt: true` on this D1Database to take it over with its data, or choose another name",
  });
}

export const d1Database: Handler<D1DatabaseInputs, D1DatabaseOutputs> = {
  preview: async (ctx) => {
    const r = ctx.inputs;
    if (!ctx.reads || ["accountId", "name", "adopt"].some((k) => isUnknown(r[k])) || ctx.ownedByStack()) return;
    const there = await byName(r.accountId, r.name);
    if (!there || createResumed()) return;
    if (!adopting(r)) throw nameTaken(r.name, there.uuid);
    takeoverNotice(`edge: D1Database ${r.name} will adopt the existing database (id ${there.uuid}) with its data`, 1, 0);
  },
  async check(_olds, news) {
    return checkWith(D1DatabaseInputs, news);
  },

  async diff(_id, olds, news) {
    holdEdge("d1", [olds.databaseId]);
    const wanted = withoutProvider(news);
    // A location hint only where the state and the program both have one (an imported database's state has none).
    const hint = olds.primaryLocationHint !== undefined && wanted.primaryLocationHint !== undefined ? ["primaryLocationHint"] : [];
    const replaces = changedKeys(["accountId", "name", ...hint], olds, wanted, same);
    if (replaces.length)
      warn(
        `edge: the D1 database ${olds.name} (id ${olds.databaseId}) is replaced (${replaces.join(", ")}): the service has no rename, so the new one starts empty and this one is deleted with its data`,
      );
    const changed = changedKeys(["adopt"], olds, wanted, (_k, a, b) => (a ?? false) === (b ?? false));
    // The new database takes the name: the old one must go first (the service keeps one per name).
    const deleteBeforeReplace = replaces.length > 0 && olds.name === wanted.name && olds.accountId === wanted.accountId;
    return { changes: replaces.length + changed.length > 0, replaces, deleteBeforeReplace };
  },

  async create(r) {
    const d = await createByKey({
      what: `D1 database ${r.name}`,
      adopt: adopting(r),
      find: () => byName(r.accountId, r.name),
      create: () =>
        edge().createD1Database(r.accountId, {
          name: r.name,
          ...(r.primaryLocationHint ? { primary_location_hint: r.primaryLocationHint } : {}),
        }),
      update: async (x) => x,
      unchanged: () => true,
      claimKey: (x) => edgeClaim("d1", x.uuid),
    });
    return { id: `${r.accountId}/${d.uuid}`, outs: outputs(r, d) };
  },

  async read(id, props) {
    const [accountId, uuid] = id.split("/", 2);
    const d = await unlessGone(() => edge().getD1Database(accountId, uuid));
    return d ? { id, props: outputs({ ...props, accountId }, d) } : {};
  },

  async update(_id, olds, news) {
    // Only `adopt` changes in place: it says how a create takes over, and nothing of the database.
    return { outs: { ...(olds as D1DatabaseOutputs), adopt: withoutProvider(news).adopt ?? false } };
  },

  async delete(id) {
    const [accountId, uuid] = id.split("/", 2);
    await deleteUnlessGone(() => edge().deleteD1Database(accountId, uuid));
  },
};

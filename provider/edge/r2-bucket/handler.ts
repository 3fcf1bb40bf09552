/**
 * `ops.edge.R2Bucket`. id: `<accountId>/<jurisdiction>/<name>`. Natural key: the name in its jurisdiction, so a lost
 * create is found by name and a bucket made elsewhere is taken only with `adopt: true`, with nothing written where
 * its storage class is the program's. The default storage class is changed in place; a bucket that holds objects is
 * not deleted by the service (10008): destroy fails with the remedy, nothing lost.
 */
import { checkWith, isUnknown, withoutProvider } from "../../check";
import { createResumed } from "../../create-journal";
import { changedKeys, createByKey, deleteUnlessGone, unlessGone, type Bag, type Handler } from "../../handler";
import { AlreadyExistsError } from "../../http/errors";
import { takeoverNotice, warn } from "../../log";
import type * as wire from "../wire";
import { adopting, edge, edgeClaim, holdEdge } from "../zones";
import { R2BucketInputs, type R2BucketOutputs } from "./schema";

const same = (_k: string, a: unknown, b: unknown) => (a ?? "") === (b ?? "");

function outputs(wanted: Bag, b: wire.R2Bucket): R2BucketOutputs {
  return {
    accountId: wanted.accountId,
    name: b.name,
    jurisdiction: b.jurisdiction ?? wanted.jurisdiction ?? "default",
    ...(wanted.locationHint ? { locationHint: wanted.locationHint } : {}),
    ...(b.location ? { location: b.location.toLowerCase() } : {}), // the live API answers it upper case
    ...(b.storage_class ? { storageClass: b.storage_class } : {}),
    ...(b.creation_date ? { creationDate: b.creation_date } : {}),
    adopt: wanted.adopt ?? false,
  };
}

const parse = (id: string) => {
  const [accountId, jurisdiction, name] = id.split("/", 3);
  return { accountId, jurisdiction, name };
};
const find = (r: Bag) => unlessGone(() => edge().getR2Bucket(r.accountId, r.name, r.jurisdiction));

function nameTaken(r: Bag): AlreadyExistsError {
  return new AlreadyExistsError({
    service: "edge",
    message: `the account has an R2 bucket named ${r.name} already${r.jurisdiction !== "default" ? ` in the ${r.jurisdiction} jurisdiction` : ""}, made by another tool or stack`,
    remedy: "Set `adopt: true` on this R2Bucket to take it over with its objects, or choose another name",
  });
}

export const r2Bucket: Handler<R2BucketInputs, R2BucketOutputs> = {
  preview: async (ctx) => {
    const r = ctx.inputs;
    if (!ctx.reads || ["accountId", "name", "jurisdiction", "adopt"].some((k) => isUnknown(r[k])) || ctx.ownedByStack()) return;
    const there = await find(r);
    if (!there || createResumed()) return;
    if (!adopting(r)) throw nameTaken(r);
    takeoverNotice(
      `edge: R2Bucket ${r.name} will adopt the existing bucket with its objects`,
      1,
      r.storageClass && r.storageClass !== there.storage_class ? 1 : 0,
    );
  },
  async check(_olds, news) {
    return checkWith(R2BucketInputs, news);
  },

  async diff(_id, olds, news) {
    holdEdge("r2", [olds.name ? `${olds.jurisdiction}/${olds.name}` : undefined]);
    const wanted = withoutProvider(news);
    // A location hint only where the state and the program both have one (an imported bucket's state has none).
    const hint = olds.locationHint !== undefined && wanted.locationHint !== undefined ? ["locationHint"] : [];
    const replaces = changedKeys(["accountId", "name", "jurisdiction", ...hint], olds, wanted, same);
    if (replaces.length)
      warn(
        `edge: the R2 bucket ${olds.name} is replaced (${replaces.join(", ")}): the new one starts empty, and the service deletes the old one only when it is empty (empty it, or the replacement's delete fails)`,
      );
    const changed = wanted.storageClass === undefined ? [] : changedKeys(["storageClass"], olds, wanted, same);
    // The new bucket takes the name: the old one must go first (and the service deletes it only when empty).
    const deleteBeforeReplace = replaces.length > 0 && olds.name === wanted.name && olds.jurisdiction === wanted.jurisdiction;
    return { changes: replaces.length + changed.length > 0, replaces, deleteBeforeReplace };
  },

  async create(r) {
    const b = await createByKey({
      what: `R2 bucket ${r.name}`,
      adopt: adopting(r),
      find: () => find(r),
      create: () =>
        edge().createR2Bucket(
          r.accountId,
          {
            name: r.name,
            ...(r.locationHint ? { locationHint: r.locationHint } : {}),
            ...(r.storageClass ? { storageClass: r.storageClass } : {}),
          },
          r.jurisdiction,
        ),
      update: (x) => (r.storageClass ? edge().setR2StorageClass(r.accountId, r.name, r.storageClass, r.jurisdiction) : Promise.resolve(x)),
      unchanged: (x) => !r.storageClass || x.storage_class === r.storageClass,
      claimKey: (x) => edgeClaim("r2", `${r.jurisdiction}/${x.name}`),
    });
    return { id: `${r.accountId}/${r.jurisdiction}/${r.name}`, outs: outputs(r, b) };
  },

  async read(id, props) {
    const { accountId, jurisdiction, name } = parse(id);
    const b = await unlessGone(() => edge().getR2Bucket(accountId, name, jurisdiction));
    if (!b) return {};
    const outs = outputs({ ...props, accountId, jurisdiction, name }, b);
    if (props.storageClass === undefined || props.storageClass === outs.storageClass) return { id, props: outs };
    const { location: _l, creationDate: _c, ...inputs } = outs;
    return { id, props: outs, inputs };
  },

  async update(id, _olds, news) {
    const r = withoutProvider(news);
    const { accountId, jurisdiction, name } = parse(id);
    const b = await edge().setR2StorageClass(accountId, name, r.storageClass!, jurisdiction);
    return { outs: outputs({ ...r, accountId }, b) };
  },

  async delete(id) {
    const { accountId, jurisdiction, name } = parse(id);
    await deleteUnlessGone(() => edge().deleteR2Bucket(accountId, name, jurisdiction));
  },
};

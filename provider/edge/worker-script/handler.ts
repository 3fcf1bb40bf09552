/** `ops.edge.WorkerScript`. id: `<accountId>/<name>` (the name is the natural key: PUT creates or replaces). */
import { checkWith, withoutProvider } from "../../check";
import { changedKeys, deleteUnlessGone, type Bag, type Handler } from "../../handler";
import { ValidationError } from "../../http/errors";
import { edge } from "../zones";
import { scriptBody, sha256, WorkerScriptInputs, type WorkerScriptOutputs } from "./schema";

/** Uploads the body the inputs name, refusing one that changed since `check` hashed it. */
async function deploy(r: Bag): Promise<WorkerScriptOutputs> {
  const body = scriptBody(r);
  if (sha256(body) !== r.contentHash) {
    throw new ValidationError({ service: "edge", message: `${r.source ?? "the script"} changed while the update ran`, remedy: "Run the command again" });
  }
  const s = await edge().putWorkerScript(r.accountId, r.name, body);
  return {
    accountId: r.accountId,
    name: r.name,
    ...(r.source ? { source: r.source } : {}),
    contentHash: r.contentHash,
    size: Buffer.byteLength(body),
    createdOn: s.created_on,
    modifiedOn: s.modified_on,
  };
}

export const workerScript: Handler = {
  async check(_olds, news) {
    return checkWith(WorkerScriptInputs, news);
  },

  async diff(_id, olds, news) {
    const wanted = withoutProvider(news);
    const replaces = changedKeys(["accountId", "name"], olds, wanted, (_k, a, b) => a === b);
    const changed = changedKeys(["contentHash"], olds, wanted, (_k, a, b) => a === b);
    return { changes: replaces.length + changed.length > 0, replaces };
  },

  async create(r) {
    // PUT creates or overwrites by name: a script of the same name is taken over, never duplicated.
    return { id: `${r.accountId}/${r.name}`, outs: await deploy(r) };
  },

  async read(id, props) {
    const [accountId, name] = id.split("/", 2);
    const body = await edge().getWorkerScript(accountId, name);
    if (body === undefined) return {};
    const outs: WorkerScriptOutputs = { ...(props as WorkerScriptOutputs), accountId, name, contentHash: sha256(body), size: Buffer.byteLength(body) };
    if (outs.contentHash === props.contentHash) return { id, props: outs };
    return { id, props: outs, inputs: { accountId, name, contentHash: outs.contentHash, ...(props.source ? { source: props.source } : {}) } };
  },

  async update(_id, _olds, news) {
    return { outs: await deploy(withoutProvider(news)) };
  },

  async delete(id) {
    const [accountId, name] = id.split("/", 2);
    await deleteUnlessGone(() => edge().deleteWorkerScript(accountId, name));
  },
};

/**
 * `ops.edge.WorkerScript`. id: `<accountId>/<name>`. Uploaded as multipart (a `metadata` part with `main_module` for a
 * module or `body_part` for a service worker, the compatibility date and flags, and the script's part), read back
 * with the content and settings endpoints. The service's PUT creates or overwrites by name, so a script of the same
 * name deployed by another tool is taken over only with `adopt: true`. The owner's label rides in the script's tags
 * (`pulumi-ops-stack:<project>/<stack>`, beside tags set elsewhere, which are kept): another stack's script is
 * refused naming it, this stack's own (left by its destroy) is taken back, and a destroy leaves another stack's.
 */
import * as path from "node:path";
import { checkWith, withoutProvider } from "../../check";
import { changedKeys, deleteUnlessGone, unlessGone, type Bag, type Handler } from "../../handler";
import { AlreadyExistsError, ValidationError } from "../../http/errors";
import { notice, warn } from "../../log";
import { stackOfTags, standing, leftToAnother, withStackTag } from "../../owner";
import { adopting, edge } from "../zones";
import { formatOf, scriptBody, sha256, WorkerScriptInputs, type WorkerScriptOutputs } from "./schema";

/** The module's part name: the source file's own name where it is a JavaScript file, else `worker.js`. */
const mainModule = (r: Bag) => (r.source && /\.m?js$/.test(r.source) ? path.basename(r.source) : "worker.js");

/** The multipart upload of a script, as the service documents it (FormData, serialized by Node's own fetch types). */
export async function upload(r: Bag, body: string, tags: string[] = []): Promise<{ body: Buffer; contentType: string }> {
  const format = formatOf(r, body);
  const main = format === "module" ? mainModule(r) : "script";
  const metadata = {
    ...(format === "module" ? { main_module: main } : { body_part: main }),
    compatibility_date: r.compatibilityDate,
    ...(r.compatibilityFlags?.length ? { compatibility_flags: r.compatibilityFlags } : {}),
    keep_bindings: ["*"] as string[], // bindings made elsewhere (dashboard, wrangler) are kept, not dropped
    ...(tags.length ? { tags } : {}),
  };
  const form = new FormData();
  form.append("metadata", new Blob([JSON.stringify(metadata)], { type: "application/json" }), "metadata.json");
  form.append(main, new Blob([body], { type: format === "module" ? "application/javascript+module" : "application/javascript" }), main);
  const res = new Response(form);
  return { body: Buffer.from(await res.arrayBuffer()), contentType: res.headers.get("content-type")! };
}

/** A script of this name deployed by another tool or stack, which the upload would overwrite: told at preview and up. */
export function scriptTaken(name: string, accountId: string): AlreadyExistsError {
  return new AlreadyExistsError({
    service: "edge",
    message: `an edge script named ${name} already exists in account ${accountId} (deployed by another tool or stack)`,
    remedy: "Set `adopt: true` on this WorkerScript to take it over (it is then overwritten with this one), or give it another name",
  });
}

/** A script another stack labelled as its own: told at preview and up. */
export function scriptOwnedBy(name: string, accountId: string, stack: string): AlreadyExistsError {
  return new AlreadyExistsError({
    service: "edge",
    message: `the edge script ${name} in account ${accountId} belongs to stack ${stack} (its tag pulumi-ops-stack)`,
    remedy: `Give this script another name, or remove it from stack ${stack} first; to take it over from that stack anyway, set ops:adoptFromStack to ${stack} for one run (with adopt: true)`,
  });
}

/**
 * Whether a create may take the deployed script whose tags are `tags` (reads nothing): this stack's own always,
 * another stack's never (unless ops:adoptFromStack names it, with adopt), one with no owner's label only with adopt.
 */
export function scriptTakeover(r: Bag, tags: readonly string[] | null | undefined): AlreadyExistsError | undefined {
  const label = stackOfTags(tags);
  const whose = standing(label);
  if (whose === "mine") {
    notice(`edge: the script ${r.name} is this stack's own (tagged by ${label}): taken back`);
    return undefined;
  }
  if (whose === "theirs") return scriptOwnedBy(r.name, r.accountId, label!);
  if (!adopting(r)) return scriptTaken(r.name, r.accountId);
  if (whose === "forced") notice(`edge: taking the script ${r.name} over from stack ${label} (ops:adoptFromStack)`);
  return undefined;
}

/** Uploads the body the inputs name, refusing one that changed since `check` hashed it; `tags`: the script's now. */
async function deploy(r: Bag, tags?: readonly string[] | null): Promise<WorkerScriptOutputs> {
  const body = scriptBody(r);
  if (sha256(body) !== r.contentHash) {
    throw new ValidationError({ service: "edge", message: `${r.source ?? "the script"} changed while the update ran`, remedy: "Run the command again" });
  }
  const s = await edge().putWorkerScript(r.accountId, r.name, await upload(r, body, withStackTag(tags)));
  return outputsOf(r, body, s);
}

function outputsOf(r: Bag, body: string, s: { created_on?: string; modified_on?: string }): WorkerScriptOutputs {
  return {
    accountId: r.accountId,
    name: r.name,
    ...(r.source ? { source: r.source } : {}),
    contentHash: r.contentHash,
    size: Buffer.byteLength(body),
    format: formatOf(r, body),
    compatibilityDate: r.compatibilityDate,
    ...(r.compatibilityFlags?.length ? { compatibilityFlags: r.compatibilityFlags } : {}),
    adopt: r.adopt ?? false,
    createdOn: s.created_on,
    modifiedOn: s.modified_on,
  };
}

/**
 * A script taken over that already is what the program says (its body, date and flags), and carries this stack's
 * tag or needs none written: nothing is uploaded. One taken from another stack is always uploaded, to carry the tag.
 */
async function alreadyDeployed(r: Bag, there: { compatibility_date?: string | null; compatibility_flags?: string[] | null; tags?: string[] | null }): Promise<WorkerScriptOutputs | undefined> {
  if (standing(stackOfTags(there.tags)) === "forced") return undefined;
  if ((there.compatibility_date ?? "2021-11-02") !== r.compatibilityDate || !same("", there.compatibility_flags, r.compatibilityFlags)) return undefined;
  const body = await edge().getWorkerScript(r.accountId, r.name);
  if (body === undefined || sha256(body) !== r.contentHash) return undefined;
  notice(`edge: the script ${r.name} is deployed already as the program says; nothing sent`);
  return outputsOf(r, body, {});
}

const FIELDS = ["contentHash", "format", "compatibilityDate", "compatibilityFlags"];
const same = (_k: string, a: unknown, b: unknown) => JSON.stringify(a ?? []) === JSON.stringify(b ?? []);

export const workerScript: Handler = {
  async check(_olds, news) {
    return checkWith(WorkerScriptInputs, news);
  },

  async diff(_id, olds, news) {
    const wanted = withoutProvider(news);
    const replaces = changedKeys(["accountId", "name"], olds, wanted, (_k, a, b) => a === b);
    // State of 0.3.0 has no format or date: the script it uploaded ran on the service's 2021 default, so it changes.
    const changed = changedKeys(FIELDS, olds, wanted, same);
    return { changes: replaces.length + changed.length > 0, replaces };
  },

  async create(r) {
    // The service's PUT overwrites a script of the same name: another tool's or stack's script is never taken silently.
    const there = await unlessGone(() => edge().getWorkerScriptSettings(r.accountId, r.name));
    const problem = there && scriptTakeover(r, there.tags);
    if (problem) throw problem;
    const kept = there && (await alreadyDeployed(r, there));
    return { id: `${r.accountId}/${r.name}`, outs: kept || (await deploy(r, there?.tags)) };
  },

  async read(id, props) {
    const [accountId, name] = id.split("/", 2);
    const body = await edge().getWorkerScript(accountId, name);
    if (body === undefined) return {};
    const settings = await edge().getWorkerScriptSettings(accountId, name);
    const label = stackOfTags(settings.tags);
    if (leftToAnother(label) && props.contentHash !== undefined) warn(`edge: the script ${name} now carries the tag of stack ${label}: that stack has taken it over; remove this resource from the program (pulumi state delete) to leave it to them`);
    const outs: WorkerScriptOutputs = {
      ...(props as WorkerScriptOutputs),
      accountId,
      name,
      contentHash: sha256(body),
      size: Buffer.byteLength(body),
      format: props.format ?? formatOf({}, body),
      compatibilityDate: settings.compatibility_date ?? "2021-11-02",
      ...(settings.compatibility_flags?.length ? { compatibilityFlags: settings.compatibility_flags } : { compatibilityFlags: undefined }),
      adopt: props.adopt ?? false,
    };
    if (!changedKeys(FIELDS, props, outs, same).length) return { id, props: outs };
    const inputs = { accountId, name, contentHash: outs.contentHash, compatibilityDate: outs.compatibilityDate, ...(outs.compatibilityFlags ? { compatibilityFlags: outs.compatibilityFlags } : {}), ...(props.source ? { source: props.source } : {}) };
    return { id, props: outs, inputs };
  },

  async update(_id, _olds, news) {
    const r = withoutProvider(news);
    // The upload sets the script's tags: those set elsewhere are read first and kept.
    const there = await unlessGone(() => edge().getWorkerScriptSettings(r.accountId, r.name));
    // Taken over by another stack since (ops:adoptFromStack): never uploaded over, nor labelled back.
    const label = stackOfTags(there?.tags);
    if (leftToAnother(label) && standing(label) !== "forced") throw scriptOwnedBy(r.name, r.accountId, label!);
    return { outs: await deploy(r, there?.tags) };
  },

  async delete(id) {
    const [accountId, name] = id.split("/", 2);
    const there = await unlessGone(() => edge().getWorkerScriptSettings(accountId, name));
    if (!there) return;
    const label = stackOfTags(there.tags);
    if (leftToAnother(label)) {
      warn(`edge: the script ${name} belongs to stack ${label} now (its tag), so this destroy leaves it deployed`);
      return;
    }
    await deleteUnlessGone(() => edge().deleteWorkerScript(accountId, name));
  },
};

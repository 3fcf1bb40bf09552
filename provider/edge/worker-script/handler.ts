/**
 * `ops.edge.WorkerScript`. id: `<accountId>/<name>`. Uploaded as multipart (a `metadata` part with `main_module` for a
 * module or `body_part` for a service worker, the compatibility date and flags, and the script's part), read back
 * with the content and settings endpoints. The service's PUT creates or overwrites by name, so a script of the same
 * name deployed by another tool is taken over only with `adopt: true`. The owner's label rides in the script's tags
 * (`pulumi-ops-stack:<project>/<stack>`, beside tags set elsewhere, which are kept): another stack's script is
 * refused naming it, this stack's own (left by its destroy) is taken back, and a destroy leaves another stack's.
 */
import { checkWith, withoutProvider } from "../../check";
import { changedKeys, deleteUnlessGone, unlessGone, type Bag, type Handler } from "../../handler";
import { ValidationError } from "../../http/errors";
import { notice, warn } from "../../log";
import { stackOfTags, standing, leftToAnother, withStackTag } from "../../owner";
import { edge } from "../zones";
import type * as wire from "../wire";
import { bindingsFor, dropSecrets, syncSecrets, syncSubdomain, upload } from "./upload";
import { previewScript, scriptOwnedBy, scriptTakeover } from "./preview";
import { formatOf, scriptBody, secretsDigest, sha256, WorkerScriptInputs, type WorkerScriptOutputs } from "./schema";
import { fromWire, sameBindings, type Binding } from "./bindings";
import { lastTag, migrationsFor } from "./migrations";

/** The script's Durable Object migration tag, as the script list has it (the settings do not). */
export const migrationTagOf = async (accountId: string, name: string) =>
  (await edge().listWorkerScripts(accountId)).find((s) => s.id === name)?.migration_tag ?? undefined;
/**
 * Whether the program's migrations end elsewhere than the script's tag (`olds`: state, with the tag read last: ""
 * when the script has none; a state of 0.18.0 has no tag, and then its own migrations tell).
 */
const migrationsChanged = (olds: Bag, r: Bag) =>
  !!r.migrations?.length &&
  lastTag(r.migrations) !== (olds.migrationTag !== undefined ? olds.migrationTag || undefined : lastTag(olds.migrations));

/** Uploads the body the inputs name, refusing one that changed since `check` hashed it; `there`: the script's settings now. */
async function deploy(
  r: Bag,
  there?: wire.WorkerScriptSettings,
  managedVars: readonly string[] = [],
  managedBindings: readonly string[] = [],
): Promise<WorkerScriptOutputs> {
  const body = scriptBody(r);
  if (sha256(body) !== r.contentHash) {
    throw new ValidationError({
      service: "edge",
      message: `${r.source ?? "the script"} changed while the update ran`,
      remedy: "Run the command again",
    });
  }
  const tag = r.migrations && there ? await migrationTagOf(r.accountId, r.name) : undefined;
  const migrations = migrationsFor(r.migrations, tag, r.name);
  const s = await edge().putWorkerScript(
    r.accountId,
    r.name,
    await upload(r, body, withStackTag(there?.tags), bindingsFor(r, there?.bindings ?? [], managedVars, managedBindings), migrations),
  );
  // The answer's tag (the SDK's upload response has it); without one, the tag the steps sent end with.
  return outputsOf(r, body, { ...s, migration_tag: s.migration_tag ?? (migrations ? lastTag(r.migrations) : tag) });
}

function outputsOf(
  r: Bag,
  body: string,
  s: { created_on?: string; modified_on?: string; migration_tag?: string | null },
): WorkerScriptOutputs {
  return {
    accountId: r.accountId,
    name: r.name,
    ...(r.source ? { source: r.source } : {}),
    contentHash: r.contentHash,
    size: Buffer.byteLength(body),
    format: formatOf(r, body),
    compatibilityDate: r.compatibilityDate,
    ...(r.compatibilityFlags?.length ? { compatibilityFlags: r.compatibilityFlags } : {}),
    ...(r.vars ? { vars: r.vars } : {}),
    ...(r.secrets ? { secretNames: Object.keys(r.secrets).sort(), secretsDigest: secretsDigest(r.secrets, r.name) } : {}),
    ...(r.bindings ? { bindings: r.bindings } : {}),
    ...(r.migrations ? { migrations: r.migrations, ...(s.migration_tag ? { migrationTag: s.migration_tag } : {}) } : {}),
    ...(r.workersDev !== undefined ? { workersDev: r.workersDev } : {}),
    ...(r.previewUrls !== undefined ? { previewUrls: r.previewUrls } : {}),
    adopt: r.adopt ?? false,
    createdOn: s.created_on,
    modifiedOn: s.modified_on,
  };
}

/**
 * A script taken over that already is what the program says (its body, date and flags), and carries this stack's
 * tag or needs none written: nothing is uploaded. One taken from another stack is always uploaded, to carry the tag.
 */
async function alreadyDeployed(r: Bag, there: wire.WorkerScriptSettings): Promise<WorkerScriptOutputs | undefined> {
  if (standing(stackOfTags(there.tags)) === "forced") return undefined;
  if (!sameVars(r.vars, varsOf(there.bindings, Object.keys(r.vars ?? {})))) return undefined;
  if (r.bindings && !sameBindings(r.bindings, bindingsOf(there.bindings, r.bindings))) return undefined;
  if ((there.compatibility_date ?? "2021-11-02") !== r.compatibilityDate || !same("", there.compatibility_flags, r.compatibilityFlags))
    return undefined;
  const tag = r.migrations ? await migrationTagOf(r.accountId, r.name) : undefined;
  if (tag !== lastTag(r.migrations)) return undefined;
  const body = await edge().getWorkerScript(r.accountId, r.name);
  if (body === undefined || sha256(body) !== r.contentHash) return undefined;
  notice(`edge: the script ${r.name} is deployed already as the program says; nothing sent`);
  return outputsOf(r, body, { migration_tag: tag });
}

/** What an upload changes: the code, its runtime, its variables and bindings. */
const FIELDS = ["contentHash", "format", "compatibilityDate", "compatibilityFlags", "vars", "bindings"];
const sameVars = (a?: Record<string, string>, b?: Record<string, string>) =>
  JSON.stringify(Object.entries(a ?? {}).sort()) === JSON.stringify(Object.entries(b ?? {}).sort());
const same = (k: string, a: unknown, b: unknown) =>
  k === "vars"
    ? sameVars(a as Record<string, string>, b as Record<string, string>)
    : k === "bindings"
      ? sameBindings(a as Binding[], b as Binding[])
      : JSON.stringify(a ?? []) === JSON.stringify(b ?? []);
/** The bindings of the names `of` lists, as the script has them (in that order). */
const bindingsOf = (bindings: readonly wire.WorkerBinding[] | null | undefined, of: readonly Binding[]) =>
  of.flatMap((want) => {
    const read = (bindings ?? []).find((b) => b.name === want.name);
    const b = read && fromWire(read);
    // The fields the program gives: one the service adds of its own (a default environment) is not a change.
    const given = new Set(Object.keys(want).filter((k) => (want as Record<string, unknown>)[k] !== undefined));
    return b ? [Object.fromEntries(Object.entries(b).filter(([k]) => given.has(k) || k === "name" || k === "type")) as Binding] : [];
  });
/** The plain-text variables of `names` as the script has them. */
const varsOf = (bindings: readonly wire.WorkerBinding[] | null | undefined, names: readonly string[]) =>
  Object.fromEntries((bindings ?? []).filter((b) => b.type === "plain_text" && names.includes(b.name)).map((b) => [b.name, b.text ?? ""]));
const secretNamesOf = (bindings: readonly wire.WorkerBinding[] | null | undefined) =>
  (bindings ?? []).filter((b) => b.type === "secret_text").map((b) => b.name);
/** The subdomain keys, compared where the program gives them. */
const declaredSubdomain = (r: Bag) => ["workersDev", "previewUrls"].filter((k) => r[k] !== undefined);

export const workerScript: Handler<WorkerScriptInputs, WorkerScriptOutputs> = {
  preview: previewScript,
  async check(_olds, news) {
    return checkWith(WorkerScriptInputs, news);
  },

  async diff(_id, olds, news) {
    const wanted = withoutProvider(news);
    const replaces = changedKeys(["accountId", "name"], olds, wanted, (_k, a, b) => a === b);
    if (replaces.length && olds.migrations?.length)
      warn(
        `edge: the script ${olds.name} is replaced (${replaces.join(", ")}): the new script's Durable Objects start empty, and this one is deleted with every object's storage`,
      );
    // State of 0.3.0 has no format or date: the script it uploaded ran on the service's 2021 default, so it changes.
    const changed = changedKeys(FIELDS, olds, wanted, same);
    // Secrets by their digest (state keeps no text); the subdomain where the program says.
    if ((olds.secretsDigest ?? "") !== secretsDigest(wanted.secrets, wanted.name)) changed.push("secrets");
    if (migrationsChanged(olds, wanted)) changed.push("migrations");
    changed.push(...changedKeys(declaredSubdomain(wanted), olds, wanted, (_k, a, b) => a === b));
    return { changes: replaces.length + changed.length > 0, replaces };
  },

  async create(r) {
    // The service's PUT overwrites a script of the same name: another tool's or stack's script is never taken silently.
    const there = await unlessGone(() => edge().getWorkerScriptSettings(r.accountId, r.name));
    const problem = there && scriptTakeover(r, there.tags);
    if (problem) throw problem;
    const outs = (there && (await alreadyDeployed(r, there))) || (await deploy(r, there));
    await syncSecrets(r, true);
    await syncSubdomain(r);
    return { id: `${r.accountId}/${r.name}`, outs };
  },

  async read(id, props) {
    const [accountId, name] = id.split("/", 2);
    const body = await edge().getWorkerScript(accountId, name);
    if (body === undefined) return {};
    const settings = await edge().getWorkerScriptSettings(accountId, name);
    const label = stackOfTags(settings.tags);
    if (leftToAnother(label) && props.contentHash !== undefined)
      warn(
        `edge: the script ${name} now carries the tag of stack ${label}: that stack has taken it over; remove this resource from the program (pulumi state delete) to leave it to them`,
      );
    // Only what this resource manages is read back: variables and secrets of its names, the subdomain if declared.
    const managedVars = props.vars ? Object.keys(props.vars) : undefined;
    const managedBindings = props.bindings as Binding[] | undefined;
    const managedSecrets = (props.secretNames ?? []) as string[];
    const missingSecrets = managedSecrets.filter((n) => !secretNamesOf(settings.bindings).includes(n));
    const sub = declaredSubdomain(props).length ? await edge().getWorkerSubdomain(accountId, name) : undefined;
    const tag = props.migrations ? await migrationTagOf(accountId, name) : undefined;
    const outs: WorkerScriptOutputs = {
      ...(props as WorkerScriptOutputs),
      accountId,
      name,
      contentHash: sha256(body),
      size: Buffer.byteLength(body),
      format: props.format ?? formatOf({}, body),
      compatibilityDate: settings.compatibility_date ?? "2021-11-02",
      ...(settings.compatibility_flags?.length ? { compatibilityFlags: settings.compatibility_flags } : { compatibilityFlags: undefined }),
      ...(managedVars ? { vars: varsOf(settings.bindings, managedVars) } : {}),
      ...(managedBindings ? { bindings: bindingsOf(settings.bindings, managedBindings) } : {}),
      // The migration the script has applied last: another tag than the program's last is a change (see migrationsChanged).
      ...(props.migrations ? { migrationTag: tag ?? "" } : {}),
      // A managed secret removed elsewhere: the digest no longer stands for what the script has, so the next up sets it.
      ...(missingSecrets.length ? { secretsDigest: `missing ${missingSecrets.join(",")}` } : {}),
      ...(sub && props.workersDev !== undefined ? { workersDev: sub.enabled } : {}),
      ...(sub && props.previewUrls !== undefined ? { previewUrls: sub.previews_enabled ?? false } : {}),
      adopt: props.adopt ?? false,
    };
    if (missingSecrets.length)
      warn(
        `edge: the secret${missingSecrets.length > 1 ? "s" : ""} ${missingSecrets.join(", ")} of the script ${name} ${missingSecrets.length > 1 ? "were" : "was"} removed outside the program: the next up sets ${missingSecrets.length > 1 ? "them" : "it"} again`,
      );
    const drifted = changedKeys([...FIELDS, ...declaredSubdomain(props), ...(props.migrations ? ["migrationTag"] : [])], props, outs, same);
    if (!drifted.length) return { id, props: outs };
    const inputs = {
      accountId,
      name,
      contentHash: outs.contentHash,
      compatibilityDate: outs.compatibilityDate,
      ...(outs.compatibilityFlags ? { compatibilityFlags: outs.compatibilityFlags } : {}),
      ...(props.source ? { source: props.source } : {}),
      ...(outs.vars ? { vars: outs.vars } : {}),
      ...(outs.bindings ? { bindings: outs.bindings } : {}),
      ...(props.migrations ? { migrations: props.migrations } : {}),
      ...(outs.workersDev !== undefined ? { workersDev: outs.workersDev } : {}),
      ...(outs.previewUrls !== undefined ? { previewUrls: outs.previewUrls } : {}),
    };
    return { id, props: outs, inputs };
  },

  async update(_id, olds, news) {
    const r = withoutProvider(news);
    const managedVars = Object.keys((olds.vars ?? {}) as object);
    const managedBindings = ((olds.bindings ?? []) as Binding[]).map((b) => b.name);
    const managedSecrets = (olds.secretNames ?? []) as string[];
    let outs: WorkerScriptOutputs | undefined;
    await dropSecrets(r, managedSecrets);
    // The code, runtime or variables changed: uploaded (reading the script's settings first, to keep what was set
    // elsewhere: tags, variables, every other binding). Else nothing is uploaded.
    if (changedKeys(FIELDS, olds, r, same).length || migrationsChanged(olds, r)) {
      const there = await unlessGone(() => edge().getWorkerScriptSettings(r.accountId, r.name));
      // Taken over by another stack since (ops:adoptFromStack): never uploaded over, nor labelled back.
      const label = stackOfTags(there?.tags);
      if (leftToAnother(label) && standing(label) !== "forced") throw scriptOwnedBy(r.name, r.accountId, label!);
      outs = await deploy(r, there, managedVars, managedBindings);
    }
    // Secrets through their own endpoint: all of them when the digest changed, none otherwise.
    const digestChanged = (olds.secretsDigest ?? "") !== secretsDigest(r.secrets, r.name);
    if (digestChanged) await syncSecrets(r, true);
    await syncSubdomain(r);
    if (!outs) {
      const {
        vars: _v,
        bindings: _b,
        migrations: _m,
        migrationTag: _t,
        secretNames: _n,
        secretsDigest: _d,
        workersDev: _w,
        previewUrls: _p,
        ...rest
      } = olds as WorkerScriptOutputs;
      outs = {
        ...rest,
        ...(r.vars ? { vars: r.vars } : {}),
        ...(r.bindings ? { bindings: r.bindings } : {}),
        ...(r.migrations ? { migrations: r.migrations, ...(olds.migrationTag ? { migrationTag: olds.migrationTag } : {}) } : {}),
        ...(r.secrets ? { secretNames: Object.keys(r.secrets).sort(), secretsDigest: secretsDigest(r.secrets, r.name) } : {}),
        ...(r.workersDev !== undefined ? { workersDev: r.workersDev } : {}),
        ...(r.previewUrls !== undefined ? { previewUrls: r.previewUrls } : {}),
        adopt: r.adopt ?? false,
      };
    }
    return { outs };
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

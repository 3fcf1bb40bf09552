/**
 * An edge script's takeover and preview: whose a deployed script is (its stack tag), what a create may take, and what
 * the preview refuses before an upload would overwrite a script or clash with a binding made elsewhere.
 */
import { isUnknown } from "../../check";
import type { Bag } from "../../handler";
import { knownText, type PreviewContext } from "../../preview";
import { AlreadyExistsError, ValidationError } from "../../http/errors";
import { notice, warn } from "../../log";
import { migrationsSaid } from "./migrations";
import { stackOfTags, standing } from "../../owner";
import { adopting, edge } from "../zones";
import type * as wire from "../wire";

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

/**
 * An edge script's preview: the account's script list, read once (an unknown account fails up's upload); a new
 * script whose name another tool or stack already deployed is refused (up would overwrite it), this stack's own
 * taken back, by its tags; a Durable Object migration the up applies that deletes a class is said (its tag from the
 * list tells which steps are to come).
 */
export async function previewScript(ctx: PreviewContext): Promise<void> {
  const accountId = knownText(ctx.inputs.accountId);
  if (!ctx.reads || !accountId) return;
  const scripts = await ctx.once(`edge ${ctx.account ?? ""} scripts of ${accountId}`, () => edge().listWorkerScripts(accountId));
  const name = knownText(ctx.inputs.name);
  if (!name) return;
  const there = scripts.find((s) => s.id === name);
  if (!there) return;
  // A new script has no objects to lose: said only of one deployed.
  const migrations = ctx.inputs.migrations;
  if (Array.isArray(migrations) && !isUnknown(migrations) && migrations.every((m) => knownText(m?.tag)))
    for (const line of migrationsSaid(migrations, there.migration_tag ?? undefined, name)) warn(line);
  const settings = () => ctx.once(`edge settings of script ${accountId}/${name}`, () => edge().getWorkerScriptSettings(accountId, name));
  if (!isUnknown(ctx.inputs.adopt) && !ctx.ownedByStack()) {
    const problem = scriptTakeover(ctx.inputs, (await settings()).tags);
    if (problem) throw problem;
  }
  const declared = declaredNames(ctx.inputs);
  if (declared.length) bindingNameTaken(name, declared, (await settings()).bindings ?? [], declaredNames(ctx.olds));
}

/** The names the program gives the script's bindings, with their types (those known at preview). */
function declaredNames(r: Bag): [string, string][] {
  const known = (list: unknown) => (Array.isArray(list) ? (list as Bag[]) : []).filter((b) => knownText(b?.name) && knownText(b?.type));
  return [
    ...known(r.bindings).map((b): [string, string] => [b.name, b.type]),
    ...Object.keys(isUnknown(r.vars) ? {} : (r.vars ?? {})).map((n): [string, string] => [n, "plain_text"]),
    ...Object.keys(isUnknown(r.secrets) ? {} : (r.secrets ?? {})).map((n): [string, string] => [n, "secret_text"]),
  ];
}

/**
 * A binding the program names that the script has already as another kind, made elsewhere (not this resource's
 * before): the upload would be refused, or one of the two lost. Said at preview, naming both.
 */
function bindingNameTaken(
  script: string,
  declared: [string, string][],
  there: readonly wire.WorkerBinding[],
  before: [string, string][],
): void {
  const ours = new Set(before.map(([n]) => n));
  for (const [n, type] of declared) {
    const other = there.find((b) => b.name === n);
    if (other && other.type !== type && !ours.has(n))
      throw new ValidationError({
        service: "edge",
        message: `the script ${script} has a ${other.type} binding named ${n} already (made elsewhere), and the program names a ${type} binding ${n}`,
        remedy: `Give this binding another name (the script reads it as env.<name>), or remove the script's ${n} first`,
      });
  }
}

/**
 * A runner model's preview (Handler.preview): what up would refuse or do that the runner's model list (read once
 * per command) can tell — a name another holds, a pinned tag that moved on the registry, a takeover from another
 * stack, a create the runner is too old for — and the models the program declares, for a generated skill's check.
 */
import { isUnknown } from "../../check";
import { GENERAL_SETTINGS, read } from "../../config";
import { onForget } from "../../forgetting";
import { ValidationError } from "../../http/errors";
import { notice, warn } from "../../log";
import { knownText, type PreviewContext } from "../../preview";
import { runner, type RunnerModelInfo } from "../client";
import { canonicalModel, sameDigest } from "../model-name";
import { registryDigest } from "../registry";
import { runnerVersionNeeded, runnerVersionProblem } from "../version";
import { adoptingModel, modelTaken, modelTakeoverRefused } from "./takeover";

/** The runner models this program declares (a RunnerModel's check ran in this process), by account. */
const declaredModels = new Set<string>();
onForget(() => declaredModels.clear());

/** Whether the program declares `name` (its RunnerModel was checked first: the skill takes its `name` output). */
export function modelDeclared(account: string | undefined, name: string): boolean {
  return declaredModels.has(`${account ?? ""} ${canonicalModel(name)}`);
}

export async function previewModel(ctx: PreviewContext): Promise<void> {
  const { inputs, olds, account } = ctx;
  const given = knownText(inputs.name);
  if (given === undefined) return; // a RunnerModel's own `name` or `from` is pulled at up: nothing to ask before
  const name = canonicalModel(given);
  declaredModels.add(`${account ?? ""} ${name}`);
  if (!ctx.reads) return;
  const models = (await ctx.serviceRead()) as RunnerModelInfo[];
  const there = models.find((m) => canonicalModel(m.name) === name);
  // A new model whose name the runner already lists: up would take another stack's (or a hand-pulled) model.
  if (!isUnknown(inputs.adopt) && !adoptingModel(inputs) && !ctx.ownedByStack() && there) throw modelTaken(name, runner().url);
  // A pinned pulled model the runner lacks (or holds with other weights): the registry's tag is asked what it points
  // at now, so a moved tag fails the preview instead of bringing other weights at up.
  const pinned = knownText(inputs.expectedDigest);
  if (pinned && inputs.from === undefined && inputs.definitionFile === undefined && !(there && sameDigest(pinned, there.digest))) {
    const asked = await ctx.once(`registry ${name}`, () => registryDigest(given));
    if (asked.digest && !sameDigest(pinned, asked.digest)) {
      throw new ValidationError({
        service: "runner",
        message: `${name} on the registry is ${asked.digest.slice(0, 12)} now, not the expectedDigest ${pinned.slice(0, 12)}: the tag points at other weights, which up would pull and refuse`,
        remedy: `Review the new weights; to take them, set expectedDigest to ${asked.digest.slice(0, 12)}; to keep the old ones, pin a tag that still points at them`,
      });
    }
    if (!asked.digest)
      warn(`runner: cannot tell what ${name} points at on the registry (${asked.why}): up checks the digest after the pull`);
  }
  // Adopting: said plainly, as the runner keeps no owner to read.
  if (inputs.adopt === true && !Object.keys(olds).length && there) {
    const from = read(GENERAL_SETTINGS.adoptFromStack);
    if (from) throw modelTakeoverRefused(name, from);
    notice(
      `runner: RunnerModel ${name} will adopt the model already on the runner; the runner keeps no owner, so it may be another stack's: destroy will leave it there. If a stack declares it, that stack's destroy would still delete it: let go of it there first (\`pulumi state delete <its URN>\`, or the resource option retainOnDelete)`,
    );
  }
  // A create request the runner is too old for: it would ignore the fields it does not know.
  if (runnerVersionNeeded(inputs)) {
    const version = await ctx.once(`runner version ${account ?? ""}`, () => runner().version());
    const problem = runnerVersionProblem(inputs, version, runner().url);
    if (problem) throw problem;
  }
}

/**
 * A model the runner already lists, taken over or refused: the runner keeps no owner label, so what decides is the
 * program's `adopt` (or ops:runnerAdoptExisting for a recovery run) — at preview (preview.ts) and at create alike.
 */
import { RUNNER_SETTINGS, readFlag } from "../../config";
import { AlreadyExistsError, ValidationError } from "../../http/errors";

/** Whether a create takes over a model the runner already lists: `adopt`, or ops:runnerAdoptExisting for a recovery run. */
export function adoptingModel(r: { adopt?: unknown }): boolean {
  return r.adopt === true || readFlag(RUNNER_SETTINGS.adoptExisting);
}

/**
 * A model ops:adoptFromStack would take from another stack: refused, as the runner keeps no owner label a takeover
 * could rewrite, so that stack's destroy would still delete it. One owner is kept by letting go there first.
 */
export function modelTakeoverRefused(name: string, from: string): ValidationError {
  return new ValidationError({
    service: "runner",
    message: `${name} is on the runner and ops:adoptFromStack says it is stack ${from}'s; the runner keeps no owner label, so after a takeover that stack's destroy would still delete it`,
    remedy: `Let go of it in stack ${from} first (\`pulumi state delete <its RunnerModel's URN> --stack ${from.split("/").pop()}\`, which leaves the model on the runner, or the resource option retainOnDelete and an up there), then take it over here with adopt: true and without ops:adoptFromStack`,
  });
}

export function modelTaken(name: string, url: string): AlreadyExistsError {
  return new AlreadyExistsError({
    service: "runner",
    message: `the runner at ${url} already has a model ${name} (pulled by hand or made by another stack)`,
    remedy: "Set `adopt: true` on this RunnerModel to take it over (destroy then leaves it on the runner), or give it another name",
  });
}

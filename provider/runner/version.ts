/**
 * Which runner releases the provider supports, as the runner tells its own (`GET /api/version`). An older runner
 * ignores a create field it does not know (Go's JSON decoder drops unknown fields): a draft model made on 0.29 would
 * silently have no draft. So each part of a create request names the release that first takes it (api/types.go at
 * Ollama's tags), checked at preview (preflight.ts) and again at up, before anything is sent. The oldest supported
 * release is the oldest the tests run (scripts/install-ollama.sh builds it beside the current one; the runner's
 * compatibility test holds the provider to it): an older runner is warned of.
 */
import { ValidationError } from "../http/errors";
import { warn } from "../log";

/** The oldest Ollama release pulumi-ops is tested against (scripts/install-ollama.sh OLDEST). */
export const OLDEST_RUNNER = "0.17.4";

/** Orders two versions (`0.17.4`, `0.14.0-rc1`) by their numbers. */
export function compareVersions(a: string, b: string): number {
  const parts = (v: string) => v.replace(/^v/, "").split(/[-+]/)[0].split(".").map(Number);
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < 3; i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
  return 0;
}

/** The oldest runner a create request needs, and for what; undefined for a pull by name (every runner). */
export function runnerVersionNeeded(r: { from?: unknown; renderer?: unknown; parser?: unknown; requires?: unknown; draft?: unknown; draftQuantize?: unknown; parameters?: unknown }): { version: string; why: string } | undefined {
  if (!r.from) return undefined;
  const needs: [string, string][] = [["0.5.5", "a create request with `from` and `files`"]];
  if (r.renderer || r.parser) needs.push(["0.12.0", "renderer and parser"]);
  if (r.requires) needs.push(["0.14.0", "requires"], [String(r.requires), `the model's own REQUIRES ${r.requires}`]);
  // CreateRequest.DraftFiles and DraftQuantize and the parameter draft_num_predict came together in 0.30.0 (DRAFT
  // was parsed from 0.23.1, behind --experimental, with nothing in the create request to carry it).
  const parameters = (r.parameters ?? {}) as Record<string, unknown>;
  if (r.draft || r.draftQuantize || parameters.draft_num_predict !== undefined) needs.push(["0.30.0", "a draft model (draft, DRAFT, draftQuantize, draft_num_predict)"]);
  const [version, why] = needs.reduce((a, b) => (compareVersions(b[0], a[0]) > 0 ? b : a));
  return { version, why };
}

const warned = new Set<string>();

/**
 * The refusal for a create this runner is too old for (one line: what, the release it needs, the runner's), or
 * undefined; a runner older than OLDEST_RUNNER is warned of once. A build from source says 0.0.0: taken as current.
 */
export function runnerVersionProblem(r: Parameters<typeof runnerVersionNeeded>[0], version: string, url: string): ValidationError | undefined {
  if (!version || version === "0.0.0") return undefined;
  if (compareVersions(version, OLDEST_RUNNER) < 0 && !warned.has(url)) {
    warned.add(url);
    warn(`runner: the runner at ${url} is Ollama ${version}, older than the oldest release pulumi-ops supports (${OLDEST_RUNNER}): upgrade it`);
  }
  const need = runnerVersionNeeded(r);
  if (!need || compareVersions(version, need.version) >= 0) return undefined;
  return new ValidationError({ service: "runner", message: `the runner at ${url} is version ${version}; ${need.why} needs ${need.version} or later`, remedy: `Upgrade the runner (Ollama) to ${need.version} or later` });
}

/**
 * Which runner releases the provider supports, as the runner tells its own (`GET /api/version`). An older runner
 * ignores a create field it does not know (Go's JSON decoder drops unknown fields): a draft model made on 0.29 would
 * silently have no draft. So each part of a create request names the release that first takes it (api/types.go at
 * Ollama's tags), checked at preview (model/preview.ts) and again at up, before anything is sent. The oldest supported
 * release is the oldest the tests run (scripts/install-ollama.sh builds it beside the current one; the runner's
 * compatibility test holds the provider to it): an older runner is warned of.
 */
import { statSync } from "node:fs";
import { ValidationError } from "../http/errors";
import { warn } from "../log";
import { readGgufHeader } from "./model/gguf";

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
export function runnerVersionNeeded(r: {
  from?: unknown;
  renderer?: unknown;
  parser?: unknown;
  requires?: unknown;
  draft?: unknown;
  draftQuantize?: unknown;
  parameters?: unknown;
}): { version: string; why: string } | undefined {
  if (!r.from) return undefined;
  const needs: [string, string][] = [["0.5.5", "a create request with `from` and `files`"]];
  if (r.renderer || r.parser) needs.push(["0.12.0", "renderer and parser"]);
  if (r.requires) needs.push(["0.14.0", "requires"], [String(r.requires), `the model's own REQUIRES ${r.requires}`]);
  // CreateRequest.DraftFiles and DraftQuantize and the parameter draft_num_predict came together in 0.30.0 (DRAFT
  // was parsed from 0.23.1, behind --experimental, with nothing in the create request to carry it).
  const parameters = (r.parameters ?? {}) as Record<string, unknown>;
  if (r.draft || r.draftQuantize || parameters.draft_num_predict !== undefined)
    needs.push(["0.30.0", "a draft model (draft, DRAFT, draftQuantize, draft_num_predict)"]);
  const [version, why] = needs.reduce((a, b) => (compareVersions(b[0], a[0]) > 0 ? b : a));
  return { version, why };
}

const warned = new Set<string>();

/**
 * The refusal for a create this runner is too old for (one line: what, the release it needs, the runner's), or
 * undefined; a runner older than OLDEST_RUNNER is warned of once. A build from source says 0.0.0: taken as current.
 */
export function runnerVersionProblem(
  r: Parameters<typeof runnerVersionNeeded>[0],
  version: string,
  url: string,
): ValidationError | undefined {
  if (!version || version === "0.0.0") return undefined;
  if (compareVersions(version, OLDEST_RUNNER) < 0 && !warned.has(url)) {
    warned.add(url);
    warn(
      `runner: the runner at ${url} is Ollama ${version}, older than the oldest release pulumi-ops supports (${OLDEST_RUNNER}): upgrade it`,
      "runner-version",
      url,
    );
  }
  const need = runnerVersionNeeded(r);
  if (!need || compareVersions(version, need.version) >= 0) return draftProblem(r, version, url);
  return new ValidationError({
    service: "runner",
    message: `the runner at ${url} is version ${version}; ${need.why} needs ${need.version} or later`,
    remedy: `Upgrade the runner (Ollama) to ${need.version} or later`,
  });
}

/**
 * A draft model this runner would make and then fail to load. From 0.30 the runner starts an external draft as an MTP
 * draft (`llama-server --spec-type draft-mtp`, llm/llama_server.go; 0.32 also as DFlash when its architecture is
 * `dflash`), whenever `draft_num_predict` is above 0, which it is unless set (the option's default is 4): a plain
 * model as the draft (a small llama) is created, then every chat fails with "context type MTP requested but model
 * doesn't contain MTP layers". What the GGUF's header says decides it: MTP layers (`<arch>.nextn_predict_layers` > 0,
 * or Qwen 3.5's `mtp.*` tensors), or the DFlash architecture.
 */
function draftProblem(r: { draft?: unknown; parameters?: unknown }, version: string, url: string): ValidationError | undefined {
  if (typeof r.draft !== "string" || compareVersions(version, "0.30.0") < 0) return undefined;
  const steps = (r.parameters as Record<string, unknown> | undefined)?.draft_num_predict;
  if (steps !== undefined && Number(steps) <= 0) return undefined; // no speculation: the runner does not load the draft
  let file = r.draft;
  try {
    if (!statSync(file).isFile()) return undefined; // a model folder (safetensors): its layers are not read here
  } catch {
    return undefined; // the check names a missing file
  }
  let header;
  try {
    header = readGgufHeader(file);
  } catch {
    return undefined;
  }
  const arch = header.architecture;
  const mtp =
    Number(header.metadata.get(`${arch}.nextn_predict_layers`) ?? 0) > 0 ||
    (["qwen35", "qwen35moe"].includes(arch) && header.tensors.some((t) => t.startsWith("mtp.")));
  const dflash = arch === "dflash" && compareVersions(version, "0.31.0") >= 0;
  if (mtp || dflash) return undefined;
  file = file.split("/").pop()!;
  return new ValidationError({
    service: "runner",
    message: `draft ${file} is a plain ${arch || "GGUF"} model without MTP layers: the runner at ${url} (Ollama ${version}) runs an external draft as an MTP draft${compareVersions(version, "0.31.0") >= 0 ? " (or DFlash, for a dflash model)" : ""}, so the model would be created and then fail to load ("context type MTP requested but model doesn't contain MTP layers")`,
    remedy:
      "Give a draft with MTP layers (a GGUF whose nextn_predict_layers is above 0)" +
      (compareVersions(version, "0.31.0") >= 0 ? " or a DFlash draft" : "") +
      ", set parameters.draft_num_predict to 0 to make the model without speculation, or leave draft out",
  });
}

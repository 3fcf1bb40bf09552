/**
 * RunnerModel's rules beyond the fields' own (schema.ts's transform): what an inline definition must hold, and the
 * hash of what the model is made from, by which a change of any of it is a change of the model.
 */
import { createHash } from "node:crypto";
import type { z } from "zod";
import { ruleFailure } from "../../check";
import { canonicalModel, modelNameProblem } from "../model-name";
import { parameterProblem, PARAMETERS, type Definition } from "./definition";
import { blobMap, expandPath, isLocalSource } from "./files";

/** The inputs as the schema's object parsed them, before its transform. */
type Parsed = Record<string, any>;

/** The fields of a definition that inline inputs and a definition file share (a file gives them all, or none is given). */
export const DEFINITION_FIELDS = [
  "from",
  "draft",
  "adapter",
  "template",
  "system",
  "license",
  "messages",
  "requires",
  "renderer",
  "parser",
  "parameters",
] as const;

/**
 * The transform's rewriting of inline inputs while some are unknown (a saved plan): a local `from` or `adapter` as the
 * absolute path, `stop` as a list. (A definition file is read by the transform alone, once the inputs are known.)
 */
export function plannedModel(r: Record<string, unknown>, unknownKeys: Set<string>): Record<string, unknown> {
  const out = { ...r };
  for (const k of ["from", "adapter"] as const) {
    const v = r[k];
    if (typeof v === "string" && !unknownKeys.has(k) && isLocalSource(v)) out[k] = expandPath(v, process.cwd());
  }
  const parameters = r.parameters as Record<string, unknown> | undefined;
  if (parameters && !unknownKeys.has("parameters") && typeof parameters.stop === "string")
    out.parameters = { ...parameters, stop: [parameters.stop] };
  return out;
}

/**
 * An inline definition (no definitionFile): parameters of the right kinds, `stop` as a list, local paths made
 * absolute and present, a base for the fields that need one. `def` is rewritten in place.
 */
export function checkInline(def: Definition, r: Parsed, ctx: z.RefinementCtx): void {
  for (const [k, v] of Object.entries(def.parameters)) {
    // Inline, a number is a number: "0.2" as text would reach the runner as text.
    const kind = PARAMETERS[k];
    const problem =
      parameterProblem(k, v) ??
      ((kind === "number" || kind === "integer") && typeof v !== "number"
        ? `parameter ${k} needs a number, not text: write ${k}: ${Number(v)}`
        : kind === "boolean" && typeof v !== "boolean"
          ? `parameter ${k} needs true or false, not text`
          : undefined);
    if (problem) ruleFailure(ctx, `parameters.${k}`, problem, ["parameters"]);
  }
  // `stop` is always a list for the runner (a single text would be stored, and every chat would then fail).
  if (typeof def.parameters.stop === "string") def.parameters = { ...def.parameters, stop: [def.parameters.stop] };
  // A path on this machine is a file to upload (the runner's CLI tries the path first, then a model name).
  if (def.from && isLocalSource(def.from)) def.from = expandPath(def.from, process.cwd());
  else if (def.from && modelNameProblem(def.from))
    ruleFailure(
      ctx,
      "from",
      `from ${modelNameProblem(def.from)}: give a model name such as qwen2.5:0.5b, or the path of a GGUF file or model folder that exists here`,
    );
  if (def.draft && isLocalSource(def.draft)) def.draft = expandPath(def.draft, process.cwd());
  else if (def.draft)
    ruleFailure(
      ctx,
      "draft",
      `draft ${def.draft} is not a file or folder here: a draft model is a GGUF file or model folder on this machine`,
    );
  if (def.adapter && isLocalSource(def.adapter)) def.adapter = expandPath(def.adapter, process.cwd());
  else if (def.adapter)
    ruleFailure(ctx, "adapter", `adapter ${def.adapter} is not a file or folder here: give the path of a GGUF or safetensors adapter`);
  const needBase = DEFINITION_FIELDS.filter((k) => k !== "from" && r[k] !== undefined);
  if (needBase.length && !def.from)
    ruleFailure(ctx, "from", `${needBase.join(", ")} need${needBase.length === 1 ? "s" : ""} from (the base model, or a GGUF file)`, [
      ...needBase,
    ]);
}

/** The hash of what the model is made from (local files by their content): a pull is its name. */
export function definitionHash(def: Definition, r: Parsed, ctx: z.RefinementCtx): string {
  let what: unknown = { pull: r.name };
  if (def.from) {
    try {
      // The shape of 0.4's hash (from, system, parameters) first, so a model made then is not made again.
      const { from, system, parameters, adapter, draft, ...rest } = def;
      const extra = Object.fromEntries(
        DEFINITION_FIELDS.filter((k) => k in rest && rest[k as keyof typeof rest] !== undefined).map((k) => [
          k,
          rest[k as keyof typeof rest],
        ]),
      );
      const local = (p: string) => blobMap(p).files;
      const made = {
        ...(draft ? { draft: local(draft) } : {}),
        ...(r.quantize ? { quantize: r.quantize } : {}),
        ...(r.draftQuantize ? { draftQuantize: r.draftQuantize } : {}),
      };
      what = {
        from: isLocalSource(from) ? local(from) : canonicalModel(from),
        system: system ?? "",
        parameters,
        ...(adapter ? { adapter: local(adapter) } : {}),
        ...extra,
        ...made,
      };
    } catch (e) {
      ruleFailure(ctx, "from", `${(e as Error).message ?? e}`);
    }
  }
  return createHash("sha256").update(JSON.stringify(what)).digest("hex");
}

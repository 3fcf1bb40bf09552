/**
 * `ops.runner.RunnerModel`: a model on the runner, pulled by name, or created from a base with a system prompt and
 * parameters (inline, or a definition file of `FROM`, `SYSTEM` and `PARAMETER name value` lines).
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { z } from "zod";
import { ruleFailure } from "../../check";
import { canonicalModel, modelNameProblem } from "../model-name";

export const token = "runner:RunnerModel";
/** A model name the runner takes (model-name.ts has its rules). */
const ModelName = (what: string) =>
  z.string().superRefine((v, ctx) => {
    const problem = modelNameProblem(v);
    if (problem) ctx.addIssue({ code: "custom", message: `${what} ${problem}: use model or model:tag, e.g. llama3.2 or qwen2.5:0.5b` });
  });
/**
 * The parameters a model may set, with the kind of value each takes: the runner's own option list (its `Options`
 * and `Runner` structs, api/types.go). `stop` is a list: each `PARAMETER stop` line adds one.
 */
export const PARAMETERS: Record<string, "number" | "integer" | "boolean" | "list"> = {
  num_keep: "integer", seed: "integer", num_predict: "integer", top_k: "integer", top_p: "number", min_p: "number",
  typical_p: "number", repeat_last_n: "integer", temperature: "number", repeat_penalty: "number",
  presence_penalty: "number", frequency_penalty: "number", stop: "list",
  num_ctx: "integer", num_batch: "integer", num_gpu: "integer", main_gpu: "integer", use_mmap: "boolean", num_thread: "integer",
};

export type ParameterValue = string | number | boolean | string[];

export interface Definition {
  from?: string;
  system?: string;
  parameters: Record<string, ParameterValue>;
}

/** A definition file's value as the runner reads it: one pair of surrounding double quotes taken off. */
const unquoted = (v: string) => (/^"(.*)"$/s.test(v) ? v.slice(1, -1) : v);

/** Why a parameter's value is not one the runner takes, or undefined (the same rule inline and in a file). */
export function parameterProblem(name: string, value: unknown): string | undefined {
  const kind = PARAMETERS[name];
  if (!kind) return `unknown parameter "${name}"; known: ${Object.keys(PARAMETERS).join(", ")}`;
  if (kind === "list") return typeof value === "string" || (Array.isArray(value) && value.every((v) => typeof v === "string")) ? undefined : `parameter ${name} needs text or a list of texts, got ${JSON.stringify(value)}`;
  if (kind === "boolean") return typeof value === "boolean" || value === "true" || value === "false" ? undefined : `parameter ${name} needs true or false, got ${JSON.stringify(value)}`;
  const n = typeof value === "number" ? value : typeof value === "string" && /^-?\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : NaN;
  if (!Number.isFinite(n)) return `parameter ${name} needs a${kind === "integer" ? "n integer" : " number"}, got ${JSON.stringify(value)}`;
  if (kind === "integer" && !Number.isInteger(n)) return `parameter ${name} needs an integer, got ${n}`;
  return undefined;
}

/** A definition file's directives, or the problems found, each with its line. */
export function parseDefinition(text: string): { definition: Definition; problems: string[] } {
  const definition: Definition = { parameters: {} };
  const problems: string[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i].trim();
    if (!raw || raw.startsWith("#")) continue;
    const [directive, ...rest] = raw.split(/\s+/);
    let value = raw.slice(directive.length).trim();
    switch (directive.toUpperCase()) {
      case "FROM":
        if (modelNameProblem(value)) problems.push(`line ${i + 1}: FROM needs a model name such as llama3.2 or qwen2.5:0.5b (${modelNameProblem(value)})`);
        definition.from = value;
        break;
      case "SYSTEM":
        if (value.startsWith('"""')) {
          const parts = [value.slice(3)];
          while (!parts.at(-1)!.endsWith('"""') && i + 1 < lines.length) parts.push(lines[++i]);
          value = parts.join("\n").replace(/"""$/, "").trim();
        }
        definition.system = value.replace(/^"(.*)"$/s, "$1");
        break;
      case "PARAMETER": {
        const [name, v] = [rest[0]?.toLowerCase(), unquoted(raw.slice(directive.length).trim().slice(rest[0]?.length ?? 0).trim())];
        const problem = parameterProblem(name, v);
        if (problem) problems.push(`line ${i + 1}: ${problem}`);
        else if (PARAMETERS[name] === "list") definition.parameters[name] = [...((definition.parameters[name] as string[] | undefined) ?? []), v];
        else definition.parameters[name] = PARAMETERS[name] === "boolean" ? v === "true" : Number(v);
        break;
      }
      default:
        problems.push(`line ${i + 1}: unknown directive "${directive}"; use FROM, SYSTEM or PARAMETER`);
    }
  }
  if (!definition.from && !problems.length) problems.push("line 1: a definition needs a FROM line");
  return { definition, problems };
}

export const RunnerModelInputs = z
  .object({
    name: ModelName("name").transform(canonicalModel).describe("`model` or `model:tag` (the tag defaults to latest). Changing it replaces the model.").meta({ replaceOnChanges: true }),
    from: ModelName("from").optional().describe("Create from this base instead of pulling `name`."),
    system: z.string().max(10_000).optional().describe("The system prompt of a created model."),
    parameters: z.record(z.string(), z.any()).optional().describe("Parameters of a created model, e.g. `{ temperature: 0.2, stop: [\"User:\"] }`: the runner's own (num_ctx, top_k, top_p, min_p, repeat_penalty, seed, stop as a list, use_mmap, ...)."),
    definitionFile: z.string().optional().describe("A file of FROM, SYSTEM and PARAMETER lines, parsed and checked at preview."),
    definitionHash: z.string().optional().describe("Set by the provider: the hash of what the model is made from."),
  })
  .transform((r, ctx) => {
    let def: Definition = { from: r.from, system: r.system, parameters: r.parameters ?? {} };
    if (r.definitionFile) {
      if (r.from || r.system || r.parameters) ruleFailure(ctx, "definitionFile", "give definitionFile or from/system/parameters, not both", ["from", "system", "parameters"]);
      try {
        const parsed = parseDefinition(readFileSync(path.resolve(r.definitionFile), "utf8"));
        for (const p of parsed.problems) ruleFailure(ctx, "definitionFile", `${r.definitionFile} ${p}`);
        def = parsed.definition;
      } catch (e) {
        ruleFailure(ctx, "definitionFile", `cannot read ${r.definitionFile}: ${(e as NodeJS.ErrnoException).code ?? e}`);
      }
    } else {
      for (const [k, v] of Object.entries(def.parameters)) {
        // Inline, a number is a number: "0.2" as text would reach the runner as text.
        const kind = PARAMETERS[k];
        const problem = parameterProblem(k, v) ?? ((kind === "number" || kind === "integer") && typeof v !== "number" ? `parameter ${k} needs a number, not text: write ${k}: ${Number(v)}` : kind === "boolean" && typeof v !== "boolean" ? `parameter ${k} needs true or false, not text` : undefined);
        if (problem) ruleFailure(ctx, `parameters.${k}`, problem, ["parameters"]);
      }
      // `stop` is always a list for the runner (a single text would be stored, and every chat would then fail).
      if (typeof def.parameters.stop === "string") def.parameters = { ...def.parameters, stop: [def.parameters.stop] };
      if ((def.system || r.parameters) && !def.from) ruleFailure(ctx, "from", "system and parameters need from (the base model)", ["system", "parameters"]);
    }
    const what = def.from ? { from: canonicalModel(def.from), system: def.system ?? "", parameters: def.parameters } : { pull: r.name };
    return { ...r, ...(r.definitionFile ? { from: what.from, system: def.system, parameters: def.parameters } : r.parameters ? { parameters: def.parameters } : {}), definitionHash: createHash("sha256").update(JSON.stringify(what)).digest("hex") };
  });

export const RunnerModelOutputs = z.object({
  name: z.string(),
  from: z.string().optional(),
  system: z.string().optional(),
  parameters: z.record(z.string(), z.any()).optional(),
  definitionFile: z.string().optional(),
  definitionHash: z.string(),
  digest: z.string(),
  size: z.number(),
  family: z.string().optional(),
  parameterSize: z.string().optional(),
  quantizationLevel: z.string().optional(),
  modifiedAt: z.string(),
});

/**
 * `ops.runner.RunnerModel`: a model on the runner, pulled by name, or created from a base with a system prompt and
 * parameters (inline, or a definition file of `FROM`, `SYSTEM` and `PARAMETER name value` lines).
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { z } from "zod";
import { ruleFailure } from "../../check";
import { canonicalModel } from "../model-name";

export const token = "runner:RunnerModel";
const MODEL = /^[a-z0-9][a-z0-9._-]*(\/[a-z0-9][a-z0-9._-]*)?(:[a-z0-9][a-z0-9._-]*)?$/i;
/** The parameters a definition may set, with the kind of value each takes. */
export const PARAMETERS: Record<string, "number" | "integer" | "string"> = {
  temperature: "number", top_p: "number", top_k: "integer", num_ctx: "integer", num_predict: "integer",
  repeat_penalty: "number", repeat_last_n: "integer", seed: "integer", min_p: "number", stop: "string",
};

export interface Definition {
  from?: string;
  system?: string;
  parameters: Record<string, string | number>;
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
        if (!MODEL.test(value)) problems.push(`line ${i + 1}: FROM needs a model name such as llama3.2 or qwen2.5:0.5b`);
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
        const [name, v] = [rest[0], rest.slice(1).join(" ")];
        const kind = PARAMETERS[name];
        if (!kind) problems.push(`line ${i + 1}: unknown parameter "${name}"; known: ${Object.keys(PARAMETERS).join(", ")}`);
        else if (kind !== "string" && !(kind === "integer" ? /^-?\d+$/ : /^-?\d+(\.\d+)?$/).test(v)) problems.push(`line ${i + 1}: parameter ${name} needs a ${kind}, got "${v}"`);
        else definition.parameters[name] = kind === "string" ? v : Number(v);
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
    name: z.string().regex(MODEL, "name must be model or model:tag, e.g. llama3.2 or qwen2.5:0.5b").transform(canonicalModel).describe("`model` or `model:tag` (the tag defaults to latest). Changing it replaces the model.").meta({ replaceOnChanges: true }),
    from: z.string().regex(MODEL, "from must be a model name").optional().describe("Create from this base instead of pulling `name`."),
    system: z.string().max(10_000).optional().describe("The system prompt of a created model."),
    parameters: z.record(z.string(), z.union([z.number(), z.string()])).optional().describe("Parameters of a created model, e.g. `{ temperature: 0.2 }`."),
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
        if (!PARAMETERS[k]) ruleFailure(ctx, "parameters", `unknown parameter "${k}"; known: ${Object.keys(PARAMETERS).join(", ")}`);
        else if (PARAMETERS[k] !== "string" && typeof v !== "number") ruleFailure(ctx, "parameters", `parameter ${k} needs a number`);
      }
      if ((def.system || r.parameters) && !def.from) ruleFailure(ctx, "from", "system and parameters need from (the base model)", ["system", "parameters"]);
    }
    const what = def.from ? { from: canonicalModel(def.from), system: def.system ?? "", parameters: def.parameters } : { pull: r.name };
    return { ...r, ...(r.definitionFile ? { from: what.from, system: def.system, parameters: def.parameters } : {}), definitionHash: createHash("sha256").update(JSON.stringify(what)).digest("hex") };
  });

export const RunnerModelOutputs = z.object({
  name: z.string(),
  from: z.string().optional(),
  system: z.string().optional(),
  parameters: z.record(z.string(), z.union([z.number(), z.string()])).optional(),
  definitionFile: z.string().optional(),
  definitionHash: z.string(),
  digest: z.string(),
  size: z.number(),
  family: z.string().optional(),
  parameterSize: z.string().optional(),
  quantizationLevel: z.string().optional(),
  modifiedAt: z.string(),
});

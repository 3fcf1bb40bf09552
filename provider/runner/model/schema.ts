/**
 * `ops.runner.RunnerModel`: a model on the runner, pulled by name, or created — from a base model or a local GGUF
 * file or model folder — with a system prompt, a template, messages, parameters and the rest of what the runner's
 * create request takes (inline, or a definition file read as the runner reads it: definition.ts).
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { z } from "zod";
import { derived, ruleFailure, withPlannedTransform } from "../../check";
import { canonicalModel, modelNameProblem } from "../model-name";
import { parseDefinition, SEMVER, type Definition } from "./definition";
import { checkInline, DEFINITION_FIELDS, definitionHash, plannedModel } from "./rules";
import { type Example, ref } from "../../doc-example";

export const token = "runner:RunnerModel";

/** A model name the runner takes (model-name.ts has its rules). */
const ModelName = (what: string) =>
  z.string().superRefine((v, ctx) => {
    const problem = modelNameProblem(v);
    if (problem) ctx.addIssue({ code: "custom", message: `${what} ${problem}: use model or model:tag, e.g. llama3.2 or qwen2.5:0.5b` });
  });
export const RunnerModelInputs = withPlannedTransform(
  z
    .object({
      name: ModelName("name")
        .transform(canonicalModel)
        .describe("`model` or `model:tag` (the tag defaults to latest). Changing it replaces the model.")
        .meta({ replaceOnChanges: true }),
      from: z
        .string()
        .optional()
        .describe(
          "Create from this base model instead of pulling `name`, or from a GGUF file or a model folder (safetensors) on this machine, uploaded to the runner as blobs: `./weights/model.gguf`.",
        ),
      adapter: z
        .string()
        .optional()
        .describe("A LoRA adapter (a GGUF file or safetensors folder on this machine) applied to `from`; uploaded as blobs."),
      expectedDigest: z
        .string()
        .regex(
          /^(sha256:)?[0-9a-f]{12,64}$/,
          "expectedDigest is the model's digest: 12 to 64 hex characters, as `ollama list` (12) or the `digest` output (64) shows it",
        )
        .transform((d) => d.replace(/^sha256:/, ""))
        .optional()
        .describe(
          "The digest the model must have (a pulled model's is its registry manifest's; `ollama list` shows its first 12 characters). A pull or create that brings another fails the up and is not kept; the preview says, without pulling, when the registry's tag now points at another manifest. Unset, whatever the tag points at is taken.",
        ),
      draft: z
        .string()
        .optional()
        .describe(
          "A draft model for speculative decoding (a GGUF file or model folder on this machine, smaller than `from` and of its family), uploaded as blobs (`draft_files`; runner 0.30 and later, refused at preview on an older one). The runner starts it as an MTP draft (0.32: or DFlash, for a `dflash` model), so it needs MTP layers: a plain model as the draft is refused at preview, as the runner would make it and then fail to load it. `parameters.draft_num_predict` sets how many tokens it proposes a step (the runner's default 4; 0 makes the model without speculation).",
        ),
      quantize: z
        .string()
        .regex(/^[A-Za-z0-9_]+$/, "quantize names a quantization such as q4_K_M or q8_0")
        .optional()
        .describe(
          "Quantize `from` when creating (`q4_K_M`, `q4_K_S`, `q8_0`, ...; the runner lists what it takes, from F16, BF16 or F32 weights only). Changing it replaces the model.",
        )
        .meta({ replaceOnChanges: true }),
      draftQuantize: z
        .string()
        .regex(/^[A-Za-z0-9_]+$/, "draftQuantize names a quantization such as q8_0")
        .optional()
        .describe("Quantize the draft model when creating (needs `draft`).")
        .meta({ replaceOnChanges: true }),
      template: z.string().optional().describe("The prompt template (Go template syntax) of a created model; by default the base's."),
      system: z.string().max(10_000).optional().describe("The system prompt of a created model."),
      license: z
        .array(z.string())
        .optional()
        .describe("The license texts of a created model (each LICENSE line of a definition file adds one)."),
      messages: z
        .array(
          z.object({
            role: z.enum(["system", "user", "assistant"]).describe("system, user or assistant"),
            content: z.string().describe("The message's text."),
          }),
        )
        .optional()
        .describe("A conversation every chat with the model starts from."),
      requires: z
        .string()
        .regex(SEMVER, "requires needs a version such as 0.14.0")
        .optional()
        .describe("The oldest runner version the model needs, e.g. `0.14.0`."),
      renderer: z
        .string()
        .optional()
        .describe("The runner's built-in prompt renderer to use instead of a template (e.g. for models whose format it knows)."),
      parser: z.string().optional().describe("The runner's built-in output parser (tool calls, thinking) for the model."),
      parameters: z
        .record(z.string(), z.any())
        .optional()
        .describe(
          'Parameters of a created model, e.g. `{ temperature: 0.2, stop: ["User:"] }`: the runner\'s own (num_ctx, top_k, top_p, min_p, repeat_penalty, seed, stop as a list, use_mmap, ...).',
        ),
      definitionFile: z
        .string()
        .optional()
        .describe(
          "A definition file (a Modelfile: FROM, DRAFT, SYSTEM, TEMPLATE, PARAMETER, MESSAGE, LICENSE, ADAPTER, REQUIRES, RENDERER, PARSER), read as the runner 0.32 reads it and checked at preview; its paths are relative to its folder.",
        ),
      definitionHash: z
        .string()
        .optional()
        .describe("Set by the provider: the hash of what the model is made from (local files by their content).")
        .meta(derived),
      adopt: z
        .boolean()
        .default(false)
        .describe(
          "Take over a model of this name that the runner already has (pulled by hand or by another stack) instead of failing. The runner keeps no owner, so it may be another stack's: its definition is made the program's, and destroy leaves it on the runner. A takeover from a stack named by ops:adoptFromStack is refused until that stack lets go (`pulumi state delete` there), as its destroy would still delete the model.",
        ),
    })
    .transform((r, ctx) => {
      const {
        definitionFile: _f,
        definitionHash: _h,
        name: _n,
        adopt: _a,
        quantize: _q,
        draftQuantize: _dq,
        expectedDigest: _e,
        ...given
      } = r;
      if (r.draftQuantize && !r.draft && !r.definitionFile)
        ruleFailure(ctx, "draftQuantize", "draftQuantize quantizes the draft model: give draft (a GGUF file or model folder) too", [
          "draft",
        ]);
      let def: Definition = { ...given, parameters: r.parameters ?? {} };
      if (r.definitionFile) {
        const inline = DEFINITION_FIELDS.filter((k) => r[k] !== undefined);
        if (inline.length)
          ruleFailure(
            ctx,
            "definitionFile",
            `give definitionFile or ${inline.join("/")}, not both: the file says what the model is made of`,
            [...inline],
          );
        try {
          const parsed = parseDefinition(
            readFileSync(path.resolve(r.definitionFile), "utf8"),
            path.dirname(path.resolve(r.definitionFile)),
          );
          for (const p of parsed.problems) ruleFailure(ctx, "definitionFile", `${r.definitionFile} ${p}`);
          def = parsed.definition;
        } catch (e) {
          ruleFailure(ctx, "definitionFile", `cannot read ${r.definitionFile}: ${(e as NodeJS.ErrnoException).code ?? e}`);
        }
      } else checkInline(def, r, ctx);
      // What a definition file says is kept in state as inputs, so `get` and refresh read like the inline form.
      const derived = Object.fromEntries(
        DEFINITION_FIELDS.filter(
          (k) =>
            (r.definitionFile || r[k] !== undefined) &&
            def[k] !== undefined &&
            !(k === "parameters" && r.definitionFile && !Object.keys(def.parameters).length),
        ).map((k) => [k, def[k]]),
      );
      return { ...r, ...derived, definitionHash: definitionHash(def, r, ctx) };
    }),
  plannedModel,
);

export const RunnerModelOutputs = z.object({
  name: z.string(),
  from: z.string().optional(),
  adapter: z.string().optional(),
  draft: z.string().optional(),
  expectedDigest: z.string().optional(),
  quantize: z.string().optional(),
  draftQuantize: z.string().optional(),
  template: z.string().optional(),
  system: z.string().optional(),
  license: z.array(z.string()).optional(),
  messages: z.array(z.object({ role: z.string(), content: z.string() })).optional(),
  requires: z.string().optional(),
  renderer: z.string().optional(),
  parser: z.string().optional(),
  parameters: z.record(z.string(), z.any()).optional(),
  definitionFile: z.string().optional(),
  definitionHash: z.string(),
  adopt: z.boolean(),
  digest: z.string().describe("The model's digest (sha256) on the runner: it changes when its content does."),
  size: z.number().describe("Its size on disk, in bytes."),
  family: z.string().optional().describe("Its architecture's family (`llama`, `qwen2`, ...)."),
  parameterSize: z.string().optional().describe("Its parameters (`494.03M`, `3.2B`)."),
  quantizationLevel: z.string().optional().describe("Its quantization (`Q4_K_M`, ...)."),
  modifiedAt: z.string().describe("When it last changed on the runner."),
  adopted: z
    .boolean()
    .optional()
    .describe(
      "The model was on the runner before this resource took it over (`adopt`): the runner keeps no owner, so it may be another stack's, and destroy leaves it there.",
    ),
});
export type RunnerModelInputs = z.output<typeof RunnerModelInputs>;
export type RunnerModelOutputs = z.infer<typeof RunnerModelOutputs>;

/**
 * The class's doc comment in the TypeScript SDK (scripts/gen-sdk-classes.ts writes it, whitespace folded, above the
 * example below): what the resource is for and how it behaves.
 */
export const classDoc = `
  A model on the runner, Ollama (ops:runnerHost, RUNNER_HOST or OLLAMA_HOST; default 127.0.0.1:11434): pulled by
  \`name\`, or created — \`from\` a base model, or from a GGUF file or model folder on this machine (uploaded as
  blobs) — with \`system\`, \`template\`, \`messages\`, \`license\`, \`adapter\`, \`requires\` and \`parameters\`
  (Ollama's own options; \`stop\` a list), or from a \`definitionFile\` (a Modelfile, read as Ollama reads it and
  checked at preview). Pull progress is printed; a definition change re-creates the model in place; a model the runner
  already has is taken over only with \`adopt: true\` (and then left on the runner by destroy); destroy removes the
  rest, confirmed by the model list.`;

/**
 * The example of the reference and of the class's doc comment, in every language (scripts/example-render.ts), run
 * by the tests against the emulators' seeds.
 */
export const example: Example = {
  before: [{ token: "ops:runner:RunnerModel", name: "base", args: { name: "qwen2.5:0.5b" } }],
  step: {
    name: "baker",
    args: {
      name: "baker",
      from: ref("base.name"),
      system: "You are the bakery's assistant. Answer briefly.",
      parameters: { temperature: 0.2 },
    },
  },
};

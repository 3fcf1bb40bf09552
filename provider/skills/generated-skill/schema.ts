/**
 * `ops.skills.GeneratedSkill`: the five-phase build of a skill (docs/resources.md, GeneratedSkill) as a resource. Gather source texts; generate by chat
 * through the model runner's chat-completions interface (the runner takes the place of the grounded-generation
 * tool, which has no interface in the spec); extract the SKILL.md; validate it; publish it.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { z } from "zod";
import { derived, ruleFailure } from "../../check";
import { read, SKILLS_SETTINGS } from "../../config";
import { NAME } from "../document";
import { PublishTo, skillMetadata } from "../metadata";
import { type Example, ref } from "../../doc-example";

export const token = "skills:GeneratedSkill";
export const SOURCE_TARGET = { min: 10_000, max: 40_000 };
const sha = (s: string) => createHash("sha256").update(s).digest("hex");

/** The prompt asked of the model: the document structure, the skill's name and topic, and the sources. */
export function generationPrompt(r: { slug: string; topic?: string; prompt?: string }, sources: string): string {
  return [
    `Write a SKILL.md for an agent skill. name: ${r.slug}`,
    `topic: ${r.topic ?? r.slug.replace(/-/g, " ")}`,
    "Answer with the document only: front matter with name and description (what it does and when to use it), then",
    "a title and overview, ## Prerequisites, an optional ## Quick reference table, 3 to 7 ## Workflow sections of",
    "numbered steps, ## Recipes, ## Troubleshooting, and optional ## References; 50 to 300 lines in all.",
    ...(r.prompt ? [r.prompt] : []),
    "Ground every statement in these sources:",
    sources,
  ].join("\n");
}

export function readSources(files: string[]): string {
  return files.map((f) => `<source file="${path.basename(f)}">\n${readFileSync(path.resolve(f), "utf8")}\n</source>`).join("\n");
}

export const GeneratedSkillInputs = z
  .object({
    ...skillMetadata,
    sources: z
      .array(z.string().min(1))
      .min(1, "sources needs at least one file")
      .describe("Files whose text the skill is generated from (10,000 to 40,000 characters in all)."),
    model: z.string().min(1).describe("The runner model that writes the skill, e.g. the `name` of a RunnerModel of the same program."),
    adopt: z
      .boolean()
      .default(false)
      .describe(
        "Take over a skill of this slug that the registry already holds (published by hand, or by a tool that labels nothing) instead of failing; it is then this stack's: published once more with this stack's label, and removed by destroy. A skill labelled by another stack is refused even so (see ops:adoptFromStack); this stack's own is taken back without it.",
      ),
    topic: z.string().max(200).optional().describe("What the skill is about, in a few words; the slug by default."),
    prompt: z.string().max(4000).optional().describe("Extra instructions for the model."),
    maxAttempts: z
      .number()
      .int()
      .min(1)
      .max(10)
      .default(3)
      .describe("How many times to generate before giving up when the answer does not validate."),
    sourcesHash: z.string().optional().describe("Set by the provider: the hash of the sources' text.").meta(derived),
    promptHash: z.string().optional().describe("Set by the provider: the hash of the prompt and model.").meta(derived),
    publishTo: PublishTo,
  })
  .refine((r) => NAME.test(r.slug), { error: "slug must be kebab-case" })
  .transform((r, ctx) => {
    let text: string;
    try {
      text = readSources(r.sources);
    } catch (e) {
      ruleFailure(ctx, "sources", `cannot read a source: ${(e as Error).message}`);
      return r;
    }
    const chars = r.sources.reduce((n, f) => n + readFileSync(path.resolve(f), "utf8").length, 0);
    if (chars < SOURCE_TARGET.min || chars > SOURCE_TARGET.max) {
      ruleFailure(
        ctx,
        "sources",
        `the sources hold ${chars} characters; the target is ${SOURCE_TARGET.min} to ${SOURCE_TARGET.max}: ${chars < SOURCE_TARGET.min ? "add" : "trim"} source text`,
      );
    }
    return {
      ...r,
      sourcesHash: sha(text),
      promptHash: sha(`${r.model}\n${generationPrompt(r, "")}`),
      ...(read(SKILLS_SETTINGS.kind) === "claude" ? { publishTo: "claude" as const } : {}),
    };
  });

export const GeneratedSkillOutputs = z.object({
  slug: z.string(),
  adopt: z.boolean(),
  name: z.string().describe("The name the model gave the skill (its front matter's)."),
  description: z.string().describe("The description the model wrote."),
  model: z.string(),
  sources: z.array(z.string()),
  sourcesHash: z.string(),
  promptHash: z.string(),
  contentHash: z.string().describe("The hash of the skill as the registry holds it now."),
  publishedHash: z.string().describe("The hash of the skill as this resource last published it."),
  attempts: z.number().describe("How many generations the last build took."),
  lines: z.number().describe("The published document's length in lines."),
  category: z.string().optional(),
  tags: z.array(z.string()),
  agents: z.array(z.string()),
  toolsRequired: z.array(z.string()),
  version: z.string().optional().describe("The skill's version, published with it (at most 32 characters)."),
  license: skillMetadata.license,
  compatibility: skillMetadata.compatibility,
  metadata: skillMetadata.metadata,
  allowedTools: skillMetadata.allowedTools,
  publishTo: z.string().optional().describe("`claude` when published to the Claude API."),
  versionId: z.string().optional().describe("On the Claude API: the version this stack uploaded last (`skillver_...`)."),
});
export type GeneratedSkillInputs = z.output<typeof GeneratedSkillInputs>;
export type GeneratedSkillOutputs = z.infer<typeof GeneratedSkillOutputs>;

/**
 * The class's doc comment in the TypeScript SDK (scripts/gen-sdk-classes.ts writes it, whitespace folded, above the
 * example below): what the resource is for and how it behaves.
 */
export const classDoc = `
  A skill built in five phases: gather \`sources\`, generate by chat with a runner \`model\`, extract the SKILL.md,
  validate it (generating again, up to \`maxAttempts\`), publish it. Regenerated only when the sources, model or
  prompt change.`;

/**
 * The example of the reference and of the class's doc comment, in every language (scripts/example-render.ts), run
 * by the tests against the emulators' seeds.
 */
export const example: Example = {
  before: [{ token: "ops:runner:RunnerModel", name: "writer", args: { name: "llama3.2" } }],
  step: { name: "runbook", args: { slug: "oven-runbook", sources: ["docs/oven.md"], model: ref("writer.name"), category: "ops" } },
};

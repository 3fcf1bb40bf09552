/**
 * `ops.skills.Skill`: a skill published to the registry, from inline fields or a SKILL.md file whose front matter
 * supplies name and description. The document is checked at preview: hard problems fail with their line, the
 * length guide is a printed warning.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { z } from "zod";
import { keptText, SourceText } from "../../source-text";
import { derived, ruleFailure } from "../../check";
import { warn } from "../../log";
import { bodyProblems, contentHash, descriptionProblem, fieldAt, formatFields, nameProblem, parseSkillDocument } from "../document";
import { PublishTo, skillMetadata } from "../metadata";
import { read, SKILLS_SETTINGS } from "../../config";
import { filesHash, IMPORT_PLACEHOLDER, uploadFiles } from "../claude";
import type { Example } from "../../doc-example";

export const token = "skills:Skill";

/** name, description and instruction from `source` (a SKILL.md) or the inline fields. */
export function skillContent(r: { name?: string; description?: string; instruction?: string; source?: string }) {
  if (!r.source)
    return {
      name: r.name ?? "",
      description: r.description ?? "",
      instruction: r.instruction ?? "",
      bodyLine: 1,
      frontMatter: true,
      frontMatterError: undefined,
      text: undefined,
      format: { values: {}, problems: [] },
    };
  const text = readFileSync(path.resolve(r.source), "utf8");
  const doc = parseSkillDocument(text);
  return {
    name: r.name ?? doc.frontMatter?.name ?? "",
    description: r.description ?? doc.frontMatter?.description ?? "",
    instruction: doc.body,
    bodyLine: doc.bodyLine,
    frontMatter: !!doc.frontMatter?.name && !!doc.frontMatter?.description,
    frontMatterError: doc.frontMatterError,
    text,
    /** license, compatibility, metadata, allowed-tools: the format's other fields. */
    format: formatFields(doc.fields),
  };
}

export const SkillInputs = z
  .object({
    ...skillMetadata,
    name: z
      .string()
      .optional()
      .describe(
        "1 to 64 lowercase letters (of any script, after NFKC), digits and single hyphens, as the format's validator takes them; from the SKILL.md front matter when `source` is given (whose folder should bear the name).",
      )
      .meta(derived),
    description: z
      .string()
      .optional()
      .describe("What the skill does and when to use it (at most 1024 characters); from the SKILL.md front matter when `source` is given.")
      .meta(derived),
    instruction: z.string().optional().describe("The Markdown body, without front matter. Give this or source."),
    source: z
      .string()
      .optional()
      .describe("A SKILL.md file (front matter with name and description, then the body), relative to the program's directory."),
    contentHash: z.string().optional().describe("Set by the provider: the hash of name, description and body.").meta(derived),
    sourceText: SourceText,
    adopt: z
      .boolean()
      .default(false)
      .describe(
        "Take over a skill of this slug that the registry already holds (published by hand, or by a tool that labels nothing) instead of failing; it is then this stack's: published once more with this stack's label, and removed by destroy. A skill labelled by another stack is refused even so (see ops:adoptFromStack); this stack's own is taken back without it.",
      ),
    publishTo: PublishTo,
    filesHash: z
      .string()
      .optional()
      .describe(
        "Set by the provider for the Claude API: the hash of every file of the skill's folder (a changed script or reference is a new version).",
      )
      .meta(derived),
    followGuide: z
      .boolean({ error: "followGuide must be true or false" })
      .default(true)
      .describe(
        "Hold the body to the skill guide's structure (a title and overview, prerequisites, 3 to 7 numbered workflows, recipes, troubleshooting): a problem fails the check. `false` takes any body the registry accepts and shows the problems as warnings: what `pulumi-ops import` writes for a skill published outside the guide.",
      ),
  })
  .transform((r, ctx) => {
    if (!r.instruction === !r.source) {
      ruleFailure(ctx, r.source ? "instruction" : "source", "give exactly one of instruction and source", ["instruction", "source"]);
      return r;
    }
    let c: ReturnType<typeof skillContent>;
    try {
      c = skillContent(r);
    } catch (e) {
      ruleFailure(ctx, "source", `cannot read ${r.source}: ${(e as NodeJS.ErrnoException).code ?? e}`);
      return r;
    }
    const where = r.source ? `${r.source} ` : "";
    // Inline, each problem is its field's. From a file, every problem is the document's: one failure lists them by
    // line, quoting the line at fault (the engine would print the property's whole value with each failure).
    const ofDocument: string[] = [];
    const fail = (field: "name" | "description" | "instruction", message: string, key?: string) => {
      if (r.source) ofDocument.push(`${key ? fieldAt(c.text, key) : ""}${message}`);
      else ruleFailure(ctx, field, message, field === "instruction" ? undefined : [field]);
    };
    if (c.frontMatterError) ofDocument.push(`the front matter is not valid YAML (${c.frontMatterError}): fix it between the --- lines`);
    else if (r.source && !c.frontMatter)
      ofDocument.push("line 1: front matter (--- name: ... description: ... ---) with name and description is missing");
    const np = nameProblem(c.name);
    if (np) fail("name", np, "name");
    // The format keeps a skill in a folder of its name (skills-ref refuses another); a warning, as stacks made before
    // this check may keep theirs elsewhere.
    const folder =
      r.source && path.basename(r.source) === "SKILL.md"
        ? path.basename(path.dirname(path.resolve(r.source))).normalize("NFKC")
        : undefined;
    if (!np && folder !== undefined && folder !== c.name.trim().normalize("NFKC"))
      warn(
        `skills: ${r.slug}: ${r.source}: the folder is ${folder}, the skill is ${c.name}: the format (and its validator, skills-ref) keeps a skill in a folder of its name; rename the folder to ${c.name}`,
      );
    const dp = descriptionProblem(c.description);
    if (dp) fail("description", dp, "description");
    for (const p of c.format.problems) ofDocument.push(`${fieldAt(c.text, p.field)}${p.message}`);
    const { errors, warnings } = bodyProblems(c.instruction, c.bodyLine);
    // Problems of one line (sections missing at the end) are said under it once.
    const lines = new Map<number, string[]>();
    for (const e of errors) lines.set(e.line, [...(lines.get(e.line) ?? []), e.message]);
    const byLine = [...lines].map(([line, messages]) => `line ${line}: ${messages.join("; ")}`);
    if (errors.length && r.followGuide)
      fail("instruction", `${byLine.join("; ")} (or set followGuide: false to publish a body outside the guide)`);
    else for (const e of errors) warn(`skills: ${r.slug}: ${where}line ${e.line}: ${e.message}`);
    for (const w of warnings) warn(`skills: ${r.slug}: ${where}${w}`);
    // The format's fields from the document; the same field given inline wins, as name and description do.
    const format = Object.fromEntries(Object.entries(c.format.values).filter(([k]) => r[k as keyof typeof r] === undefined));
    // The Claude API: its own documented rules (the skills guide) refused here, as it surely refuses them; the whole
    // folder hashed, so a changed script or reference makes a new version.
    let claude: { publishTo: "claude"; filesHash: string } | undefined;
    if (read(SKILLS_SETTINGS.kind) === "claude") {
      for (const word of ["anthropic", "claude"])
        if (!np && c.name.includes(word))
          fail("name", `name "${c.name}" holds the reserved word "${word}", which the Claude API refuses: choose another name`, "name");
      if (/<[^>]+>/.test(c.description))
        fail("description", "description holds an XML tag, which the Claude API refuses: write it as plain text", "description");
      if (r.source && c.text?.includes(IMPORT_PLACEHOLDER))
        ofDocument.push(
          `it is the placeholder \`pulumi-ops import\` wrote: put the skill's own files in ${path.dirname(r.source)} (the Claude API gives no version's files back), or the first up would upload the placeholder as its newest version`,
        );
      try {
        claude = { publishTo: "claude", filesHash: filesHash(uploadFiles(r, c)) };
      } catch (e) {
        ruleFailure(ctx, "source", `${r.source}: ${(e as Error).message}`);
      }
    }
    if (ofDocument.length) ruleFailure(ctx, "source", `${r.source}: ${ofDocument.join("; ")}`);
    return {
      ...r,
      ...format,
      name: c.name,
      description: c.description,
      contentHash: contentHash(c),
      sourceText: r.source ? keptText(c.text) : undefined,
      ...claude,
    };
  });
export type SkillInputs = z.output<typeof SkillInputs>;

export const SkillOutputs = z.object({
  slug: z.string(),
  adopt: z.boolean(),
  name: z.string(),
  description: z.string(),
  source: z.string().optional(),
  contentHash: z.string(),
  category: z.string().optional(),
  tags: z.array(z.string()),
  agents: z.array(z.string()),
  toolsRequired: z.array(z.string()),
  version: z.string().optional().describe("The skill's version, published with it (at most 32 characters)."),
  lines: z.number().describe("The published document's length in lines."),
  publishTo: z.string().optional(),
  filesHash: z.string().optional(),
  versionId: z.string().optional().describe("On the Claude API: the version this stack published last (`skver_...`)."),
  files: z.array(z.string()).optional().describe("On the Claude API: the paths of the files the last version holds, as uploaded."),
  license: skillMetadata.license,
  compatibility: skillMetadata.compatibility,
  metadata: skillMetadata.metadata,
  allowedTools: skillMetadata.allowedTools,
  followGuide: z.boolean().describe("Whether the body is held to the skill guide's structure."),
});
export type SkillOutputs = z.infer<typeof SkillOutputs>;

/**
 * The class's doc comment in the TypeScript SDK (scripts/gen-sdk-classes.ts writes it, whitespace folded, above the
 * example below): what the resource is for and how it behaves.
 */
export const classDoc = `
  A skill in the registry, or on the Claude API (ops:skillsKind \`claude\`), from inline fields or a SKILL.md
  (\`source\`) whose front matter gives name and description. The document is checked at preview (hard problems fail
  with their line; the 50-300 line guide is a warning). In the registry, a slug it already holds is taken over only
  with \`adopt: true\`, changes are PUT in place, and destroy deletes where the registry allows it (otherwise the
  skill stays published, said). On the Claude API, the whole folder of \`source\` is uploaded, any changed file is a
  new version, a skill the workspace holds under the slug is taken over only with \`adopt: true\`, and destroy deletes
  it.`;

/**
 * The example of the reference and of the class's doc comment, in every language (scripts/example-render.ts), run
 * by the tests against the emulators' seeds.
 */
export const example: Example = {
  step: { name: "ovenCare", args: { slug: "oven-care", source: "skills/oven-care/SKILL.md", category: "ops" } },
};

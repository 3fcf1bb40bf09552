/**
 * A GeneratedSkill's generation: the prompt asked of the runner model, the SKILL.md taken from its answer and held
 * to the format, asked again (up to `maxAttempts`) while it does not validate. Where it is published is the caller's.
 */
import type { Bag } from "../../handler";
import { ValidationError } from "../../http/errors";
import { log } from "../../log";
import { runner } from "../../runner/client";
import { bodyProblems, descriptionProblem, extractSkillDocument, nameProblem, parseSkillDocument } from "../document";
import { generationPrompt, readSources } from "./schema";

/** A generated document that validates, and how many generations it took. */
export interface Generated {
  name: string;
  description: string;
  instruction: string;
  attempts: number;
}

/**
 * What the Claude API refuses in a skill's name and description (its skills guide: no reserved word in the name, no
 * XML tag in the description): for a skill published there, a document that would be refused is generated again.
 */
function claudeProblems(name: string, description: string): string[] {
  return [
    ...["anthropic", "claude"].filter((w) => name.includes(w)).map((w) => `the name holds "${w}", a word the Claude API reserves`),
    ...(/<[^>]+>/.test(description) ? ["the description holds an XML tag, which the Claude API refuses"] : []),
  ];
}

/** Gather, generate, extract, validate (again on failure). */
export async function generate(r: Bag): Promise<Generated> {
  const prompt = generationPrompt(r as never, readSources(r.sources));
  let last = "";
  for (let attempt = 1; attempt <= r.maxAttempts; attempt++) {
    log(`skills: ${r.slug}: generating with ${r.model} (attempt ${attempt} of ${r.maxAttempts})`);
    const doc = parseSkillDocument(extractSkillDocument(await runner().chat(r.model, [{ role: "user", content: prompt }])));
    const name = doc.frontMatter?.name ?? "";
    const description = doc.frontMatter?.description ?? "";
    const problems = [
      ...(doc.frontMatterError
        ? [`the front matter is not valid YAML (${doc.frontMatterError})`]
        : doc.frontMatter
          ? []
          : ["line 1: front matter with name and description is missing"]),
      ...[nameProblem(name), descriptionProblem(description)].filter((p): p is string => !!p),
      ...(r.publishTo === "claude" ? claudeProblems(name, description) : []),
      ...bodyProblems(doc.body, doc.bodyLine).errors.map((e) => `line ${e.line}: ${e.message}`),
    ];
    if (!problems.length) return { name, description, instruction: doc.body, attempts: attempt };
    last = problems.join("; ");
    log(`skills: ${r.slug}: the answer does not validate (${last})`);
  }
  throw new ValidationError({
    service: "skills",
    message: `${r.slug}: no valid skill after ${r.maxAttempts} generations; the last answer: ${last}`,
    remedy: "Use a stronger model, add to prompt, or raise maxAttempts",
  });
}

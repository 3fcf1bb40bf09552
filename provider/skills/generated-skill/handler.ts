/**
 * `ops.skills.GeneratedSkill`. Regenerates only when its sources, model or prompt change (hashes in state), so a
 * no-op up stays a no-op and a change of metadata alone republishes what was generated; an answer that does not
 * validate is generated again, a bounded number of times.
 */
import { checkWith, withoutProvider } from "../../check";
import { changedKeys, unlessGone, type Bag, type Handler } from "../../handler";
import { NotFoundError, ValidationError } from "../../http/errors";
import { log } from "../../log";
import { runner } from "../../runner/client";
import { canonicalModel } from "../../runner/model-name";
import { modelDeclared } from "../../runner/model/preview";
import { knownText, type PreviewContext } from "../../preview";
import { previewRegistryTakeover } from "../skill/preview";
import { skills } from "../client";
import { bodyProblems, descriptionProblem, extractSkillDocument, nameProblem, parseSkillDocument } from "../document";
import { METADATA_KEYS } from "../metadata";
import { deleteSkill, publishSkill, readSkill, sameValue, takeoverProblem } from "../skill/handler";
import { labelOf, publishedLines } from "../skill/outputs";
import { generatedOutputs } from "./outputs";
import { currentOwner } from "../../owner";
import { GeneratedSkillInputs, generationPrompt, readSources, type GeneratedSkillOutputs } from "./schema";

/** Gather, generate, extract, validate (again on failure), then publish. */
async function build(r: Bag): Promise<GeneratedSkillOutputs> {
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
      ...bodyProblems(doc.body, doc.bodyLine).errors.map((e) => `line ${e.line}: ${e.message}`),
    ];
    if (!problems.length) {
      const s = await publishSkill(r.slug, { name, description, instruction: doc.body }, r);
      return generatedOutputs(r, s, await publishedLines(r.slug, s), { attempts: attempt });
    }
    last = problems.join("; ");
    log(`skills: ${r.slug}: the answer does not validate (${last})`);
  }
  throw new ValidationError({
    service: "skills",
    message: `${r.slug}: no valid skill after ${r.maxAttempts} generations; the last answer: ${last}`,
    remedy: "Use a stronger model, add to prompt, or raise maxAttempts",
  });
}

/**
 * A generated skill's preview: its slug's takeover weighed as a Skill's, and the runner model that writes it — a
 * runner without it fails up's generation, unless this program makes it (a program that does passes its
 * RunnerModel's `name` output, so the model's check ran first, in this process).
 */
async function previewGenerated(ctx: PreviewContext): Promise<void> {
  await previewRegistryTakeover(ctx, takeoverProblem);
  const model = knownText(ctx.inputs.model);
  if (!ctx.reads || !model) return;
  const models = (await ctx.serviceRead("runner")) as { name: string }[];
  if (modelDeclared(ctx.account, model) || models.some((m) => canonicalModel(m.name) === canonicalModel(model))) return;
  throw new NotFoundError({
    service: "runner",
    message: `the runner has no model ${model}, which generates this skill`,
    remedy:
      "Pull it with an ops.runner.RunnerModel and pass that resource's `name` output as `model` (so the skill waits for it), or fix the name",
  });
}

export const generatedSkill: Handler<GeneratedSkillInputs, GeneratedSkillOutputs> = {
  preview: previewGenerated,
  async check(_olds, news) {
    return checkWith(GeneratedSkillInputs, news);
  },
  async diff(_id, olds, news) {
    const wanted = withoutProvider(news);
    const replaces = changedKeys(["slug"], olds, wanted, sameValue);
    const changed = changedKeys(["sourcesHash", "promptHash", "model", ...METADATA_KEYS], olds, wanted, sameValue);
    // Edited in the registry since it was published (refresh saw another content): publish it again.
    const edited = olds.publishedHash !== undefined && olds.contentHash !== olds.publishedHash;
    return { changes: replaces.length + changed.length > 0 || edited, replaces };
  },
  async create(r) {
    const there = await unlessGone(() => skills().get(r.slug));
    const problem = there && takeoverProblem(r, there);
    if (problem) throw problem;
    // Taken over as the registry holds it: what a model generated cannot be compared with what it would generate
    // now, so the published skill stands for the program's sources, as a no-op up keeps it. Its metadata the
    // program's and its label this stack's (or none asked for): nothing generated, nothing sent.
    if (there) {
      const outs = generatedOutputs(r, { ...there, slug: r.slug }, await publishedLines(r.slug, there), { attempts: 0 });
      const me = currentOwner();
      if ((!me || labelOf(there) === me.stack) && !changedKeys([...METADATA_KEYS], r, outs, sameValue).length) {
        log(`skills: "${r.slug}" is published already with the program's metadata; taken over as it is, nothing generated or sent`);
        return { id: r.slug, outs };
      }
    }
    return { id: r.slug, outs: await build(r) };
  },
  // The state says how it was made: the generations and the hash of what this resource published.
  read: (id, props) =>
    readSkill(id, props, (p, s, lines) => generatedOutputs(p, s, lines, { attempts: p.attempts, publishedHash: p.publishedHash })),
  async update(id, olds, news) {
    const r = withoutProvider(news);
    const edited = olds.publishedHash !== undefined && olds.contentHash !== olds.publishedHash;
    // Only metadata changed (category, tags, ...): the registry's copy of what was generated is published again
    // with the new metadata; the model is not asked again. Sources, model or prompt changed: generate anew.
    if (!edited && !changedKeys(["sourcesHash", "promptHash", "model"], olds, r, sameValue).length) {
      const current = await skills().get(id);
      log(`skills: ${r.slug}: only its metadata changed; publishing the generated skill again without generating`);
      const published = await publishSkill(
        r.slug,
        { name: current.name, description: current.description, instruction: current.instruction },
        r,
      );
      return { outs: generatedOutputs(r, published, await publishedLines(r.slug, published), { attempts: olds.attempts }) };
    }
    return { outs: await build(r) };
  },
  delete: deleteSkill,
};

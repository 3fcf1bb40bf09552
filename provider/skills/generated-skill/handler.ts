/**
 * `ops.skills.GeneratedSkill`. Regenerates only when its sources, model or prompt change (hashes in state), so a
 * no-op up stays a no-op and a change of metadata alone republishes what was generated; an answer that does not
 * validate is generated again, a bounded number of times (generate.ts). Published to the registry here, or to the
 * Claude API (claude.ts) where ops:skillsKind says so.
 */
import { checkWith, withoutProvider } from "../../check";
import { changedKeys, unlessGone, type Bag, type Handler } from "../../handler";
import { NotFoundError } from "../../http/errors";
import { log } from "../../log";
import { canonicalModel } from "../../runner/model-name";
import { modelDeclared } from "../../runner/model/preview";
import { knownText, type PreviewContext } from "../../preview";
import { previewSkill } from "../skill/preview";
import { skills } from "../client";
import { read, SKILLS_SETTINGS } from "../../config";
import { FORMAT_KEYS, METADATA_KEYS } from "../metadata";
import { deleteSkill, onClaude, publishSkill, readSkill, sameValue, takeoverProblem } from "../skill/handler";
import { labelOf, publishedLines } from "../skill/outputs";
import { generatedOutputs } from "./outputs";
import { currentOwner } from "../../owner";
import { claudeGenerated } from "./claude";
import { generate } from "./generate";
import { GeneratedSkillInputs, type GeneratedSkillOutputs } from "./schema";

/** Generated, then published to the registry. */
async function build(r: Bag): Promise<GeneratedSkillOutputs> {
  const { attempts, ...doc } = await generate(r);
  const s = await publishSkill(r.slug, doc, r);
  return generatedOutputs(r, s, await publishedLines(r.slug, s), { attempts });
}

/**
 * A generated skill's preview: its slug's takeover weighed as a Skill's, and the runner model that writes it — a
 * runner without it fails up's generation, unless this program makes it (a program that does passes its
 * RunnerModel's `name` output, so the model's check ran first, in this process).
 */
async function previewGenerated(ctx: PreviewContext): Promise<void> {
  await previewSkill(ctx, takeoverProblem);
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
    // Where it is published comes from ops:skillsKind (as a Skill's): another place is another skill. On the Claude
    // API only the format's fields are published (in the SKILL.md's front matter); the registry's own metadata is not.
    const wanted: Bag = { ...withoutProvider(news), publishTo: read(SKILLS_SETTINGS.kind) === "claude" ? "claude" : undefined };
    const replaces = changedKeys(["slug", "publishTo"], olds, wanted, sameValue);
    const published = wanted.publishTo === "claude" ? FORMAT_KEYS : METADATA_KEYS;
    const changed = changedKeys(["sourcesHash", "promptHash", "model", ...published], olds, wanted, sameValue);
    // Edited in the registry since it was published (refresh saw another content): publish it again.
    const edited = olds.publishedHash !== undefined && olds.contentHash !== olds.publishedHash;
    return { changes: replaces.length + changed.length > 0 || edited, replaces };
  },
  async create(r) {
    if (r.publishTo === "claude") return claudeGenerated.create(r);
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
    onClaude(id, props)
      ? claudeGenerated.read(id, props)
      : readSkill(id, props, (p, s, lines) => generatedOutputs(p, s, lines, { attempts: p.attempts, publishedHash: p.publishedHash })),
  async update(id, olds, news) {
    const r = withoutProvider(news);
    if (onClaude(id, olds)) return claudeGenerated.update(id, r);
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
  delete: (id, props) => (onClaude(id, props) ? claudeGenerated.delete(id, props) : deleteSkill(id)),
};

/**
 * `ops.skills.GeneratedSkill` on the Claude API (ops:skillsKind = claude), as a Skill is there: what the model wrote
 * becomes a SKILL.md (the format's fields from the program in its front matter), uploaded as a skill named `slug`
 * (id `skill_...`), a change uploads a new version, read compares the skill's newest version with the one this stack
 * made, destroy deletes it. The API gives no version's files back, so a change of the format's fields, or a version
 * made outside the stack, is generated again rather than republished.
 */
import { isPending, type Bag } from "../../handler";
import { log, warn } from "../../log";
import { claudeSkills, inlineSkillMd, uploadFiles } from "../claude";
import { contentHash } from "../document";
import { FORMAT_KEYS } from "../metadata";
import { claudeSkill, newestVersion, settledId, uploadAsSkill } from "../skill/claude-handler";
import { metadataOf } from "../skill/outputs";
import { generate, type Generated } from "./generate";
import type { GeneratedSkillOutputs } from "./schema";

/** The outputs of the version this stack made of a generation: the document's fields, the program's, the version. */
function outputs(r: Bag, g: Generated, versionId: string): GeneratedSkillOutputs {
  const doc = { name: g.name, description: g.description, instruction: g.instruction };
  const format = Object.fromEntries(FORMAT_KEYS.filter((k) => r[k] !== undefined).map((k) => [k, r[k]]));
  const hash = contentHash(doc);
  return {
    slug: r.slug,
    adopt: r.adopt ?? false,
    name: g.name,
    description: g.description,
    model: r.model,
    sources: r.sources,
    sourcesHash: r.sourcesHash,
    promptHash: r.promptHash,
    contentHash: hash,
    publishedHash: hash,
    attempts: g.attempts,
    lines: inlineSkillMd(doc, format).replace(/\n+$/, "").split("\n").length,
    ...metadataOf(r),
    publishTo: "claude",
    versionId,
  };
}

/** Generated, then uploaded: as a new skill (or, adopted, a version of the workspace's), or as a version of `id`. */
async function build(r: Bag, id?: string): Promise<{ id: string; outs: GeneratedSkillOutputs }> {
  const g = await generate(r);
  const files = uploadFiles({ ...r, source: undefined }, g);
  const made = id ? { id, versionId: (await claudeSkills().createVersion(id, files)).id } : await uploadAsSkill(r, files);
  return { id: made.id, outs: outputs(r, g, made.versionId) };
}

export const claudeGenerated = {
  create: (r: Bag) => build(r),

  async read(pendingOrId: string, props: Bag) {
    const seen = await newestVersion(pendingOrId, props);
    if (!seen) return {};
    if (props.versionId === undefined && !isPending(pendingOrId)) {
      // A lookup (Resource.get): no generation to compare, the skill as the service says it.
      const v = await claudeSkills().version(seen.id, "latest");
      const none = { name: v.name, description: v.description, instruction: "", attempts: 0 };
      const outs = outputs({ slug: seen.skill.display_name ?? v.name, sources: [], model: "" }, none, seen.latest);
      return { id: seen.id, props: { ...outs, contentHash: "", publishedHash: "", lines: 0 } };
    }
    const kept = props as GeneratedSkillOutputs; // the outputs an up of this resource left
    if (!seen.outside) return { id: seen.id, props: { ...kept, versionId: seen.latest } };
    // Marked so the next up generates and uploads the program's again (diff: the content is not what it published).
    warn(
      `skills: "${props.slug}" (${seen.id}) changed on the Claude API: ${seen.outside.changes.join("; ")}; the next up generates it again and uploads it as a new version`,
    );
    return { id: seen.id, props: { ...kept, versionId: seen.latest, contentHash: "changed-outside-the-stack" } };
  },

  async update(pendingOrId: string, r: Bag) {
    const id = await settledId(pendingOrId, r);
    log(`skills: ${r.slug}: generating a new version for the Claude API (it gives no version's files back to republish)`);
    return { outs: (await build(r, id)).outs };
  },

  delete: (pendingOrId: string, props: Bag) => claudeSkill.delete(pendingOrId, props),
};

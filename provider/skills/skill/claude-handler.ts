/**
 * `ops.skills.Skill` on the Claude API (ops:skillsKind = claude). id: the service's skill id (`skill_...`). Create
 * uploads the skill's folder (SKILL.md with its scripts/, references/, assets/), a change uploads a new version
 * (a whole snapshot), read compares the skill's newest version with the one this stack made, and destroy deletes
 * the skill with its versions. The display name is the resource's `slug`: a skill the workspace already holds under
 * it is taken over only with `adopt: true`.
 */
import { AlreadyExistsError } from "../../http/errors";
import { CLOCK_SKEW_MS, createOnce, isPending, type Bag } from "../../handler";
import { log, notice, warn } from "../../log";
import { readFlag, SKILLS_SETTINGS } from "../../config";
import { claudeSkills, uploadFiles, type ClaudeSkill, type SkillFile } from "../claude";
import { skillContent, type SkillOutputs } from "./schema";
import { declaredSkill } from "./outputs";

/** Whether a create takes over a skill the workspace holds under its name: `adopt`, or ops:skillsAdoptExisting. */
const adoptingSkill = (r: Bag) => r.adopt === true || readFlag(SKILLS_SETTINGS.adoptExisting);

/** What a version's upload holds (claude.ts: the folder of `source`, or a SKILL.md of the inline fields). */
const filesOf = (r: Bag): SkillFile[] => uploadFiles(r, skillContent(r));

const lineCount = (files: SkillFile[]) => {
  const doc = files.find((f) => f.path.endsWith("/SKILL.md"));
  return doc ? doc.bytes.toString("utf8").replace(/\n+$/, "").split("\n").length : 0;
};

/** The outputs of the version this stack made: the program's fields, the version and its files. */
const outputs = (r: Bag, versionId: string, files: SkillFile[]): SkillOutputs =>
  declaredSkill(r, { versionId, files: files.map((f) => f.path), lines: lineCount(files) });

/** The outputs the state holds (an up of this or an earlier release left them). */
const fromState = (props: Bag): SkillOutputs =>
  declaredSkill(props, { versionId: props.versionId, files: props.files, lines: props.lines ?? 0 });

/** The workspace's own skill displayed under this name, if any (display names are not unique: the first). */
export async function heldUnder(slug: string): Promise<ClaudeSkill | undefined> {
  return (await claudeSkills().listCustom()).find((s) => s.display_name === slug);
}

/** The skill a pending upload made: of its display name, made since the upload was sent (pending-<sent at>). */
export async function settled(pending: string, props: Bag): Promise<ClaudeSkill | undefined> {
  const sentAt = Number(pending.slice(pending.lastIndexOf("-") + 1));
  return (await claudeSkills().listCustom()).find(
    (s) => s.display_name === props.slug && Date.parse(String(s.created_at)) >= sentAt - CLOCK_SKEW_MS,
  );
}

export function claudeSkillTaken(slug: string, id: string): AlreadyExistsError {
  return new AlreadyExistsError({
    service: "skills",
    message: `the Claude API workspace already holds a skill named "${slug}" (${id}), uploaded by hand or by another stack`,
    remedy:
      "Set `adopt: true` on this skill to take it over (its next version is the program's folder, and destroy deletes it), or give it another slug",
  });
}

/**
 * Uploads `files` as the skill named `r.slug`: a new skill, made once even when the answer is lost, or — with
 * `adopt` — a new version of the workspace's skill of that name (refused without it). Skill and GeneratedSkill share it.
 */
export async function uploadAsSkill(r: Bag, files: SkillFile[]): Promise<{ id: string; versionId: string }> {
  const there = await heldUnder(String(r.slug));
  if (there) {
    if (!adoptingSkill(r)) throw claudeSkillTaken(String(r.slug), there.id);
    // The API gives no way to read a version's files back here: the program's files become its newest version.
    notice(`skills: adopting "${r.slug}" (${there.id}) on the Claude API; the program's files are uploaded as its newest version`);
    return { id: there.id, versionId: (await claudeSkills().createVersion(there.id, files)).id };
  }
  // An upload whose answer is lost may have made the skill: looked for (this name, made since it was sent) before
  // anything is sent again, so a lost answer never leaves a second skill or one the next up refuses as another's.
  const made = await createOnce({
    what: `the skill "${r.slug}"`,
    create: () => claudeSkills().create(files, String(r.slug)),
    findMade: async (sentAt) =>
      (await claudeSkills().listCustom()).find(
        (s) => s.display_name === r.slug && Date.parse(String(s.created_at)) >= sentAt - CLOCK_SKEW_MS,
      ),
    whereToLook: `the workspace's skills (GET /v1/skills?source=custom) for "${r.slug}": delete a half-made one there, or set adopt: true to take it`,
    properties: { ...r, versionId: "", files: [] },
  });
  const versionId = made.latest_version_id ?? (await claudeSkills().version(made.id, "latest")).id;
  log(`skills: "${r.slug}" uploaded to the Claude API as ${made.id} (${files.length} file${files.length === 1 ? "" : "s"})`);
  return { id: made.id, versionId };
}

/** The skill id of a resource that may be pending; a pending upload that made nothing is said with what to run. */
export async function settledId(pendingOrId: string, r: Bag): Promise<string> {
  if (!isPending(pendingOrId)) return pendingOrId;
  const made = await settled(pendingOrId, r);
  if (!made)
    throw new Error(
      `skills: "${r.slug}"'s earlier upload left no skill on the Claude API: run \`pulumi refresh\` to drop it from the state, then \`pulumi up\` uploads it`,
    );
  return made.id;
}

/**
 * The skill of a resource and its newest version, undefined when it is gone (a pending upload is settled by the
 * skill of its name made since it was sent; none is none, and the next up uploads it). `outside`: a version made
 * outside this stack, newer than the one it made (`props.versionId`), with what changed as the API says it.
 */
export async function newestVersion(
  pendingOrId: string,
  props: Bag,
): Promise<{ id: string; skill: ClaudeSkill; latest: string; outside?: { changes: string[]; description: string } } | undefined> {
  const id = isPending(pendingOrId) ? (await settled(pendingOrId, props))?.id : pendingOrId;
  if (!id) return undefined;
  let skill: ClaudeSkill;
  try {
    skill = await claudeSkills().get(id);
  } catch (e) {
    if ((e as { status?: number }).status === 404) return undefined;
    throw e;
  }
  const latest = String(skill.latest_version_id ?? "");
  if (isPending(pendingOrId) || props.versionId === undefined || latest === props.versionId) return { id, skill, latest };
  const v = await claudeSkills().version(id, latest);
  const changes = [`a version made outside this stack (${latest}${v.created_at ? `, ${v.created_at}` : ""})`];
  if (v.name !== props.name) changes.push(`name "${props.name}" → "${v.name}"`);
  if (v.description !== props.description)
    changes.push(`description ${JSON.stringify(String(props.description).slice(0, 60))} → ${JSON.stringify(v.description.slice(0, 60))}`);
  return { id, skill, latest, outside: { changes, description: v.description } };
}

export const claudeSkill = {
  /** Whether a create would take a skill the workspace holds without adopt (the preview's check). */
  async takeoverProblem(r: Bag): Promise<AlreadyExistsError | undefined> {
    const there = await heldUnder(String(r.slug));
    return there && !adoptingSkill(r) ? claudeSkillTaken(String(r.slug), there.id) : undefined;
  },

  async create(r: Bag) {
    const files = filesOf(r);
    const { id, versionId } = await uploadAsSkill(r, files);
    return { id, outs: outputs(r, versionId, files) };
  },

  async read(pendingOrId: string, props: Bag) {
    const seen = await newestVersion(pendingOrId, props);
    if (!seen) return {};
    const { id, skill: s, latest } = seen;
    if (isPending(pendingOrId)) return { id, props: { ...fromState(props), versionId: latest } }; // its first version is ours
    if (props.versionId === undefined) {
      // A lookup (Resource.get): the skill as the service says it, its newest version's name and description.
      const v = await claudeSkills().version(id, "latest");
      const outs = declaredSkill(
        { slug: s.display_name ?? v.name, name: v.name, description: v.description, publishTo: "claude", contentHash: "" },
        { versionId: latest, lines: 0 },
      );
      return { id, props: outs };
    }
    if (!seen.outside) return { id, props: fromState(props) };
    warn(
      `skills: "${props.slug}" (${id}) changed on the Claude API: ${seen.outside.changes.join("; ")}; the next up uploads the program's folder as a new version`,
    );
    const now = { ...fromState(props), description: seen.outside.description, versionId: latest, filesHash: "changed-outside-the-stack" };
    return { id, props: now, inputs: now };
  },

  async update(pendingOrId: string, r: Bag) {
    const id = await settledId(pendingOrId, r);
    const files = filesOf(r);
    const v = await claudeSkills().createVersion(id, files);
    return { outs: outputs(r, v.id, files) };
  },

  async delete(pendingOrId: string, props: Bag) {
    const id = isPending(pendingOrId) ? (await settled(pendingOrId, props))?.id : pendingOrId;
    if (id) await claudeSkills().delete(id);
  },
};

/**
 * `ops.skills.Skill` (and the publish/read/delete that `GeneratedSkill` shares). id: the slug (the registry
 * upserts by slug, so a skill it already holds is taken over only with `adopt: true`). Destroy deletes where the registry allows it;
 * a registry without delete (the spec shows none) leaves the skill published and the CLI says so.
 */
import { checkWith, withoutProvider } from "../../check";
import { SKILLS_SETTINGS, readFlag } from "../../config";
import { AlreadyExistsError } from "../../http/errors";
import { changedKeys, unlessGone, type Bag, type Handler } from "../../handler";
import { collectWarnings, log, warn } from "../../log";
import { skills, type SkillRecord } from "../client";
import { contentHash } from "../document";
import { FORMAT_KEYS, LIST_KEYS, METADATA_KEYS } from "../metadata";
import { skillContent, SkillInputs } from "./schema";

export const sameValue = (_k: string, a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

export function metadataOf(r: Bag): Bag {
  return Object.fromEntries(METADATA_KEYS.map((k) => [k, (LIST_KEYS as readonly string[]).includes(k) ? (r[k] ?? []) : r[k]]));
}

/** Outputs from what the registry holds. */
export function skillOutputs(r: Bag, s: SkillRecord) {
  // The source's text stays in the inputs only (for preview --diff): state holds it once.
  const { __provider: _, instruction: _i, sourceText: _t, ...rest } = r;
  return {
    ...rest,
    slug: s.slug,
    name: s.name,
    description: s.description,
    contentHash: contentHash(s),
    ...metadataOf(s),
    // A registry that does not keep the format's own fields answers without them: it cannot drift on them.
    ...Object.fromEntries(FORMAT_KEYS.filter((k) => s[k] === undefined && r[k] !== undefined).map((k) => [k, r[k]])),
    lines: s.instruction.split("\n").length + 4,
  };
}

export async function publishSkill(slug: string, content: { name: string; description: string; instruction: string }, r: Bag) {
  const { name, description, instruction } = content; // the document's fields, nothing of how it was read
  return skills().put(slug, { name, description, instruction, ...metadataOf(r) });
}

export async function readSkill(id: string, props: Bag) {
  const s = await unlessGone(() => skills().get(id));
  if (!s) return {};
  const outs = skillOutputs(props, { ...s, slug: id });
  const drifted = changedKeys(["contentHash", ...METADATA_KEYS], props, outs, sameValue).length > 0;
  const { lines: _l, ...inputs } = outs;
  // A lookup or an import (nothing kept): the inputs that make this skill are its fields inline.
  if (props.contentHash === undefined) return { id, props: outs, inputs: { ...inputs, source: undefined, contentHash: undefined, instruction: s.instruction } };
  return drifted ? { id, props: outs, inputs } : { id, props: outs };
}

/** Whether a create takes over a skill the registry holds: `adopt`, or ops:skillsAdoptExisting for a recovery run. */
export function adoptingSkill(r: { adopt?: unknown; slug?: unknown }): boolean {
  return r.adopt === true || readFlag(SKILLS_SETTINGS.adoptExisting) || leftPublished.has(String(r.slug));
}

export function skillTaken(slug: string): AlreadyExistsError {
  return new AlreadyExistsError({
    service: "skills",
    message: `the registry already holds a skill "${slug}" (published by hand or by another stack)`,
    remedy: "Set `adopt: true` on this skill to take it over (it is then published over, and destroy removes it), or give it another slug",
  });
}

/** Skills this run's deletes left published (a registry with no delete): a replacement made next takes them back. */
const leftPublished = new Set<string>();

export async function deleteSkill(id: string) {
  if (await skills().delete(id)) return;
  leftPublished.add(id);
  warn(`skills: the registry offers no delete, so skill "${id}" stays published (remove it there by hand if it must go)`);
}

export const skill: Handler = {
  async check(olds, news) {
    // The document's style notes are shown when its content is new, not again at every preview of an unchanged one.
    const { result, warnings } = collectWarnings(() => checkWith(SkillInputs, news));
    if (result.inputs.contentHash !== olds?.contentHash) for (const w of warnings) warn(w);
    return result;
  },
  async diff(_id, olds, news) {
    const wanted = withoutProvider(news);
    const replaces = changedKeys(["slug"], olds, wanted, sameValue);
    const changed = changedKeys(["contentHash", ...METADATA_KEYS], olds, wanted, sameValue);
    return { changes: replaces.length + changed.length > 0, replaces };
  },
  async create(r) {
    // Taken over only when the program says so: another stack's skill (or one published by hand) is not made this
    // stack's silently (its destroy would delete it). Exactly as the program says: nothing sent.
    const there = await unlessGone(() => skills().get(r.slug));
    if (there && !adoptingSkill(r)) throw skillTaken(r.slug);
    if (there) {
      const outs = skillOutputs(r, { ...there, slug: r.slug });
      if (!changedKeys(["contentHash", ...METADATA_KEYS], r, outs, sameValue).length) {
        log(`skills: "${r.slug}" is published already as the program says; nothing sent`);
        return { id: r.slug, outs };
      }
    }
    const s = await publishSkill(r.slug, skillContent(r), r);
    return { id: r.slug, outs: skillOutputs(r, s) };
  },
  read: readSkill,
  async update(_id, _olds, news) {
    const r = withoutProvider(news);
    return { outs: skillOutputs(r, await publishSkill(r.slug, skillContent(r), r)) };
  },
  delete: deleteSkill,
};

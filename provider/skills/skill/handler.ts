/**
 * `ops.skills.Skill` (and the publish/read/delete that `GeneratedSkill` shares). id: the slug (the registry
 * upserts by slug, so a skill it already holds is taken over only with `adopt: true`). Destroy deletes where the registry allows it;
 * a registry without delete (the spec shows none) leaves the skill published and the CLI says so.
 */
import { checkWith, isUnknown, withoutProvider } from "../../check";
import { SKILLS_SETTINGS, read, readFlag } from "../../config";
import { currentOwner, leftToAnother, standing } from "../../owner";
import { AlreadyExistsError } from "../../http/errors";
import { changedKeys, isPending, sameField, unlessGone, type Bag, type Handler } from "../../handler";
import { collectWarnings, log, notice, warn } from "../../log";
import { skills, type SkillRecord } from "../client";
import { contentHash } from "../document";
import { FORMAT_KEYS, METADATA_KEYS } from "../metadata";
import { skillContent, SkillInputs, type SkillInputs as Inputs, type SkillOutputs } from "./schema";
import {
  LABEL_RELEASED,
  LABEL_RESOURCE,
  LABEL_STACK,
  labelOf,
  metadataOf,
  publishedLines,
  skillOutputs,
  type PublishedFields,
} from "./outputs";
import { claudeSkill } from "./claude-handler";
import { previewSkill } from "./preview";

/**
 * A skill the Claude API holds (its ids are `skill_...`; a registry slug is kebab-case, never with `_`), or one whose
 * upload there left it pending (its answer lost while the service could not be asked).
 */
export const onClaude = (id: string, props?: Bag) => id.startsWith("skill_") || (isPending(id) && props?.publishTo === "claude");

export const sameValue = sameField;

/** The metadata to publish: the program's, with this stack's label when the door knows the owner. */
function labelled(metadata: Record<string, string> | undefined): Record<string, string> | undefined {
  const me = currentOwner();
  return me ? { ...metadata, [LABEL_STACK]: me.stack, [LABEL_RESOURCE]: me.resource } : metadata;
}

const quoted = (v: unknown) => JSON.stringify(typeof v === "string" && v.length > 60 ? `${v.slice(0, 57)}...` : (v ?? null));

/**
 * What changed between the skill this stack published (its outputs) and the registry's copy: each field as
 * `field "was" → "now"`, the body by its first differing line against the program's SKILL.md (or by its length),
 * so a reviewer reads what was edited, not a hash.
 */
async function whatChanged(props: Bag, now: Bag, published: SkillRecord): Promise<string[]> {
  const changes: string[] = [];
  for (const k of ["name", "description", ...METADATA_KEYS]) {
    if (!sameValue(k, props[k], now[k])) changes.push(`${k} ${quoted(props[k])} → ${quoted(now[k])}`);
  }
  const declared = (() => {
    try {
      return props.source ? skillContent(props).instruction : typeof props.instruction === "string" ? props.instruction : undefined;
    } catch {
      return undefined; // the file is gone or unreadable: said by its length only
    }
  })();
  // The body changed when the old name and description with the published body do not make the old hash.
  const bodyChanged =
    contentHash({ name: String(props.name), description: String(props.description), instruction: published.instruction }) !==
    props.contentHash;
  if (declared !== undefined && declared !== published.instruction) {
    const was = declared.split("\n");
    const is = published.instruction.split("\n");
    const at = was.findIndex((line, i) => line !== is[i]);
    const i = at < 0 ? was.length : at;
    changes.push(
      `the body, from its line ${i + 1}: ${quoted(is[i] ?? "(end)")} where the program has ${quoted(was[i] ?? "(end)")} (${is.length} lines published, ${was.length} in the program)`,
    );
  } else if (declared === undefined && bodyChanged) {
    changes.push(`the body (${now.lines} lines published, ${props.lines ?? "?"} before)`);
  }
  return changes;
}

export async function publishSkill(slug: string, content: { name: string; description: string; instruction: string }, r: Bag) {
  const { name, description, instruction } = content; // the document's fields, nothing of how it was read
  const fields = metadataOf(r);
  return skills().put(slug, { name, description, instruction, ...fields, metadata: labelled(fields.metadata) });
}

/** A skill read from the registry, its outputs made by `outputsOf` (a Skill's or a GeneratedSkill's) from the state. */
export async function readSkill<O extends PublishedFields>(
  id: string,
  props: Bag,
  outputsOf: (props: Bag, s: SkillRecord, lines: number) => O,
): Promise<{ id?: string; props?: O; inputs?: Bag }> {
  const s = await unlessGone(() => skills().get(id));
  if (!s) return {};
  const outs = outputsOf(props, { ...s, slug: id }, await publishedLines(id, s));
  const label = labelOf(s);
  const me = currentOwner();
  if (label && me && label !== me.stack)
    warn(
      `skills: "${id}" now carries the label of stack ${label}: that stack has taken it over; remove this resource from the program (pulumi state delete) to leave it to them`,
    );
  const drifted = changedKeys(["contentHash", ...METADATA_KEYS], props, outs, sameValue).length > 0;
  const { lines: _l, ...inputs } = outs;
  // A lookup or an import (nothing kept): the inputs that make this skill are its fields inline.
  if (props.contentHash === undefined)
    return { id, props: outs, inputs: { ...inputs, source: undefined, contentHash: undefined, instruction: s.instruction } };
  if (!drifted) return { id, props: outs };
  // Edited out of band: said field by field, and the published text kept in the inputs (sourceText from a file,
  // instruction inline), so the preview that restores it shows the lines it changes back (pulumi preview --diff).
  warn(
    `skills: "${id}" was changed in the registry: ${(await whatChanged(props, outs, s)).join("; ")}; the next up publishes the program's again`,
  );
  const text = props.source
    ? await skills()
        .markdown(id)
        .catch(() => undefined)
    : undefined;
  // (A GeneratedSkill, made of its sources, has neither input: the warning says what changed.)
  const published =
    props.sources !== undefined ? {} : props.source ? (text !== undefined ? { sourceText: text } : {}) : { instruction: s.instruction };
  return { id, props: outs, inputs: { ...inputs, ...published } };
}

/** Whether a create takes over a skill the registry holds: `adopt`, or ops:skillsAdoptExisting for a recovery run. */
export function adoptingSkill(r: { adopt?: unknown; slug?: unknown }): boolean {
  return r.adopt === true || readFlag(SKILLS_SETTINGS.adoptExisting) || leftPublished.has(String(r.slug));
}

/**
 * Whether a skill the registry holds may be taken by this create: this stack's own (its label; left published by
 * its destroy) always, with nothing to set; another stack's never, unless ops:adoptFromStack names that stack; one
 * with no label (published by hand, or by a tool that writes none) only with `adopt: true`. Reads nothing.
 */
export function takeoverProblem(r: Bag, there: SkillRecord): AlreadyExistsError | undefined {
  const label = labelOf(there);
  const whose = standing(label);
  if (whose === "mine") {
    notice(
      `skills: "${r.slug}" is this stack's own (published by ${label}, resource ${there.metadata?.[LABEL_RESOURCE] ?? "?"}): taken back`,
    );
    return undefined;
  }
  const released = there.metadata?.[LABEL_RELEASED];
  if (!label && released && standing(released) === "mine") {
    notice(`skills: "${r.slug}" was left published by this stack's destroy: taken back`);
    return undefined;
  }
  if (whose === "theirs") return skillOwnedBy(r.slug, label!, there.metadata?.[LABEL_RESOURCE]);
  if (!adoptingSkill(r)) return skillTaken(r.slug);
  notice(
    `skills: ${label ? `taking "${r.slug}" over from stack ${label} (ops:adoptFromStack)` : `adopting "${r.slug}", which the registry already holds (published by hand, or by a stack that labels nothing)`}`,
  );
  return undefined;
}

export function skillOwnedBy(slug: string, stack: string, resource: string | undefined): AlreadyExistsError {
  return new AlreadyExistsError({
    service: "skills",
    message: `the registry's skill "${slug}" belongs to stack ${stack}${resource ? ` (resource ${resource})` : ""}, which published it`,
    remedy: `Give this skill another slug, or remove it from stack ${stack} first; to take it over from that stack anyway, set ops:adoptFromStack to ${stack} for one run (with adopt: true)`,
  });
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
  // Another stack's now (taken over with ops:adoptFromStack): its skill is left to it.
  const there = await unlessGone(() => skills().get(id));
  if (!there) return;
  const label = labelOf(there);
  if (leftToAnother(label)) {
    warn(`skills: "${id}" belongs to stack ${label} now, so this destroy leaves it published`);
    return;
  }
  if (await skills().delete(id)) return;
  leftPublished.add(id);
  // Left published by a stack that no longer holds it: its label would refuse every other stack's takeover ("remove
  // it from stack … first") after that stack is gone. Published once more with the label turned into
  // pulumi-ops-released-by (a destroy may write): nobody's now, taken by another program with adopt alone, and
  // back by this stack with nothing to set.
  const mine = label && standing(label) === "mine";
  if (mine) {
    const { [LABEL_STACK]: _s, [LABEL_RESOURCE]: _r, ...metadata } = there.metadata ?? {};
    const { slug: _slug, ...record } = there;
    await skills().put(id, { ...record, metadata: { ...metadata, [LABEL_RELEASED]: label } });
  }
  warn(
    `skills: the registry offers no delete, so skill "${id}" stays published${mine ? ", without this stack's label (another stack takes it with adopt: true)" : ""} (remove it there by hand if it must go)`,
  );
}

export const skill: Handler<Inputs, SkillOutputs> = {
  preview: (ctx) => previewSkill(ctx, takeoverProblem),
  async check(olds, news) {
    // The document's style notes are shown when its content is new, not again at every preview of an unchanged one.
    const { result, warnings } = collectWarnings(() => checkWith(SkillInputs, news));
    if (result.inputs.contentHash !== olds?.contentHash) for (const w of warnings) warn(w);
    return result;
  },
  async diff(_id, olds, news) {
    // Where it is published comes from ops:skillsKind, not from the inputs: a preview with an input unknown (a saved
    // plan) leaves every derived input unknown, and an unknown kind must not read as a move to another service.
    const wanted: Bag = { ...withoutProvider(news), publishTo: read(SKILLS_SETTINGS.kind) === "claude" ? "claude" : undefined };
    const claude = wanted.publishTo === "claude";
    // Another place to publish (ops:skillsKind changed) is another skill: made there, then removed from the old one.
    // On the Claude API a skill's name is fixed at its first upload: another (known) name is another skill.
    const replaces = changedKeys(["slug", "publishTo", ...(claude && !isUnknown(wanted.name) ? ["name"] : [])], olds, wanted, sameValue);
    const changed = changedKeys(["contentHash", ...(claude ? ["filesHash", ...FORMAT_KEYS] : METADATA_KEYS)], olds, wanted, sameValue);
    return { changes: replaces.length + changed.length > 0, replaces };
  },
  async create(r) {
    if (r.publishTo === "claude") return claudeSkill.create(r);
    // Taken over only when the program says so: another stack's skill (or one published by hand) is not made this
    // stack's silently (its destroy would delete it). Exactly as the program says: nothing sent.
    const there = await unlessGone(() => skills().get(r.slug));
    const problem = there && takeoverProblem(r, there);
    if (problem) throw problem;
    if (there) {
      const outs = skillOutputs(r, { ...there, slug: r.slug }, await publishedLines(r.slug, there));
      const me = currentOwner();
      const mine = !me || labelOf(there) === me.stack; // else published once more, to carry this stack's label
      if (mine && !changedKeys(["contentHash", ...METADATA_KEYS], r, outs, sameValue).length) {
        log(`skills: "${r.slug}" is published already as the program says; nothing sent`);
        return { id: r.slug, outs };
      }
    }
    const s = await publishSkill(r.slug, skillContent(r), r);
    return { id: r.slug, outs: skillOutputs(r, s, await publishedLines(r.slug, s)) };
  },
  read: (id, props) => (onClaude(id, props) ? claudeSkill.read(id, props) : readSkill(id, props, skillOutputs)),
  async update(id, olds, news) {
    const r = withoutProvider(news);
    if (onClaude(id, olds)) return claudeSkill.update(id, r);
    const s = await publishSkill(r.slug, skillContent(r), r);
    return { outs: skillOutputs(r, s, await publishedLines(r.slug, s)) };
  },
  delete: (id, props) => (onClaude(id, props) ? claudeSkill.delete(id, props) : deleteSkill(id)),
};

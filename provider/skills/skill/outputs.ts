/**
 * A skill's outputs, typed by the schemas so a field a schema gains and a mapping forgets is a compile error: the
 * fields both kinds publish, from what the registry holds (`publishedFields`), then each kind's own — a Skill's here,
 * on the registry (`skillOutputs`) or as its inputs say it (`declaredSkill`, the Claude API's), a GeneratedSkill's in
 * generated-skill/outputs.ts. The owner's label (written into the skill's metadata) stays out of them.
 */
import type { Bag } from "../../handler";
import { skills, type SkillRecord } from "../client";
import { contentHash } from "../document";
import { FORMAT_KEYS, type METADATA_KEYS } from "../metadata";
import type { SkillOutputs } from "./schema";

/**
 * The owner's label, written into the skill's metadata where the registry keeps it: the stack (`<project>/<stack>`)
 * and the resource. Adoption reads it (another stack's skill is refused naming it; this stack's own, left published
 * by its destroy, is taken back), destroy never deletes another stack's, and outputs and drift leave it out.
 */
export const LABEL_STACK = "pulumi-ops-stack";
export const LABEL_RESOURCE = "pulumi-ops-resource";
/** The stack whose destroy left the skill published (a registry with no delete): nobody's now, and that stack's to take back. */
export const LABEL_RELEASED = "pulumi-ops-released-by";

/** The stack whose label the skill carries, if any. */
export const labelOf = (s: { metadata?: Record<string, string> }) => s.metadata?.[LABEL_STACK];

/** The skill as the program sees it: the metadata without the owner's label. */
function unlabelled<T extends { metadata?: Record<string, string> }>(s: T): T {
  if (!s.metadata || !(LABEL_STACK in s.metadata || LABEL_RESOURCE in s.metadata || LABEL_RELEASED in s.metadata)) return s;
  const { [LABEL_STACK]: _s, [LABEL_RESOURCE]: _r, [LABEL_RELEASED]: _l, ...rest } = s.metadata;
  return { ...s, metadata: Object.keys(rest).length ? rest : undefined };
}

/** The fields besides the document (metadata.ts's METADATA_KEYS). */
type MetadataFields = Pick<SkillOutputs, (typeof METADATA_KEYS)[number]>;

/** The fields besides the document, as published: the lists the registry answers as empty when none was given. */
export function metadataOf(r: Bag): MetadataFields {
  return {
    category: r.category,
    tags: r.tags ?? [],
    agents: r.agents ?? [],
    toolsRequired: r.toolsRequired ?? [],
    version: r.version,
    license: r.license,
    compatibility: r.compatibility,
    metadata: r.metadata,
    allowedTools: r.allowedTools,
  };
}

/**
 * The published document's length in lines: the registry's own SKILL.md of the skill (GET .../skill.md), as a
 * reader of the registry gets it; a registry without that route: front matter of name and description, a blank
 * line, the body.
 */
export async function publishedLines(slug: string, s: SkillRecord): Promise<number> {
  const text = await skills()
    .markdown(slug)
    .catch(() => undefined);
  return text !== undefined ? text.replace(/\n+$/, "").split("\n").length : s.instruction.split("\n").length + 5;
}

/** The fields both kinds of skill publish. */
export type PublishedFields = Pick<SkillOutputs, "slug" | "name" | "description" | "contentHash" | "lines"> & MetadataFields;

/**
 * What the registry holds of the skill, `lines` from publishedLines. A registry that does not keep the format's own
 * fields (license, compatibility, metadata, allowedTools) answers without them: the program's (`r`) stand, as it
 * cannot drift on them.
 */
export function publishedFields(r: Bag, labelledRecord: SkillRecord, lines: number): PublishedFields {
  const s = unlabelled(labelledRecord);
  const kept = Object.fromEntries(FORMAT_KEYS.map((k) => [k, s[k] === undefined ? r[k] : s[k]]));
  return {
    slug: s.slug,
    name: s.name,
    description: s.description,
    contentHash: contentHash(s),
    ...metadataOf({ ...s, ...kept }),
    lines,
  };
}

/** What the program says of a Skill beside what the registry holds: its inputs, or the state an up left. */
function declared(r: Bag): Pick<SkillOutputs, "adopt" | "source" | "publishTo" | "filesHash" | "followGuide"> {
  return { adopt: r.adopt ?? false, source: r.source, publishTo: r.publishTo, filesHash: r.filesHash, followGuide: r.followGuide ?? true };
}

/** A Skill's outputs on the registry: what it holds, and what the program says (`r`: the inputs or the state). */
export function skillOutputs(r: Bag, labelledRecord: SkillRecord, lines: number): SkillOutputs {
  return { ...publishedFields(r, labelledRecord, lines), ...declared(r) };
}

/**
 * A Skill's outputs as its inputs (or its state) say them, with the version it made: the Claude API answers none of
 * these fields but the version and its files.
 */
export function declaredSkill(r: Bag, version: { versionId?: string; files?: string[]; lines: number }): SkillOutputs {
  return {
    slug: r.slug,
    name: r.name,
    description: r.description,
    contentHash: r.contentHash,
    ...metadataOf(r),
    ...declared(r),
    ...version,
  };
}

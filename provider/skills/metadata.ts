/** The skill fields besides the document itself, shared by `Skill` and `GeneratedSkill`. */
import { z } from "zod";
import { derived } from "../check";
import { NAME } from "./document";

export const CATEGORIES = ["dev", "infrastructure", "content", "ops", "social"] as const;
const Words = z
  .array(
    z
      .string()
      .min(1)
      .max(64)
      .regex(/^[^\u0000-\u001f\u007f]*$/, "must not contain control characters"),
  )
  .max(50)
  .default([]);

export const skillMetadata = {
  slug: z
    .string()
    .max(64)
    .regex(NAME, "slug must be kebab-case: lowercase letters, digits and single hyphens")
    .describe("The skill's address in the registry. Changing it replaces the skill.")
    .meta({ replaceOnChanges: true }),
  category: z
    .enum(CATEGORIES, { error: `category must be one of ${CATEGORIES.join(", ")}` })
    .optional()
    .describe("The registry's category the skill is listed under."),
  tags: Words.describe("Search tags."),
  agents: Words.describe("The agents the skill is for."),
  toolsRequired: Words.describe("Tools the skill needs."),
  version: z
    .string()
    .max(32)
    .optional()
    .describe("The skill's version, published with it (at most 32 characters); a new one publishes the skill again."),
  // The Agent Skills format's own optional fields (from a SKILL.md's front matter when `source` is given).
  license: z
    .string()
    .optional()
    .describe(
      "The skill's license: a name (`MIT`) or the file of one beside the skill; from the SKILL.md's front matter when `source` is given.",
    ),
  compatibility: z
    .string()
    .max(500, "compatibility must be at most 500 characters")
    .optional()
    .describe("What the skill needs of its environment (at most 500 characters): the product it is for, packages, network access."),
  metadata: z
    .record(z.string(), z.string())
    .optional()
    .describe("Other properties, text by key (`author`, `version`, ...), as the format's `metadata` mapping."),
  allowedTools: z
    .array(z.string().min(1).regex(/^\S+$/, "a tool name has no spaces"))
    .optional()
    .describe("Tools the skill may use without asking (the format's `allowed-tools`, experimental)."),
};

/** Where a skill is published, set by the provider from ops:skillsKind (Skill's and GeneratedSkill's). */
export const PublishTo = z
  .enum(["claude"])
  .optional()
  .describe("Set by the provider: `claude` when ops:skillsKind publishes to the Claude API (a change of kind replaces the skill there).")
  .meta(derived);

/** The Agent Skills format's fields besides name and description. */
export const FORMAT_KEYS = ["license", "compatibility", "metadata", "allowedTools"] as const;
/** Lists the registry answers as empty when none was given. */
export const LIST_KEYS = ["tags", "agents", "toolsRequired"] as const;
export const METADATA_KEYS = ["category", ...LIST_KEYS, "version", ...FORMAT_KEYS] as const;

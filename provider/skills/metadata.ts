/** The skill fields besides the document itself, shared by `Skill` and `GeneratedSkill`. */
import { z } from "zod";
import { NAME } from "./document";

export const CATEGORIES = ["dev", "infrastructure", "content", "ops", "social"] as const;
const Words = z.array(z.string().min(1).max(64).regex(/^[^\u0000-\u001f\u007f]*$/, "must not contain control characters")).max(50).default([]);

export const skillMetadata = {
  slug: z.string().max(64).regex(NAME, "slug must be kebab-case: lowercase letters, digits and single hyphens").describe("The skill's address in the registry. Changing it replaces the skill.").meta({ replaceOnChanges: true }),
  category: z.enum(CATEGORIES, { error: `category must be one of ${CATEGORIES.join(", ")}` }).optional(),
  tags: Words.describe("Search tags."),
  agents: Words.describe("The agents the skill is for."),
  toolsRequired: Words.describe("Tools the skill needs."),
  version: z.string().max(32).optional(),
};

export const METADATA_KEYS = ["category", "tags", "agents", "toolsRequired", "version"] as const;

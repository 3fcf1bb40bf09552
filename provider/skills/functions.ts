/** The skills registry's read-only functions. */
import { z } from "zod";
import { requireArgs } from "../check";
import { NAME } from "./document";
import { skills } from "./client";

const Slug = z.object({ slug: z.string().regex(NAME, "slug must be kebab-case").describe("The skill's kebab-case slug.") });
export const functionArgs = {
  searchSkills: z.object({
    q: z.string().max(200).default("").describe("Text to find in a skill's name, description, tags or instruction; empty: every skill."),
  }),
  getSkill: Slug,
  getSkillMarkdown: Slug,
};

const slugOf = (args: unknown, fn: string): string => requireArgs("skills", fn, Slug, args).slug;

export async function searchSkills(args: z.input<typeof functionArgs.searchSkills> = {}) {
  return skills().search(requireArgs("skills", "searchSkills", functionArgs.searchSkills, args).q);
}
export async function getSkill(args: { slug: string }) {
  return skills().get(slugOf(args, "getSkill"));
}
export async function getSkillMarkdown(args: { slug: string }) {
  return skills().markdown(slugOf(args, "getSkillMarkdown"));
}

/** The skills registry's read-only functions. */
import { z } from "zod";
import { ValidationError } from "../http/errors";
import { NAME } from "./document";
import { skills } from "./client";

const Slug = z.object({ slug: z.string().regex(NAME, "slug must be kebab-case") });
export const functionArgs = { searchSkills: z.object({ q: z.string().max(200).default("") }), getSkill: Slug, getSkillMarkdown: Slug };

function slugOf(args: unknown, fn: string): string {
  const r = Slug.safeParse(args);
  if (!r.success) throw new ValidationError({ service: "skills", message: `${fn}: slug: ${r.error.issues[0].message}` });
  return r.data.slug;
}

export async function searchSkills(args: z.input<typeof functionArgs.searchSkills> = {}) {
  return skills().search(functionArgs.searchSkills.parse(args).q);
}
export async function getSkill(args: { slug: string }) {
  return skills().get(slugOf(args, "getSkill"));
}
export async function getSkillMarkdown(args: { slug: string }) {
  return skills().markdown(slugOf(args, "getSkillMarkdown"));
}

/**
 * The read-only functions of the skills registry the provider plugin serves as invokes, with their arguments and results
 * (function-registry.ts gathers every service's into one flat table).
 */
import { z } from "zod";
import type { FunctionEntry } from "../function-entry";
import * as skills from "./functions";
import { SKILL_FIELDS } from "./client";

const Skill = z.object({ slug: z.string().describe("The skill's address in the registry."), ...SKILL_FIELDS });

export const skillsFunctions: Record<string, FunctionEntry> = {
  "skills:getSkill": {
    description: "A published skill by its slug.",
    args: skills.functionArgs.getSkill,
    result: Skill,
    run: (a) => skills.getSkill(a),
  },
  "skills:getSkillMarkdown": {
    description: "A published skill's SKILL.md text.",
    args: skills.functionArgs.getSkillMarkdown,
    result: z.object({ markdown: z.string().describe("The SKILL.md: front matter, then the body.") }),
    run: async (a) => ({ markdown: await skills.getSkillMarkdown(a) }),
  },
  "skills:searchSkills": {
    description: "Skills whose name, description or tags match `q` (all skills when empty).",
    args: skills.functionArgs.searchSkills,
    result: z.object({ skills: z.array(Skill).describe("The matching skills.") }),
    run: async (a) => ({ skills: await skills.searchSkills(a) }),
  },
};

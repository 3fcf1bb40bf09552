/** Read-only functions of the skills registry. */
import { withStackConfig } from "../config";
import * as skills from "../../provider/skills/functions";

/** Skills whose name, description, tags or instruction contain `q`. */
export const searchSkills = withStackConfig(skills.searchSkills);
/** One skill's record. */
export const getSkill = withStackConfig(skills.getSkill);
/** One skill as the registry renders it: SKILL.md text with front matter. */
export const getSkillMarkdown = withStackConfig(skills.getSkillMarkdown);

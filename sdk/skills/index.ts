export * from "./functions";
export { GeneratedSkill, type GeneratedSkillArgs } from "./generated-skill";
export { Skill, type SkillArgs } from "./skill";
export type * from "./types";

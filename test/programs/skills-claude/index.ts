import * as pulumi from "@pulumi/pulumi";
import * as ops from "pulumi-ops";

const config = new pulumi.Config();

// The skill's whole folder (SKILL.md with scripts/ and references/), uploaded to the Claude API (ops:skillsKind).
const skill = new ops.skills.Skill("oven-care", { slug: "oven-care", source: config.require("skillSource") });

export const skillId = skill.id;
export const versionId = skill.versionId;
export const files = skill.files;

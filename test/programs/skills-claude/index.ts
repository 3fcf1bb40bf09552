import * as pulumi from "@pulumi/pulumi";
import * as ops from "pulumi-ops";

const config = new pulumi.Config();

// The skill's whole folder (SKILL.md with scripts/ and references/), uploaded to the Claude API (ops:skillsKind).
const skill = new ops.skills.Skill("oven-care", { slug: "oven-care", source: config.require("skillSource") });

export const skillId = skill.id;
export const versionId = skill.versionId;
export const files = skill.files;

// A skill the runner's model writes from the program's sources, uploaded there too (from step 6 on).
const sources = config.get("generatedFrom");
const runbook = sources
  ? new ops.skills.GeneratedSkill("runbook", {
      slug: "oven-runbook",
      sources: [`${sources}/deck-oven-handbook.md`, `${sources}/bake-schedule.md`],
      model: new ops.runner.RunnerModel("writer", { name: "qwen2.5:0.5b" }).name,
      topic: "running the deck ovens",
    })
  : undefined;

export const runbookId = runbook?.id;
export const runbookVersionId = runbook?.versionId;

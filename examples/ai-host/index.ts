import * as pulumi from "@pulumi/pulumi";
import * as ops from "pulumi-ops";

const config = new pulumi.Config();
/** Switching to baker-strict.model changes the definition: the model is re-created in place. */
const bakerDefinition = config.get("bakerDefinition") ?? "baker.model";
/** Changing the version publishes the skill again (an update in place). */
const skillVersion = config.get("skillVersion") ?? "1.0.0";
/** The hand-written skill's document: an edit shows as changed lines in `pulumi preview --diff`. */
const skillSource = config.get("skillSource") ?? "skills/oven-care/SKILL.md";

// A model pulled by name, and a custom model built on it from a definition file in this folder.
const base = new ops.runner.RunnerModel("base", { name: "qwen2.5:0.5b" });
const baker = new ops.runner.RunnerModel("baker", { name: "baker", definitionFile: bakerDefinition }, { dependsOn: base });

// A skill written by hand, published from its SKILL.md.
new ops.skills.Skill("oven-care", {
  slug: "oven-care",
  source: skillSource,
  category: "ops",
  tags: ["oven", "bakery"],
  agents: ["shift-assistant"],
  version: skillVersion,
});

// A skill generated from the bakery's handbooks by the custom model, validated, then published.
const runbook = new ops.skills.GeneratedSkill("oven-runbook", {
  slug: "oven-runbook",
  sources: ["sources/deck-oven-handbook.md", "sources/bake-schedule.md"],
  model: baker.name,
  topic: "running the deck ovens through a bake day",
  category: "ops",
});

export const bakerDigest = baker.digest;
export const runbookLines = runbook.lines;
export const models = baker.digest.apply(() => ops.runner.listModels()).apply((r) => r.models.map((m) => m.name));

import * as pulumi from "@pulumi/pulumi";
import provider from "../../provider/providers/skills-GeneratedSkill";
import { outputSlots, secretsSlot, ownerSlot, refuseImport, CheckedResource } from "../types";
import { generatedSkillOutputNames, type GeneratedSkillArgs, type GeneratedSkillOutputs as Out } from "./types";

export type { GeneratedSkillArgs };

/**
 * A skill built in five phases: gather `sources`, generate by chat with a runner `model`, extract the
 * SKILL.md, validate it (generating again, up to `maxAttempts`), publish it. Regenerated only when the sources,
 * model or prompt change.
 *
 *     const writer = new ops.runner.RunnerModel("writer", { name: "llama3.2" });
 *     new ops.skills.GeneratedSkill("runbook", { slug: "oven-runbook", sources: ["docs/oven.md"], model: writer.name, category: "ops" });
 */
export class GeneratedSkill extends CheckedResource {
  declare readonly slug: pulumi.Output<Out["slug"]>;
  declare readonly adopt: pulumi.Output<Out["adopt"]>;
  declare readonly name: pulumi.Output<Out["name"]>;
  declare readonly description: pulumi.Output<Out["description"]>;
  declare readonly model: pulumi.Output<Out["model"]>;
  declare readonly sources: pulumi.Output<Out["sources"]>;
  declare readonly sourcesHash: pulumi.Output<Out["sourcesHash"]>;
  declare readonly promptHash: pulumi.Output<Out["promptHash"]>;
  declare readonly contentHash: pulumi.Output<Out["contentHash"]>;
  declare readonly publishedHash: pulumi.Output<Out["publishedHash"]>;
  declare readonly attempts: pulumi.Output<Out["attempts"]>;
  declare readonly lines: pulumi.Output<Out["lines"]>;
  declare readonly category: pulumi.Output<Out["category"]>;
  declare readonly tags: pulumi.Output<Out["tags"]>;
  declare readonly agents: pulumi.Output<Out["agents"]>;
  declare readonly toolsRequired: pulumi.Output<Out["toolsRequired"]>;
  declare readonly version: pulumi.Output<Out["version"]>;
  /** The named account (`ops:accounts`) that serves it; unset, the stack's own. */
  declare readonly account: pulumi.Output<Out["account"]>;

  constructor(name: string, args: GeneratedSkillArgs, opts?: pulumi.CustomResourceOptions) {
    refuseImport("skills.GeneratedSkill", name, opts, false);
    super(
      provider,
      name,
      { ...outputSlots(generatedSkillOutputNames), ...args, ...ownerSlot(name, opts), ...secretsSlot(args, opts) },
      opts,
      "skills",
      "GeneratedSkill",
    );
  }

  /** Reads an existing object without managing it. `id` is `<slug>`. */
  static get(
    name: string,
    id: pulumi.Input<string>,
    state?: { account?: pulumi.Input<string> },
    opts?: pulumi.CustomResourceOptions,
  ): GeneratedSkill {
    return new GeneratedSkill(name, { ...state } as GeneratedSkillArgs, { ...opts, id });
  }
}

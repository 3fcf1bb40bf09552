import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import provider from "../../provider/providers/skills-Skill";
import { SkillOutputs, type SkillInputs } from "../../provider/skills/skill/schema";
import { outputSlots, type InputsOf } from "../types";


export type SkillArgs = InputsOf<z.input<typeof SkillInputs>>;
type Out = z.infer<typeof SkillOutputs>;

/**
 * A skill in the registry, from inline fields or a SKILL.md (`source`) whose front matter gives name and
 * description. The document is checked at preview (hard problems fail with their line; the 50-300 line guide is a
 * warning). Changes are PUT in place; destroy deletes where the registry allows it, and otherwise leaves the skill
 * published and says so.
 *
 *     new ops.skills.Skill("deploy", { slug: "deploy-preview", source: "skills/deploy-preview/SKILL.md", category: "dev" });
 */
export class Skill extends pulumi.dynamic.Resource {
  declare readonly slug: pulumi.Output<Out["slug"]>;
  declare readonly name: pulumi.Output<Out["name"]>;
  declare readonly description: pulumi.Output<Out["description"]>;
  declare readonly source: pulumi.Output<Out["source"]>;
  declare readonly contentHash: pulumi.Output<Out["contentHash"]>;
  declare readonly category: pulumi.Output<Out["category"]>;
  declare readonly tags: pulumi.Output<Out["tags"]>;
  declare readonly agents: pulumi.Output<Out["agents"]>;
  declare readonly toolsRequired: pulumi.Output<Out["toolsRequired"]>;
  declare readonly version: pulumi.Output<Out["version"]>;
  declare readonly lines: pulumi.Output<Out["lines"]>;

  constructor(name: string, args: SkillArgs, opts?: pulumi.CustomResourceOptions) {
    super(provider, name, { ...outputSlots(SkillOutputs), ...args }, opts, "skills", "Skill");
  }

  /** Reads an existing object without managing it. `id` is `<slug>`. */
  static get(name: string, id: pulumi.Input<string>, opts?: pulumi.CustomResourceOptions): Skill {
    return new Skill(name, {} as SkillArgs, { ...opts, id });
  }
}

import * as pulumi from "@pulumi/pulumi";
import provider from "../../provider/providers/skills-Skill";
import { outputSlots, secretsSlot, ownerSlot, refuseImport, CheckedResource } from "../types";
import { skillOutputNames, type SkillArgs, type SkillOutputs as Out } from "./types";

export type { SkillArgs };

/**
 * A skill in the registry, or on the Claude API (ops:skillsKind `claude`), from inline fields or a SKILL.md
 * (`source`) whose front matter gives name and description. The document is checked at preview (hard problems fail
 * with their line; the 50-300 line guide is a warning). In the registry, a slug it already holds is taken over only
 * with `adopt: true`, changes are PUT in place, and destroy deletes where the registry allows it (otherwise the skill
 * stays published, said). On the Claude API, the whole folder of `source` is uploaded, any changed file is a new
 * version, a skill the workspace holds under the slug is taken over only with `adopt: true`, and destroy deletes it.
 *
 *     new ops.skills.Skill("ovenCare", { slug: "oven-care", source: "skills/oven-care/SKILL.md", category: "ops" });
 */
export class Skill extends CheckedResource {
  declare readonly slug: pulumi.Output<Out["slug"]>;
  declare readonly adopt: pulumi.Output<Out["adopt"]>;
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
  /** `claude` when the skill is on the Claude API (ops:skillsKind). */
  declare readonly publishTo: pulumi.Output<Out["publishTo"]>;
  /** On the Claude API: the hash of every file of the skill's folder. */
  declare readonly filesHash: pulumi.Output<Out["filesHash"]>;
  /** On the Claude API (ops:skillsKind `claude`): the version this stack uploaded last. */
  declare readonly versionId: pulumi.Output<Out["versionId"]>;
  /** On the Claude API: the paths of the files that version holds. */
  declare readonly files: pulumi.Output<Out["files"]>;
  /** The named account (`ops:accounts`) that serves it; unset, the stack's own. */
  declare readonly account: pulumi.Output<Out["account"]>;

  constructor(name: string, args: SkillArgs, opts?: pulumi.CustomResourceOptions) {
    refuseImport("skills.Skill", name, opts, false);
    super(
      provider,
      name,
      { ...outputSlots(skillOutputNames), ...args, ...ownerSlot(name, opts), ...secretsSlot(args, opts) },
      opts,
      "skills",
      "Skill",
    );
  }

  /** Reads an existing object without managing it. `id` is `<slug>`. */
  static get(
    name: string,
    id: pulumi.Input<string>,
    state?: { account?: pulumi.Input<string> },
    opts?: pulumi.CustomResourceOptions,
  ): Skill {
    return new Skill(name, { ...state } as SkillArgs, { ...opts, id });
  }
}

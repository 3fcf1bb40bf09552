/**
 * A skill's preview (Handler.preview): a new skill whose slug the registry already holds would take another stack's
 * (or a hand-published) skill at up — another stack's is refused naming it, this stack's own taken back, one with no
 * label taken only with `adopt`. On the Claude API, the workspace's skills by name are weighed the same way.
 */
import { isUnknown } from "../../check";
import { read, SKILLS_SETTINGS } from "../../config";
import { unlessGone } from "../../handler";
import { knownText, type PreviewContext } from "../../preview";
import { skills, type SkillRecord } from "../client";
import { claudeSkill } from "./claude-handler";

/** How a create weighs a skill the registry holds (skill/handler.ts takeoverProblem): given, so imports run one way. */
type Takeover = (inputs: Record<string, any>, there: SkillRecord) => Error | undefined;

/** A takeover of the slug on the registry, refused where up would refuse it (a GeneratedSkill's too). */
export async function previewRegistryTakeover(ctx: PreviewContext, takeoverProblem: Takeover): Promise<void> {
  const slug = knownText(ctx.inputs.slug);
  if (!ctx.reads || !slug || isUnknown(ctx.inputs.adopt) || ctx.ownedByStack()) return;
  const there = await ctx.once(`skills ${ctx.account ?? ""} skill ${slug}`, () => unlessGone(() => skills().get(slug)));
  const problem = there && takeoverProblem(ctx.inputs, there);
  if (problem) throw problem;
}

export async function previewSkill(ctx: PreviewContext, takeoverProblem: Takeover): Promise<void> {
  if (read(SKILLS_SETTINGS.kind) !== "claude") return previewRegistryTakeover(ctx, takeoverProblem);
  if (!ctx.reads || !knownText(ctx.inputs.slug) || isUnknown(ctx.inputs.adopt) || ctx.ownedByStack()) return;
  const problem = await claudeSkill.takeoverProblem(ctx.inputs);
  if (problem) throw problem;
}

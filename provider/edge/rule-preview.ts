/**
 * A rule's preview (Handler.preview) where rules run in order: a new rule's place among its phase's rules, or what
 * an adopting rule will take over, said with one read of the zone's rules — as records' adoptions are. Only for a
 * rule the stack does not hold yet, with every input known.
 */
import { allKnown, type PreviewContext } from "../preview";

type Say = (inputs: Record<string, any>) => Promise<void>;

export async function previewNewRule(ctx: PreviewContext, say: { placed?: Say; adopted?: Say }): Promise<void> {
  if (!ctx.reads || Object.keys(ctx.olds).length || !allKnown(ctx.inputs)) return;
  await (ctx.inputs.adopt === true ? say.adopted : say.placed)?.(ctx.inputs);
}

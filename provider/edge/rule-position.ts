/**
 * Where a rule goes in its phase. The rulesets engine runs a phase's rules in order and appends a new rule unless the
 * add names a `position` (`before` or `after` a rule id, or a 1-based `index`: ruleset-engine/rulesets-api/add-rule);
 * a PATCH with a position moves the rule. The old firewall-rules engine ran actions by precedence instead (allow and
 * bypass before challenge and block), so a skip-like rule with no position goes before the first rule of the phase
 * that is not a skip: appended after a block rule it would allow nothing that rule blocks.
 *
 * The program names rules by their `ref` (or id); the provider resolves it to the rule's id when it writes.
 */
import { z } from "zod";
import { ValidationError } from "../http/errors";
import type * as wire from "./wire";

export const RulePosition = z
  .object({
    before: z.string().min(1).optional().describe("The `ref` (or id) of a rule of the phase that this rule goes before."),
    after: z.string().min(1).optional().describe("The `ref` (or id) of a rule of the phase that this rule goes after."),
    index: z.number().int().min(1).optional().describe("The rule's place in the phase, from 1."),
  })
  .refine((p) => [p.before, p.after, p.index].filter((x) => x !== undefined).length === 1, {
    error: "position takes exactly one of before, after and index",
  })
  .describe(
    "Where the rule goes among the phase's rules, which run in order: `{ before: <ref> }`, `{ after: <ref> }` or `{ index: n }` (from 1). Without it a new rule is added at the end, except a skip-like one (`skip`, `allow`, `bypass`), which goes before the first rule that is not a skip. Refresh reports a rule moved out of its place, and up puts it back.",
  );
export type RulePosition = z.infer<typeof RulePosition>;

/** The engine's `position` of a rule add or move. */
export type WirePosition = { before: string } | { after: string } | { index: number };

const named = (rules: wire.RulesetRule[], name: string) => rules.find((r) => r.ref === name) ?? rules.find((r) => r.id === name);

/**
 * Where a new rule goes among `rules` (the phase as it is now, without the rule): the engine's position (undefined:
 * the end) and the words a preview and a notice use. A declared position naming no rule of the phase fails naming
 * the field.
 */
export function placement(
  rules: wire.RulesetRule[],
  position: RulePosition | undefined,
  skipLike: boolean,
): { wire?: WirePosition; said: string } {
  if (position?.index !== undefined)
    return { wire: { index: Math.min(position.index, rules.length + 1) }, said: `at place ${position.index}` };
  const side = position?.before !== undefined ? "before" : position?.after !== undefined ? "after" : undefined;
  if (side) {
    const name = (position as Record<string, string>)[side];
    const target = named(rules, name);
    if (!target) {
      throw new ValidationError({
        service: "edge",
        message: `position.${side}: the phase has no rule with the ref or id ${name}`,
        remedy: "Name a rule of the same phase (its ref), or leave position out",
      });
    }
    return { wire: side === "before" ? { before: target.id } : { after: target.id }, said: `${side} rule ${target.ref ?? target.id}` };
  }
  if (skipLike) {
    const first = rules.find((r) => r.action !== "skip");
    if (first)
      return {
        wire: { before: first.id },
        said: `before rule ${first.ref ?? first.id} (${first.action}), the first that is not a skip, so it takes effect`,
      };
  }
  return { said: "at the end" };
}

/** Whether the rule `ruleId` stands where `position` puts it among `rules` (no position: anywhere). */
export function inPlace(rules: wire.RulesetRule[], ruleId: string, position: RulePosition | undefined): boolean {
  const at = rules.findIndex((r) => r.id === ruleId);
  if (!position || at < 0) return true;
  if (position.index !== undefined) return at === Math.min(position.index, rules.length) - 1;
  const target = named(rules, (position.before ?? position.after)!);
  if (!target) return true; // the named rule is gone: nothing to be in place against (a new create would fail naming it)
  const there = rules.indexOf(target);
  return position.before !== undefined ? at < there : at > there;
}

/** Where the rule stands now, in the program's words: its place from 1. */
export function actualPosition(rules: wire.RulesetRule[], ruleId: string): RulePosition {
  return { index: rules.findIndex((r) => r.id === ruleId) + 1 };
}

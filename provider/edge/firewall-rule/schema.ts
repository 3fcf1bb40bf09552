/** `ops.edge.FirewallRule`: a filter expression and what to do with the requests it matches. */
import { z } from "zod";
import { zoneInputs, zoneRule } from "../zone-ref";
import { expressionProblems } from "./expression";

export const token = "edge:FirewallRule";

export const FIREWALL_ACTIONS = ["block", "challenge", "js_challenge", "managed_challenge", "allow", "log", "bypass"] as const;

export const FirewallRuleInputs = z
  .object({
    ...zoneInputs,
    filter: z
      .object({ expression: z.string().describe("A rule expression, e.g. `ip.src in {198.51.100.0/24}` or `http.request.uri.path eq \"/admin\"`.") })
      .describe("Which requests the rule matches."),
    action: z.enum(FIREWALL_ACTIONS, { error: `action must be one of ${FIREWALL_ACTIONS.join(", ")}` }).describe("What to do with a matching request."),
    description: z.string().max(500, "description must be at most 500 characters").regex(/^[^\u0000-\u001f\u007f]*$/, "description must not contain control characters").optional().describe("A note shown with the rule in the dashboard (at most 500 characters)."),
    paused: z.boolean().default(false).describe("Keep the rule but do not apply it."),
    adopt: z.boolean().default(false).describe("Take over an existing rule with the same expression instead of adding a second one."),
  })
  .superRefine((r, ctx) => {
    zoneRule(r, ctx);
    for (const p of expressionProblems(r.filter.expression)) ctx.addIssue({ code: "custom", path: ["filter", "expression"], message: p });
  });
export type FirewallRuleInputs = z.output<typeof FirewallRuleInputs>;

export const FirewallRuleOutputs = z.object({
  zoneId: z.string(),
  zoneName: z.string(),
  filter: z.object({ expression: z.string() }),
  filterId: z.string().optional().describe("The id of the filter the service made for the expression."),
  action: z.string(),
  description: z.string().optional(),
  paused: z.boolean(),
  adopt: z.boolean(),
});
export type FirewallRuleOutputs = z.infer<typeof FirewallRuleOutputs>;

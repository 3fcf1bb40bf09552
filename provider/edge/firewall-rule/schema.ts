/**
 * `ops.edge.FirewallRule`: a WAF custom rule, one rule of the zone's `http_request_firewall_custom` entry point
 * ruleset (the legacy firewall rules API it was first written for accepts no changes since 2025-06-15).
 */
import { z } from "zod";
import { ruleFailure } from "../../check";
import { zoneInputs, zoneRule } from "../zone-ref";
import { expressionProblems } from "./expression";
import { RulePosition } from "../rule-position";
import type { Example } from "../../doc-example";

export const token = "edge:FirewallRule";

/** The rulesets engine's actions, and the legacy `allow` and `bypass`, which become `skip`. */
export const FIREWALL_ACTIONS = ["block", "challenge", "js_challenge", "managed_challenge", "log", "skip", "allow", "bypass"] as const;

const REF = /^[A-Za-z0-9_-]{1,64}$/;
/** The content types a block rule's custom response takes (WAF custom rules, "Configure a custom response"). */
const RESPONSE_TYPES = ["text/html", "text/plain", "application/json", "text/xml"] as const;

export const FirewallRuleInputs = z
  .object({
    ...zoneInputs,
    expression: z
      .string()
      .optional()
      .describe("The rule's expression in the rules language, e.g. `ip.src in {198.51.100.0/24}`. Give this or `filter.expression`."),
    filter: z
      .object({
        expression: z.string().describe('A rule expression, e.g. `ip.src in {198.51.100.0/24}` or `http.request.uri.path eq "/admin"`.'),
      })
      .optional()
      .describe("The legacy form of `expression`, as pulumi-ops 0.3.0 took it. Give this or `expression`."),
    action: z
      .enum(FIREWALL_ACTIONS, { error: `action must be one of ${FIREWALL_ACTIONS.join(", ")}` })
      .describe(
        "What to do with a matching request. `allow` and `bypass` (legacy) are sent as `skip` of the remaining custom rules; `log` needs an Enterprise plan.",
      ),
    actionParameters: z
      .record(z.string(), z.unknown())
      .optional()
      .describe(
        'The action\'s parameters as the rulesets engine takes them, e.g. for `skip`: `{ruleset: "current"}` (the default), `{phases: ["http_ratelimit"]}` or `{products: ["bic"]}`.',
      ),
    description: z
      .string()
      .max(500, "description must be at most 500 characters")
      .regex(/^[^\u0000-\u001f\u007f]*$/, "description must not contain control characters")
      .optional()
      .describe("The rule's name in the dashboard (at most 500 characters)."),
    paused: z.boolean().default(false).describe("Keep the rule but do not apply it (the engine's `enabled: false`)."),
    enabled: z
      .boolean()
      .optional()
      .describe("The engine's form of `paused`: false keeps the rule without applying it. Give one of the two."),
    ref: z
      .string()
      .regex(REF, "ref must be 1 to 64 letters, digits, _ or -")
      .optional()
      .describe(
        "A name for the rule that stays the same across updates, unique in the ruleset; the service uses the rule's id when none is given.",
      ),
    adopt: z
      .boolean()
      .default(false)
      .describe("Take over an existing rule with the same `ref`, or the same expression and action, instead of adding a second one."),
    position: RulePosition.optional(),
    response: z
      .object({
        statusCode: z
          .number()
          .int()
          .min(400, "response.statusCode must be 400 to 499")
          .max(499, "response.statusCode must be 400 to 499")
          .describe("The HTTP status of the answer, 400 to 499."),
        contentType: z
          .enum(RESPONSE_TYPES, { error: `response.contentType must be one of ${RESPONSE_TYPES.join(", ")}` })
          .describe("The answer's content type."),
        content: z.string().describe("The answer's body."),
      })
      .optional()
      .describe("For `block`: the custom answer blocked requests get (the rule's `action_parameters.response`)."),
    logging: z
      .object({ enabled: z.boolean().describe("Whether matching requests are logged.") })
      .optional()
      .describe("The rule's `logging` (a skip rule's requests are logged unless `enabled: false`)."),
  })
  .superRefine((r, ctx) => {
    zoneRule(r, ctx);
    if ((r.expression === undefined) === (r.filter === undefined)) {
      ruleFailure(ctx, r.expression === undefined ? "expression" : "filter", "set exactly one of expression and filter.expression", [
        "expression",
        "filter",
      ]);
    }
    const expression = r.expression ?? r.filter?.expression;
    const path = r.expression !== undefined ? ["expression"] : ["filter", "expression"];
    if (expression !== undefined) for (const p of expressionProblems(expression)) ctx.addIssue({ code: "custom", path, message: p });
    if (r.enabled !== undefined && r.paused && r.enabled)
      ruleFailure(ctx, "enabled", "paused: true and enabled: true contradict each other: give one of the two", ["paused"]);
    if (r.response && r.action !== "block")
      ruleFailure(ctx, "response", `a custom response is for block rules: remove it for ${r.action}`, ["action"]);
    if (r.actionParameters && !["skip", "allow", "bypass", "block"].includes(r.action))
      ruleFailure(ctx, "actionParameters", `action ${r.action} takes no actionParameters: remove them`, ["action"]);
  });
export type FirewallRuleInputs = z.output<typeof FirewallRuleInputs>;

export const FirewallRuleOutputs = z.object({
  zoneId: z.string(),
  zoneName: z.string(),
  expression: z.string().describe("The rule's expression, as the service keeps it."),
  filter: z
    .object({ expression: z.string() })
    .optional()
    .describe("The expression in the legacy form, when the program gives it that way."),
  action: z.string().describe("The action as the program gives it (`allow` and `bypass` are kept by the service as `skip`)."),
  actionParameters: z.record(z.string(), z.unknown()).optional().describe("The action's parameters, as the service keeps them."),
  description: z.string().optional(),
  paused: z.boolean(),
  enabled: z.boolean().describe("Whether the rule applies: the opposite of `paused`."),
  ref: z.string().describe("The rule's ref in the ruleset."),
  ruleId: z.string().describe("The rule's id in the zone's `http_request_firewall_custom` entry point ruleset."),
  rulesetId: z.string().describe("The id of that ruleset."),
  adopt: z.boolean(),
  position: RulePosition.optional().describe("Where the program puts the rule among the phase's rules, when it says."),
  response: z
    .object({ statusCode: z.number(), contentType: z.string(), content: z.string() })
    .optional()
    .describe("A block rule's custom response, when the program says."),
  logging: z
    .object({ enabled: z.boolean().describe("Whether matching requests are logged.") })
    .optional()
    .describe("The rule's logging, when the program says."),
});
export type FirewallRuleOutputs = z.infer<typeof FirewallRuleOutputs>;

/**
 * The class's doc comment in the TypeScript SDK (scripts/gen-sdk-classes.ts writes it, whitespace folded, above the
 * example below): what the resource is for and how it behaves.
 */
export const classDoc = `
  A firewall rule: a WAF custom rule of the zone's \`http_request_firewall_custom\` entry point ruleset (the service's
  rulesets engine; rules made elsewhere are left alone). The expression is checked at preview for what can be proven
  wrong (unbalanced quotes or braces, invalid addresses in \`ip.src in {...}\`, unknown fields). A stack of 0.3.0 (a
  legacy firewall rule id in state) moves with one update that finds the rule the service converted it into and writes
  nothing when it is as the program says.`;

/**
 * The example of the reference and of the class's doc comment, in every language (scripts/example-render.ts), run
 * by the tests against the emulators' seeds.
 */
export const example: Example = {
  step: { name: "badNet", args: { zoneName: "example.com", expression: "ip.src in {198.51.100.0/24}", action: "block" } },
};

/**
 * `ops.edge.RulesetRule`: one rule of a zone's entry point ruleset in any phase the service documents — the custom
 * and rate limiting rules, and the products that replace page rules (cache, redirect, transform, origin and
 * configuration rules). One rule per resource: the phase's other rules (the dashboard's, another stack's) are never
 * touched, unlike a resource that owns a whole ruleset.
 */
import { z } from "zod";
import { ruleFailure } from "../../check";
import { expressionProblems } from "../firewall-rule/expression";
import { RulePosition } from "../rule-position";
import { zoneInputs, zoneRule } from "../zone-ref";
import type { Example } from "../../doc-example";

export const token = "edge:RulesetRule";

/** Each zone entry point phase and the actions its rules take (ruleset-engine/reference/phases-list, each product's API page). */
export const PHASE_ACTIONS: Record<string, string[]> = {
  http_request_firewall_custom: ["block", "challenge", "js_challenge", "managed_challenge", "log", "skip"],
  http_ratelimit: ["block", "challenge", "js_challenge", "managed_challenge", "log"],
  http_request_cache_settings: ["set_cache_settings"],
  http_request_dynamic_redirect: ["redirect"],
  http_request_transform: ["rewrite"],
  http_request_late_transform: ["rewrite"],
  http_response_headers_transform: ["rewrite"],
  http_request_origin: ["route"],
  http_config_settings: ["set_config"],
  http_response_compression: ["compress_response"],
  http_custom_errors: ["serve_error"],
};
const PHASES = Object.keys(PHASE_ACTIONS) as [string, ...string[]];

/** What an action's parameters must hold (the action and parameter reference): the service refuses a rule without it. */
export function actionParametersProblem(
  action: string,
  p: Record<string, any> | undefined,
  phase: string,
): { path: string; reason: string } | undefined {
  if (action === "redirect") {
    const target = p?.from_value?.target_url;
    if (!target || (typeof target.value !== "string" && typeof target.expression !== "string"))
      return {
        path: "actionParameters",
        reason:
          'a redirect needs from_value.target_url with a value or an expression, e.g. { from_value: { target_url: { value: "https://example.com/" }, status_code: 301 } }',
      };
    const code = p!.from_value.status_code;
    if (code !== undefined && ![301, 302, 303, 307, 308].includes(code))
      return { path: "actionParameters", reason: `from_value.status_code ${code} is not a redirect status: use 301, 302, 303, 307 or 308` };
  }
  if (action === "rewrite") {
    if (!p?.uri && !p?.headers) return { path: "actionParameters", reason: "a rewrite needs uri (path or query) or headers" };
    if (phase === "http_response_headers_transform" && p.uri)
      return { path: "actionParameters", reason: "a response header rule rewrites headers only: remove uri" };
  }
  if (action === "route" && !p?.host_header && !p?.origin && !p?.sni)
    return { path: "actionParameters", reason: "a route needs host_header, origin or sni" };
  if ((action === "set_config" || action === "set_cache_settings") && (!p || !Object.keys(p).length))
    return {
      path: "actionParameters",
      reason: `${action} needs the settings it sets, e.g. ${action === "set_config" ? '{ security_level: "high" }' : '{ cache: true, edge_ttl: { mode: "override_origin", default: 3600 } }'}`,
    };
  if (action === "skip" && !p?.ruleset && !p?.phases && !p?.products)
    return { path: "actionParameters", reason: 'skip needs ruleset ("current"), phases or products' };
  if (action === "compress_response" && !Array.isArray(p?.algorithms))
    return { path: "actionParameters", reason: 'compress_response needs algorithms, e.g. [{ name: "brotli" }, { name: "gzip" }]' };
  return undefined;
}

const REF = /^[A-Za-z0-9_-]{1,64}$/;

export const RulesetRuleInputs = z
  .object({
    ...zoneInputs,
    phase: z
      .enum(PHASES, { error: `phase must be one of ${PHASES.join(", ")}` })
      .describe(
        "The zone entry point phase the rule lives in, e.g. `http_request_cache_settings` (cache rules) or `http_request_dynamic_redirect` (redirect rules). Changing it replaces the rule.",
      )
      .meta({ replaceOnChanges: true }),
    expression: z
      .string()
      .describe(
        'The requests the rule applies to, in the rules language, e.g. `http.request.uri.path wildcard "/static/*"` (or `true` for all).',
      ),
    action: z
      .string()
      .describe(
        "What the rule does, one of the phase's actions: `set_cache_settings`, `redirect`, `rewrite`, `route`, `set_config`, `block`, `skip`, ...",
      ),
    actionParameters: z
      .record(z.string(), z.unknown())
      .optional()
      .describe(
        'The action\'s parameters as the rulesets engine takes them (snake_case, as the API documents them), e.g. for `redirect`: `{ from_value: { target_url: { value: "https://example.com/new" }, status_code: 301 } }`.',
      ),
    ratelimit: z
      .record(z.string(), z.unknown())
      .optional()
      .describe(
        "For `http_ratelimit`: the rule's `ratelimit` object (characteristics, period, requests_per_period, mitigation_timeout, ...). `RateLimit` says the same with checked inputs.",
      ),
    description: z.string().max(500, "description must be at most 500 characters").optional().describe("The rule's name in the dashboard."),
    enabled: z.boolean().default(true).describe("Whether the rule applies."),
    ref: z
      .string()
      .regex(REF, "ref must be 1 to 64 letters, digits, _ or -")
      .optional()
      .describe(
        "A name for the rule that stays the same across updates, unique in the ruleset; the service uses the rule's id when none is given.",
      ),
    position: RulePosition.optional(),
    logging: z
      .object({ enabled: z.boolean().describe("Whether matching requests are logged.") })
      .optional()
      .describe("The rule's `logging`."),
    adopt: z
      .boolean()
      .default(false)
      .describe(
        "Take over an existing rule of the phase with the same `ref`, or the same expression and action, instead of adding a second one.",
      ),
  })
  .superRefine((r, ctx) => {
    zoneRule(r, ctx);
    const actions = PHASE_ACTIONS[r.phase];
    if (actions && !actions.includes(r.action))
      ruleFailure(ctx, "action", `action ${r.action} is not one of phase ${r.phase}'s: use ${actions.join(", ")}`, ["phase"]);
    else if (actions) {
      const problem = actionParametersProblem(r.action, r.actionParameters as Record<string, any> | undefined, r.phase);
      if (problem) ruleFailure(ctx, problem.path, problem.reason, ["action"]);
    }
    if (r.phase === "http_ratelimit" && !r.ratelimit)
      ruleFailure(
        ctx,
        "ratelimit",
        "a rule of http_ratelimit needs ratelimit (characteristics, period, requests_per_period, ...): or declare it as a RateLimit",
        ["phase"],
      );
    if (r.ratelimit && r.phase !== "http_ratelimit")
      ruleFailure(ctx, "ratelimit", `ratelimit is for http_ratelimit rules: remove it for ${r.phase}`, ["phase"]);
    for (const p of expressionProblems(r.expression, { knownFields: false }))
      ctx.addIssue({ code: "custom", path: ["expression"], message: p });
  });
export type RulesetRuleInputs = z.output<typeof RulesetRuleInputs>;

export const RulesetRuleOutputs = z.object({
  zoneId: z.string(),
  zoneName: z.string(),
  phase: z.string(),
  expression: z.string(),
  action: z.string(),
  actionParameters: z
    .record(z.string(), z.unknown())
    .optional()
    .describe("The action's parameters the program gives, as the service keeps them."),
  ratelimit: z.record(z.string(), z.unknown()).optional(),
  description: z.string().optional(),
  enabled: z.boolean(),
  ref: z.string().describe("The rule's ref in the ruleset."),
  ruleId: z.string().describe("The rule's id in the zone's entry point ruleset of the phase."),
  rulesetId: z.string().describe("The id of that ruleset."),
  position: RulePosition.optional().describe("Where the program puts the rule among the phase's rules, when it says."),
  logging: z
    .object({ enabled: z.boolean().describe("Whether matching requests are logged.") })
    .optional()
    .describe("The rule's logging, when the program says."),
  adopt: z.boolean(),
});
export type RulesetRuleOutputs = z.infer<typeof RulesetRuleOutputs>;

/**
 * The class's doc comment in the TypeScript SDK (scripts/gen-sdk-classes.ts writes it, whitespace folded, above the
 * example below): what the resource is for and how it behaves.
 */
export const classDoc = `
  One rule of a zone's entry point ruleset in any phase the service documents: cache rules
  (\`http_request_cache_settings\`), redirect rules (\`http_request_dynamic_redirect\`), transform rules, origin
  rules, configuration rules, custom and rate limiting rules. The resource owns its one rule: the phase's other rules
  (the dashboard's, another stack's) are never touched; an update keeps what the program does not declare;
  \`position\` puts it among them.`;

/**
 * The example of the reference and of the class's doc comment, in every language (scripts/example-render.ts), run
 * by the tests against the emulators' seeds.
 */
export const example: Example = {
  step: {
    name: "cacheStatic",
    args: {
      zoneName: "example.com",
      phase: "http_request_cache_settings",
      expression: 'http.request.uri.path wildcard "/static/*"',
      action: "set_cache_settings",
      actionParameters: { cache: true },
    },
  },
};

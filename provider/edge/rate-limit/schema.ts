/**
 * `ops.edge.RateLimit`: at most `threshold` requests per `period` seconds to a URL pattern, then `action`. A rate
 * limiting rule of the zone's `http_ratelimit` entry point ruleset (the previous rate limiting API answers 410 Gone).
 */
import { z } from "zod";
import { ruleFailure } from "../../check";
import { urlPatternProblem } from "../url-pattern";
import { zoneInputs, zoneRule } from "../zone-ref";
import { SUPPORTED_SECONDS } from "./rule";
import { RulePosition } from "../rule-position";
import type { Example } from "../../doc-example";

export const token = "edge:RateLimit";

export const MODES = ["simulate", "ban", "challenge", "js_challenge", "managed_challenge"] as const;
/** The periods the rulesets engine takes on any plan (Enterprise: up to 65,535 s); rule.ts narrows them to the zone's plan at preview. */
export const PERIODS = SUPPORTED_SECONDS.filter((v) => v <= 65535);
const METHODS = ["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "_ALL_"] as const;

export const RateLimitInputs = z
  .object({
    ...zoneInputs,
    threshold: z
      .number()
      .int("threshold must be a whole number")
      .min(1, "threshold must be at least 1")
      .max(1_000_000)
      .optional()
      .describe("Requests allowed per period before the action applies. Give this, or scorePerPeriod."),
    period: z
      .number()
      .int()
      .refine((p) => PERIODS.includes(p), {
        error: `period must be one of ${PERIODS.join(", ")} seconds (the zone's plan may allow fewer: Free 10; Pro up to 60; Business up to 600)`,
      })
      .describe(
        "The counting window, in seconds: one of 10, 15, 20, 30, 40, 45, 60, 90, 120, 180, 240, 300, 480, 600, 900, 1200, 1800, 2400, 3600, 65535, as the zone's plan allows (Free: 10; Pro: up to 60; Business: up to 600; Enterprise: all).",
      ),
    action: z
      .object({
        mode: z
          .enum(MODES, { error: `action.mode must be one of ${MODES.join(", ")}` })
          .describe(
            "`ban` (the engine's `block`), `simulate` (`log`, Enterprise only), `challenge`, `js_challenge` or `managed_challenge`.",
          ),
        timeout: z
          .number()
          .int()
          .min(1)
          .max(86400, "action.timeout must be at most 86400 seconds (a day)")
          .optional()
          .describe(
            "Seconds the action lasts once the threshold is passed (the rule's mitigation timeout; `simulate` and `ban` need one): one of 10, 15, 20, 30, 40, 45, 60, 90, 120, 180, 240, 300, 480, 600, 900, 1200, 1800, 2400, 3600, 65535, 86400, as the zone's plan allows (Free: 10; Pro: up to 3600; Business and Enterprise: up to 86400; Enterprise may set other values).",
          ),
      })
      .describe(
        "`mode` (`ban`, sent as the engine's `block`; `simulate`, sent as `log`, Enterprise only; or a challenge) and, for ban and simulate, `timeout`: how long in seconds.",
      ),
    match: z
      .object({
        request: z
          .object({
            url: z
              .string()
              .describe(
                "URL pattern with `*` wildcards, e.g. `example.com/login*`: the rule's expression matches its path (`http.request.uri.path`), and its host (`http.host`) unless the host is `*`. The Free plan matches paths only: write `*/login*` there.",
              ),
            methods: z
              .array(z.enum(METHODS))
              .optional()
              .describe("HTTP methods counted (`http.request.method`, Business plan and up); all when absent."),
          })
          .describe("The requests counted: a URL pattern and, optionally, methods."),
      })
      .describe("Which requests are counted."),
    description: z
      .string()
      .max(1024)
      .regex(/^[^\u0000-\u001f\u007f]*$/, "description must not contain control characters")
      .optional()
      .describe("A note shown with the rule (at most 1024 characters)."),
    disabled: z.boolean().default(false).describe("Keep the rule without enforcing it."),
    ref: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/, "ref must be 1 to 64 letters, digits, _ or -")
      .optional()
      .describe(
        "A name for the rule that stays the same across updates, unique in the ruleset; the service uses the rule's id when none is given.",
      ),
    adopt: z
      .boolean()
      .default(false)
      .describe("Take over an existing rule with the same `ref`, or the same expression, instead of adding a second one."),
    position: RulePosition.optional(),
    characteristics: z
      .array(z.string().min(1))
      .min(1)
      .optional()
      .describe(
        'What requests are counted by (the rule\'s `ratelimit.characteristics`): `cf.colo.id` (required by the service) and, e.g., `ip.src`, `http.request.headers["x-api-key"]`. Below Business only `cf.colo.id` and `ip.src`. Default `["cf.colo.id", "ip.src"]`.',
      ),
    countingExpression: z
      .string()
      .optional()
      .describe(
        "Which requests count toward the rate when it is not the rule's own expression (e.g. `http.response.code eq 401`, counting failed logins): `ratelimit.counting_expression`, Business plan and up.",
      ),
    requestsToOrigin: z
      .boolean()
      .optional()
      .describe("Count only requests that reach the origin (not those served from cache): `ratelimit.requests_to_origin`."),
    logging: z
      .object({ enabled: z.boolean().describe("Whether matching requests are logged.") })
      .optional()
      .describe("The rule's `logging`."),
    scorePerPeriod: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe(
        "Complexity-based rate limiting (Enterprise with Advanced Rate Limiting): the score allowed per period, summed from the origin's answers, instead of `threshold` (`ratelimit.score_per_period`).",
      ),
    scoreResponseHeaderName: z
      .string()
      .min(1)
      .optional()
      .describe(
        "The origin's response header that carries each request's score (`ratelimit.score_response_header_name`); with scorePerPeriod.",
      ),
  })
  .superRefine((r, ctx) => {
    zoneRule(r, ctx);
    if ((r.threshold === undefined) === (r.scorePerPeriod === undefined))
      ruleFailure(
        ctx,
        r.threshold === undefined ? "threshold" : "scorePerPeriod",
        "give exactly one of threshold (requests per period) and scorePerPeriod (a score per period)",
        ["threshold", "scorePerPeriod"],
      );
    if ((r.scorePerPeriod === undefined) !== (r.scoreResponseHeaderName === undefined))
      ruleFailure(
        ctx,
        "scoreResponseHeaderName",
        "scorePerPeriod and scoreResponseHeaderName go together: the score is read from that header of the origin's answers",
        ["scorePerPeriod"],
      );
    if (r.characteristics && !r.characteristics.includes("cf.colo.id"))
      ruleFailure(ctx, "characteristics", "characteristics must include cf.colo.id (the service counts per data centre): add it");
    const { mode, timeout } = r.action;
    if ((mode === "ban" || mode === "simulate") && timeout === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["action", "timeout"],
        message: `action.mode ${mode} needs action.timeout (10 to 86400 seconds)`,
      });
    }
    if (mode !== "ban" && mode !== "simulate" && timeout !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["action", "timeout"],
        message: `action.timeout applies to ban and simulate only: remove it for ${mode}`,
      });
    }
    const problem = urlPatternProblem(r.match.request.url, r.zoneName?.toLowerCase());
    if (problem) ruleFailure(ctx, "match", problem, ["zoneName"]);
  });
export type RateLimitInputs = z.output<typeof RateLimitInputs>;

export const RateLimitOutputs = z.object({
  zoneId: z.string(),
  zoneName: z.string(),
  threshold: z.number().optional(),
  period: z.number(),
  action: z.object({ mode: z.string(), timeout: z.number().optional() }),
  match: z.object({ request: z.object({ url: z.string(), methods: z.array(z.string()).optional() }) }),
  description: z.string().optional(),
  disabled: z.boolean(),
  ref: z.string().describe("The rule's ref in the ruleset."),
  expression: z.string().describe("The rule's expression, made from `match` (its drift shows here)."),
  ruleId: z.string().describe("The rule's id in the zone's `http_ratelimit` entry point ruleset."),
  rulesetId: z.string().describe("The id of that ruleset."),
  adopt: z.boolean(),
  position: RulePosition.optional().describe("Where the program puts the rule among the phase's rules, when it says."),
  characteristics: z.array(z.string()).optional().describe("What requests are counted by, when the program says."),
  countingExpression: z.string().optional().describe("The counting expression, when the program says."),
  requestsToOrigin: z.boolean().optional().describe("Whether only requests to the origin count, when the program says."),
  logging: z
    .object({ enabled: z.boolean().describe("Whether matching requests are logged.") })
    .optional()
    .describe("The rule's logging, when the program says."),
  scorePerPeriod: z.number().optional().describe("The score allowed per period, when the program counts by score."),
  scoreResponseHeaderName: z.string().optional().describe("The header the score is read from, when the program counts by score."),
});
export type RateLimitOutputs = z.infer<typeof RateLimitOutputs>;

/**
 * The class's doc comment in the TypeScript SDK (scripts/gen-sdk-classes.ts writes it, whitespace folded, above the
 * example below): what the resource is for and how it behaves.
 */
export const classDoc = `
  A rate limiting rule of the zone's \`http_ratelimit\` entry point ruleset (the service's rulesets engine), counted
  per data centre and client address. The zone's plan decides the periods, timeouts and fields it may use; a preview
  refuses what the plan does not allow. A stack of 0.3.0 (a legacy rate limit id in state) moves with one update that
  finds the rule the service converted it into and writes nothing when it is as the program says. On a Free zone (a
  Pro or Business zone may count longer, ban longer, and match the host and the method):`;

/**
 * The example of the reference and of the class's doc comment, in every language (scripts/example-render.ts), run
 * by the tests against the emulators' seeds.
 */
export const example: Example = {
  // What a Free plan allows: a 10-second count and a 10-second ban.
  step: {
    name: "login",
    args: {
      zoneName: "example.com",
      threshold: 10,
      period: 10,
      action: { mode: "ban", timeout: 10 },
      match: { request: { url: "*/login*" } },
    },
  },
};

/** `ops.edge.RateLimit`: at most `threshold` requests per `period` seconds to a URL pattern, then `action`. */
import { z } from "zod";
import { ruleFailure } from "../../check";
import { urlPatternProblem } from "../url-pattern";
import { zoneInputs, zoneRule } from "../zone-ref";

export const token = "edge:RateLimit";

export const MODES = ["simulate", "ban", "challenge", "js_challenge", "managed_challenge"] as const;
const METHODS = ["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "_ALL_"] as const;

export const RateLimitInputs = z
  .object({
    ...zoneInputs,
    threshold: z.number().int("threshold must be a whole number").min(2, "threshold must be at least 2").max(1_000_000).describe("Requests allowed per period before the action applies."),
    period: z.number().int().min(10, "period must be 10 to 86400 seconds").max(86400, "period must be 10 to 86400 seconds").describe("The counting window, in seconds."),
    action: z
      .object({
        mode: z.enum(MODES, { error: `action.mode must be one of ${MODES.join(", ")}` }),
        timeout: z.number().int().min(10, "action.timeout must be 10 to 86400 seconds").max(86400, "action.timeout must be 10 to 86400 seconds").optional().describe("Seconds the action lasts once the threshold is passed (10 to 86400; `simulate` and `ban` need one)."),
      })
      .describe("`mode` (`ban`, `simulate`, or a challenge) and, for ban and simulate, `timeout`: how long in seconds."),
    match: z
      .object({
        request: z
          .object({
          url: z.string().describe("URL pattern with `*` wildcards, e.g. `example.com/login*`."),
          methods: z.array(z.enum(METHODS)).optional().describe("HTTP methods counted; all when absent."),
        })
          .describe("The requests counted: a URL pattern and, optionally, methods."),
      })
      .describe("Which requests are counted."),
    description: z.string().max(1024).regex(/^[^\u0000-\u001f\u007f]*$/, "description must not contain control characters").optional().describe("A note shown with the rule (at most 1024 characters)."),
    disabled: z.boolean().default(false).describe("Keep the rule without enforcing it."),
    adopt: z.boolean().default(false).describe("Take over an existing rule for the same URL pattern instead of adding a second one."),
  })
  .superRefine((r, ctx) => {
    zoneRule(r, ctx);
    const { mode, timeout } = r.action;
    if ((mode === "ban" || mode === "simulate") && timeout === undefined) {
      ctx.addIssue({ code: "custom", path: ["action", "timeout"], message: `action.mode ${mode} needs action.timeout (10 to 86400 seconds)` });
    }
    if (mode !== "ban" && mode !== "simulate" && timeout !== undefined) {
      ctx.addIssue({ code: "custom", path: ["action", "timeout"], message: `action.timeout applies to ban and simulate only: remove it for ${mode}` });
    }
    if (timeout !== undefined && timeout < r.period) {
      ctx.addIssue({ code: "custom", path: ["action", "timeout"], message: `action.timeout (${timeout} s) must be at least the period (${r.period} s)` });
    }
    const problem = urlPatternProblem(r.match.request.url, r.zoneName?.toLowerCase());
    if (problem) ruleFailure(ctx, "match", problem, ["zoneName"]);
  });
export type RateLimitInputs = z.output<typeof RateLimitInputs>;

export const RateLimitOutputs = z.object({
  zoneId: z.string(),
  zoneName: z.string(),
  threshold: z.number(),
  period: z.number(),
  action: z.object({ mode: z.string(), timeout: z.number().optional() }),
  match: z.object({ request: z.object({ url: z.string(), methods: z.array(z.string()).optional() }) }),
  description: z.string().optional(),
  disabled: z.boolean(),
  adopt: z.boolean(),
});
export type RateLimitOutputs = z.infer<typeof RateLimitOutputs>;

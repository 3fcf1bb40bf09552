/** `ops.edge.PageRule`: a URL pattern and the actions applied to requests that match it. */
import { z } from "zod";
import { ruleFailure } from "../../check";
import { urlPatternProblem } from "../url-pattern";
import { zoneInputs, zoneRule } from "../zone-ref";
import type { Example } from "../../doc-example";

export const token = "edge:PageRule";

const onOff = ["on", "off"];
/** The actions the provider knows, with the values each takes (none: a flag without a value). */
export const ACTIONS: Record<string, { values?: readonly string[]; range?: [number, number]; forwarding?: true; flag?: true }> = {
  always_use_https: { flag: true },
  automatic_https_rewrites: { values: onOff },
  browser_cache_ttl: { range: [0, 31_536_000] },
  browser_check: { values: onOff },
  cache_deception_armor: { values: onOff },
  cache_level: { values: ["bypass", "basic", "simplified", "aggressive", "cache_everything"] },
  disable_apps: { flag: true },
  disable_performance: { flag: true },
  disable_security: { flag: true },
  edge_cache_ttl: { range: [1, 2_419_200] },
  email_obfuscation: { values: onOff },
  forwarding_url: { forwarding: true },
  rocket_loader: { values: onOff },
  security_level: { values: ["off", "essentially_off", "low", "medium", "high", "under_attack"] },
  ssl: { values: ["off", "flexible", "full", "strict"] },
};

const Forwarding = z.object({ url: z.url("forwarding_url needs a url"), status_code: z.union([z.literal(301), z.literal(302)]) });
export const PageRuleAction = z.object({
  id: z.string().describe("The action, e.g. `cache_level`, `always_use_https`, `forwarding_url`."),
  // Any object passes here so that actionProblem, which knows the action, can say what forwarding_url takes.
  value: z
    .union([z.string(), z.number(), z.record(z.string(), z.unknown())])
    .optional()
    .describe("The action's value; absent for flags such as `always_use_https`."),
});

function actionProblem(a: z.infer<typeof PageRuleAction>): string | undefined {
  const spec = ACTIONS[a.id];
  if (!spec) return `unknown action "${a.id}": use one of ${Object.keys(ACTIONS).join(", ")}`;
  if (spec.flag) return a.value === undefined ? undefined : `${a.id} takes no value: remove it`;
  if (spec.values)
    return typeof a.value === "string" && spec.values.includes(a.value) ? undefined : `${a.id} must be one of ${spec.values.join(", ")}`;
  if (spec.range) {
    const [lo, hi] = spec.range;
    return Number.isInteger(a.value) && (a.value as number) >= lo && (a.value as number) <= hi
      ? undefined
      : `${a.id} must be a whole number of seconds from ${lo} to ${hi}`;
  }
  return Forwarding.safeParse(a.value).success ? undefined : "forwarding_url takes { url, status_code: 301 | 302 }";
}

export const PageRuleInputs = z
  .object({
    ...zoneInputs,
    targets: z
      .array(z.string())
      .length(1, "targets takes exactly one URL pattern (the service matches one per rule)")
      .describe("The URL pattern the rule matches, with `*` wildcards, e.g. `example.com/static/*`."),
    actions: z
      .array(PageRuleAction)
      .min(1, "a page rule needs at least one action")
      .describe('What to do with matching requests, e.g. `{ id: "cache_level", value: "cache_everything" }`.'),
    priority: z
      .number()
      .int()
      .min(1)
      .max(1000)
      .default(1)
      .describe(
        "Rank among the zone's rules: a higher number wins. The service renumbers ranks to close gaps; the rank you ask for is what is compared, so sparse ranks do not churn.",
      ),
    status: z
      .enum(["active", "disabled"], { error: "status must be active or disabled" })
      .default("active")
      .describe("Whether the rule applies (`disabled` keeps it without applying it)."),
    adopt: z.boolean().default(false).describe("Take over an existing rule with the same URL pattern instead of adding a second one."),
  })
  .superRefine((r, ctx) => {
    zoneRule(r, ctx);
    // With no target, the length check above has already said what to do.
    const problem = r.targets.length ? urlPatternProblem(r.targets[0], r.zoneName?.toLowerCase()) : undefined;
    if (problem) ruleFailure(ctx, "targets", problem, ["zoneName"]);
    r.actions.forEach((a, i) => {
      const p = actionProblem(a);
      if (p) ctx.addIssue({ code: "custom", path: ["actions", i, "value"], message: p });
    });
  });
export type PageRuleInputs = z.output<typeof PageRuleInputs>;

export const PageRuleOutputs = z.object({
  zoneId: z.string(),
  zoneName: z.string(),
  targets: z.array(z.string()),
  actions: z.array(PageRuleAction),
  priority: z.number().describe("The rank asked for."),
  effectivePriority: z.number().describe("The rank the service gave the rule after closing gaps."),
  status: z.string(),
  adopt: z.boolean(),
  createdOn: z.string().optional().describe("When the service made the rule (RFC 3339)."),
  modifiedOn: z.string().optional().describe("When it last changed (RFC 3339)."),
});
export type PageRuleOutputs = z.infer<typeof PageRuleOutputs>;

/**
 * The class's doc comment in the TypeScript SDK (scripts/gen-sdk-classes.ts writes it, whitespace folded, above the
 * example below): what the resource is for and how it behaves.
 */
export const classDoc = `
  A page rule: a URL pattern and the actions for matching requests. \`priority\` is the rank you ask for; the service
  renumbers ranks to close gaps, reported as \`effectivePriority\`, so sparse ranks never churn.`;

/**
 * The example of the reference and of the class's doc comment, in every language (scripts/example-render.ts), run
 * by the tests against the emulators' seeds.
 */
export const example: Example = {
  step: {
    name: "static",
    args: {
      zoneName: "example.com",
      targets: ["example.com/static/*"],
      actions: [{ id: "cache_level", value: "cache_everything" }],
      priority: 1,
    },
  },
};

/**
 * A RateLimit's inputs as a rate limiting rule of the rulesets engine, and what the zone's plan allows of it
 * (developers.cloudflare.com/waf/rate-limiting-rules/: parameters, and availability by plan).
 */
import { canonical, type Bag } from "../../handler";
import type * as wire from "../wire";

/** The legacy modes and the engine's actions. */
const ACTIONS: Record<string, string> = {
  ban: "block",
  simulate: "log",
  challenge: "challenge",
  js_challenge: "js_challenge",
  managed_challenge: "managed_challenge",
};
const MODES = Object.fromEntries(Object.entries(ACTIONS).map(([mode, action]) => [action, mode]));

/**
 * The values a period and a mitigation timeout take (developers.cloudflare.com/waf/rate-limiting-rules/, availability
 * by plan: "supported values"), and what each plan allows of them: counting periods up to 10 s (Free), 1 min (Pro),
 * 10 min (Business), 65,535 s (Enterprise); timeouts 10 s (Free), up to 1 h (Pro), up to 1 day (Business,
 * Enterprise — which may also set other values by API, so its timeouts are not checked here: the service says).
 * A zone whose plan is not one of these is held to the Free plan's.
 */
export const SUPPORTED_SECONDS = [10, 15, 20, 30, 40, 45, 60, 90, 120, 180, 240, 300, 480, 600, 900, 1200, 1800, 2400, 3600, 65535, 86400];
const upTo = (max: number) => SUPPORTED_SECONDS.filter((v) => v <= max);
export const PLANS: Record<
  string,
  { rules: number; periods: number[]; timeouts: number[] | undefined; hosts: boolean; methods: boolean; log: boolean }
> = {
  free: { rules: 1, periods: [10], timeouts: [10], hosts: false, methods: false, log: false },
  pro: { rules: 2, periods: upTo(60), timeouts: upTo(3600), hosts: true, methods: false, log: false },
  business: { rules: 5, periods: upTo(600), timeouts: upTo(86400), hosts: true, methods: true, log: false },
  enterprise: { rules: 100, periods: upTo(65535), timeouts: undefined, hosts: true, methods: true, log: true },
};

/** The values as a sentence: "10, 15, 20 ... 60 seconds". */
const listed = (values: number[]) => `${values.join(", ")} seconds`;

const quote = (s: string) => `"${s.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;

/** The URL pattern's host (lowercase, `*` for any) and path (`/` when absent). */
export function splitPattern(url: string): { host: string; path: string } {
  const m = /^(?:(?:\*|https?):\/\/)?([^/:]+)(?::[^/]*)?(\/.*)?$/i.exec(url);
  return { host: (m?.[1] ?? "*").toLowerCase(), path: m?.[2] ?? "/*" };
}

/** The rule's expression for a URL pattern and methods, in the rules language. */
export function expressionFor(url: string, methods?: string[]): string {
  const { host, path } = splitPattern(url);
  const parts: string[] = [];
  if (host !== "*") parts.push(host.includes("*") ? `http.host wildcard ${quote(host)}` : `http.host eq ${quote(host)}`);
  parts.push(path.includes("*") ? `http.request.uri.path wildcard ${quote(path)}` : `http.request.uri.path eq ${quote(path)}`);
  const counted = (methods ?? []).filter((m) => m !== "_ALL_");
  if (counted.length) parts.push(`http.request.method in {${[...new Set(counted)].sort().map(quote).join(" ")}}`);
  return parts.length === 1 ? parts[0] : parts.map((p) => `(${p})`).join(" and ");
}

/**
 * The URL pattern and methods an expression of `expressionFor`'s forms was made from (a rule made by pulumi-ops, or
 * written the same way); undefined for any other expression, which a URL pattern cannot say.
 */
export function matchFromExpression(expression: string): { url: string; methods?: string[] } | undefined {
  const str = '"((?:[^"\\\\]|\\\\.)*)"';
  const unquote = (q: string) => q.replace(/\\(.)/g, "$1");
  const parts = expression.startsWith("(") ? expression.slice(1, -1).split(") and (") : [expression];
  let host = "*";
  let path: string | undefined;
  let methods: string[] | undefined;
  for (const part of parts) {
    const h = new RegExp(`^http\\.host (?:eq|wildcard) ${str}$`).exec(part);
    const p = new RegExp(`^http\\.request\\.uri\\.path (?:eq|wildcard) ${str}$`).exec(part);
    const m = /^http\.request\.method in \{((?:"[A-Z]+" ?)+)\}$/.exec(part);
    if (h) host = unquote(h[1]);
    else if (p) path = unquote(p[1]);
    else if (m)
      methods = m[1]
        .trim()
        .split(" ")
        .map((x) => x.slice(1, -1));
    else return undefined;
  }
  if (path === undefined) return undefined;
  const match = { url: `${host}${path}`, ...(methods ? { methods } : {}) };
  return expressionFor(match.url, match.methods) === expression ? match : undefined;
}

/** The rule a RateLimit's inputs (or outputs) ask for. */
export function ruleBody(r: Bag): wire.RuleBody {
  const action = ACTIONS[r.action.mode];
  const timed = r.action.mode === "ban" || r.action.mode === "simulate";
  return {
    ...(r.ref ? { ref: r.ref } : {}),
    action,
    expression: expressionFor(r.match.request.url, r.match.request.methods),
    description: r.description ?? "",
    enabled: !(r.disabled ?? false),
    // Counted per data centre and client address unless the program says (the only counting every plan offers).
    ratelimit: {
      characteristics: r.characteristics ?? ["cf.colo.id", "ip.src"],
      period: r.period,
      ...(r.scorePerPeriod !== undefined
        ? { score_per_period: r.scorePerPeriod, score_response_header_name: r.scoreResponseHeaderName }
        : { requests_per_period: r.threshold }),
      mitigation_timeout: timed ? r.action.timeout : 0,
      ...(r.countingExpression !== undefined ? { counting_expression: r.countingExpression } : {}),
      ...(r.requestsToOrigin !== undefined ? { requests_to_origin: r.requestsToOrigin } : {}),
    },
    ...(r.logging ? { logging: r.logging } : {}),
  };
}

/** The inputs' own words for a rule the service has (the URL pattern is kept from the program: it has no inverse). */
export function modeOf(rule: wire.RulesetRule): string {
  return MODES[rule.action] ?? rule.action;
}

/** Whether the service's rule is what `body` asks for (its ref only when the program names one). */
export function sameRule(rule: wire.RulesetRule, body: wire.RuleBody): boolean {
  const a = rule.ratelimit;
  const b = body.ratelimit!;
  return (
    rule.action === body.action &&
    rule.expression === body.expression &&
    (rule.description ?? "") === body.description &&
    (rule.enabled ?? true) === body.enabled &&
    !!a &&
    a.period === b.period &&
    a.requests_per_period === b.requests_per_period &&
    (a.mitigation_timeout ?? 0) === (b.mitigation_timeout ?? 0) &&
    JSON.stringify([...a.characteristics].sort()) === JSON.stringify([...b.characteristics].sort()) &&
    (!body.ref || rule.ref === body.ref) &&
    // Compared only where the program says: what it leaves out is kept as the service has it (mergedRule).
    (b.counting_expression === undefined || (a.counting_expression ?? "") === b.counting_expression) &&
    (b.requests_to_origin === undefined || (a.requests_to_origin ?? false) === b.requests_to_origin) &&
    (b.score_per_period === undefined ||
      ((a as Record<string, unknown>).score_per_period === b.score_per_period &&
        (a as Record<string, unknown>).score_response_header_name === b.score_response_header_name)) &&
    (body.logging === undefined || canonical(rule.logging ?? { enabled: true }) === canonical(body.logging))
  );
}

/**
 * What the zone's plan refuses of these inputs: each problem names the property, the plan and what it allows, so a
 * preview fails as the service would refuse the up.
 */
export function planProblems(r: Bag, planId: string | undefined): { property: string; reason: string }[] {
  const name = planId && PLANS[planId] ? planId : "free";
  const plan = PLANS[name];
  const on = `on the zone's ${name[0].toUpperCase()}${name.slice(1)} plan`;
  const problems: { property: string; reason: string }[] = [];
  if (typeof r.period === "number" && !plan.periods.includes(r.period))
    problems.push({ property: "period", reason: `period ${r.period} is not allowed ${on}: use ${listed(plan.periods)}` });
  const timeout = r.action?.timeout;
  if (typeof timeout === "number" && plan.timeouts && !plan.timeouts.includes(timeout))
    problems.push({ property: "action.timeout", reason: `action.timeout ${timeout} is not allowed ${on}: use ${listed(plan.timeouts)}` });
  if (r.action?.mode === "simulate" && !plan.log)
    problems.push({
      property: "action.mode",
      reason: `action.mode simulate (the engine's log action) is not available ${on}: it needs Enterprise; use ban or a challenge`,
    });
  const url = r.match?.request?.url;
  if (typeof url === "string" && !plan.hosts && splitPattern(url).host !== "*")
    problems.push({
      property: "match.request.url",
      reason: `rate limiting rules ${on} match paths only: write the pattern as "*${splitPattern(url).path}" (any host), or use a Pro plan or higher`,
    });
  const methods = (r.match?.request?.methods ?? []).filter((m: string) => m !== "_ALL_");
  if (methods.length && !plan.methods)
    problems.push({
      property: "match.request.methods",
      reason: `methods cannot be matched ${on}: remove match.request.methods, or use a Business plan or higher`,
    });
  // Below Business, requests are counted by client address only, and by the rule's own expression.
  const counted = (r.characteristics ?? []).filter((c: string) => c !== "cf.colo.id" && c !== "ip.src");
  if (counted.length && !plan.methods)
    problems.push({
      property: "characteristics",
      reason: `requests are counted by client address (ip.src) only ${on}: remove ${counted.join(", ")}, or use a Business plan or higher`,
    });
  if (r.scorePerPeriod !== undefined && name !== "enterprise")
    problems.push({
      property: "scorePerPeriod",
      reason: `complexity-based rate limiting needs an Enterprise plan with Advanced Rate Limiting (${on.replace(/^on /, "")}): use threshold`,
    });
  if (typeof r.countingExpression === "string" && !plan.methods)
    problems.push({
      property: "countingExpression",
      reason: `a counting expression needs a Business plan or higher (${on.replace(/^on /, "")}): remove it`,
    });
  return problems;
}

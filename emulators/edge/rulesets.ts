/**
 * The rulesets engine, where the service keeps firewall (WAF custom) rules and rate limiting rules today: a zone's
 * entry point ruleset per phase, read and replaced whole, and its rules added, patched and deleted one by one
 * (API reference "Rulesets": List/Create zone rulesets, Get/Update a zone entry point ruleset, Create/Update/Delete a
 * zone ruleset rule; each rule endpoint answers the whole ruleset). Rate limiting rules are held to the zone plan's
 * allowed values (developers.cloudflare.com/waf/rate-limiting-rules/, availability by plan).
 */
import { parseJson, type Reply, type Request } from "../kit";
import { fail } from "./dns";
import { paramsProblem, PHASES, RATE_LIMIT_PLANS, type Plan } from "./phases";
import type { EdgeEmulator, Permission } from "./server";

export { RATE_LIMIT_PLANS, RATE_LIMIT_VALUES, type Plan } from "./phases";

interface Rule {
  id: string;
  ref: string;
  version: string;
  action: string;
  expression: string;
  description: string;
  enabled: boolean;
  last_updated: string;
  action_parameters?: unknown;
  ratelimit?: Record<string, unknown>;
  [k: string]: unknown;
}

interface Ruleset {
  id: string;
  name: string;
  description: string;
  kind: "zone";
  phase: string;
  version: string;
  last_updated: string;
  rules: Rule[];
}

type RawRoute = (m: string, p: string, perm: (req: Request) => Permission, h: (req: Request) => Reply) => void;

export interface RulesetStore {
  /** A rule put in a zone's entry point as another tool (or the service's own upgrade) would: for tests. */
  seedRule(zoneId: string, phase: string, rule: Partial<Rule> & { action: string; expression: string }): Rule;
  entrypoint(zoneId: string, phase: string): Ruleset | undefined;
}

export function registerRulesetRoutes(emu: EdgeEmulator, route: RawRoute, plans: Map<string, Plan>): RulesetStore & { reset(): void } {
  const byZone = new Map<string, Map<string, Ruleset>>(); // zone -> phase -> its entry point
  const rulesets = (zoneId: string) => byZone.get(zoneId) ?? byZone.set(zoneId, new Map()).get(zoneId)!;
  const byId = (zoneId: string, id: string) =>
    [...rulesets(zoneId).values()].find((r) => r.id === id) ?? fail(404, 10003, `could not find ruleset ${id}`);
  const phaseOf = (req: Request): string => {
    const phase =
      req.params.phase ?? (req.params.ruleset ? byId(emu.zone(req).id, req.params.ruleset).phase : String(parseJson(req)?.phase ?? ""));
    if (!PHASES[phase]) fail(400, 20217, `'${phase}' is not a phase this zone's rulesets can use here`);
    return phase;
  };
  const permission = (level: "read" | "edit") => (req: Request) =>
    (req.params.zone && emu.zones.has(req.params.zone) ? PHASES[phaseOf(req)]?.[level] : "zone:read") ?? "zone:read";

  const touch = (rs: Ruleset) => {
    rs.version = String(Number(rs.version) + 1);
    rs.last_updated = emu.timestamp();
  };

  const rule = (zoneId: string, phase: string, body: any, old?: Rule): Rule => {
    if (!body || typeof body !== "object") fail(400, 20021, "the rule must be an object");
    const action = body.action ?? old?.action;
    const allowed = PHASES[phase].actions;
    if (!allowed.includes(action))
      fail(400, 20021, `rule action "${action}" is not allowed in phase ${phase}: use one of ${allowed.join(", ")}`);
    const expression = body.expression ?? old?.expression;
    if (typeof expression !== "string" || !expression.trim()) fail(400, 20021, "the rule's expression is required");
    if (expression.length > 4096) fail(400, 20021, "the rule's expression must be at most 4096 characters");
    if (action === "skip" && !body.action_parameters) fail(400, 20021, "a skip rule needs action_parameters (ruleset, phases or products)");
    const problem = paramsProblem(action, body.action_parameters);
    if (problem) fail(400, 20021, problem);
    // A PATCH replaces the rule's definition ("include all the rule fields that you want to be part of the new rule
    // definition", update-rule): what the body leaves out is gone (a description, logging, a block's response, a
    // rate limit's counting expression), and enabled is true again; only the id, and the ref unless a new one is
    // given, stay.
    const made: Rule = {
      id: old?.id ?? emu.nextId(),
      version: old ? String(Number(old.version) + 1) : "1",
      action,
      expression,
      description: body.description ?? "",
      enabled: body.enabled ?? true,
      last_updated: emu.timestamp(),
      ref: "",
      ...(body.action_parameters ? { action_parameters: body.action_parameters } : {}),
      ...(body.ratelimit ? { ratelimit: body.ratelimit } : {}),
      ...(body.logging ? { logging: body.logging } : {}),
    };
    made.ref = body.ref ?? old?.ref ?? made.id; // the service sets a rule's ref to its id when none is given
    if (phase === "http_ratelimit") checkRateLimit(zoneId, made);
    return made;
  };

  const checkRateLimit = (zoneId: string, r: Rule) => {
    const plan = plans.get(zoneId) ?? "free";
    const allowed = RATE_LIMIT_PLANS[plan];
    const rl = r.ratelimit as
      { characteristics?: string[]; period?: number; requests_per_period?: number; mitigation_timeout?: number } | undefined;
    if (!rl) fail(400, 20021, "a rate limiting rule needs a ratelimit object");
    if (!Array.isArray(rl!.characteristics) || !rl!.characteristics.includes("cf.colo.id"))
      fail(400, 20021, "ratelimit.characteristics must include cf.colo.id");
    // Below Business: counted by client address only, and by the rule's own expression (the availability table).
    const below = plan === "free" || plan === "pro";
    if (below && rl!.characteristics.some((c) => c !== "cf.colo.id" && c !== "ip.src"))
      fail(400, 20021, `ratelimit.characteristics may only be cf.colo.id and ip.src on the ${plan} plan`);
    if (below && (rl as { counting_expression?: string }).counting_expression)
      fail(400, 20021, `ratelimit.counting_expression is not allowed on the ${plan} plan`);
    if (!allowed.periods.includes(Number(rl!.period)))
      fail(400, 20021, `ratelimit.period ${rl!.period} is not allowed on the ${plan} plan: use one of ${allowed.periods.join(", ")}`);
    const score = (rl as { score_per_period?: number }).score_per_period;
    if (score !== undefined && plan !== "enterprise")
      fail(400, 20021, `ratelimit.score_per_period is not allowed on the ${plan} plan (Advanced Rate Limiting)`);
    if (score === undefined && (!Number.isInteger(rl!.requests_per_period) || rl!.requests_per_period! < 1))
      fail(400, 20021, "ratelimit.requests_per_period must be a positive whole number");
    const challenge = ["challenge", "js_challenge", "managed_challenge"].includes(r.action);
    const timeout = rl!.mitigation_timeout ?? 0;
    if (challenge && timeout !== 0) fail(400, 20021, `ratelimit.mitigation_timeout must be 0 for the ${r.action} action`);
    const timeoutOk =
      allowed.timeouts === "any up to a day"
        ? Number.isInteger(timeout) && timeout >= 1 && timeout <= 86400
        : allowed.timeouts.includes(timeout);
    if (!challenge && !timeoutOk)
      fail(
        400,
        20021,
        `ratelimit.mitigation_timeout ${timeout} is not allowed on the ${plan} plan: use ${allowed.timeouts === "any up to a day" ? "1 to 86400" : `one of ${allowed.timeouts.join(", ")}`}`,
      );
    if (allowed.fields !== "any") {
      const fields = new Set(r.expression.replace(/"(?:[^"\\]|\\.)*"/g, '""').match(/[a-z_]+(?:\.[a-z0-9_]+)+/g) ?? []);
      const refused = [...fields].filter((f) => !(allowed.fields as string[]).includes(f));
      if (refused.length) fail(400, 20021, `the field ${refused.join(", ")} is not allowed in rate limiting rules on the ${plan} plan`);
    }
  };

  const limitRules = (zoneId: string, phase: string, count: number) => {
    if (phase !== "http_ratelimit") return;
    const plan = plans.get(zoneId) ?? "free";
    if (count > RATE_LIMIT_PLANS[plan].rules)
      fail(400, 20021, `the ${plan} plan allows ${RATE_LIMIT_PLANS[plan].rules} rate limiting rule(s)`);
  };

  const make = (zoneId: string, phase: string, body: any): Ruleset => {
    if (rulesets(zoneId).has(phase))
      fail(400, 20217, `'zone' is not a valid value for kind because exceeded maximum number of zone rulesets for phase ${phase}`);
    const rules = (Array.isArray(body?.rules) ? body.rules : []).map((b: any) => rule(zoneId, phase, b));
    limitRules(zoneId, phase, rules.length);
    const rs: Ruleset = {
      id: emu.nextId(),
      name: body?.name ?? `default`,
      description: body?.description ?? "",
      kind: "zone",
      phase,
      version: "1",
      last_updated: emu.timestamp(),
      rules,
    };
    rulesets(zoneId).set(phase, rs);
    return rs;
  };

  const view = ({ rules: _r, ...rest }: Ruleset) => rest;

  route(
    "GET",
    "/zones/:zone/rulesets",
    () => "zone:read",
    (req) => emu.ok([...rulesets(emu.zone(req).id).values()].map(view)),
  );
  route("POST", "/zones/:zone/rulesets", permission("edit"), (req) => {
    const body = parseJson(req);
    if (body?.kind !== "zone") fail(400, 20021, "a zone's ruleset must be of kind zone");
    return emu.ok(make(emu.zone(req).id, phaseOf(req), body));
  });
  route("GET", "/zones/:zone/rulesets/phases/:phase/entrypoint", permission("read"), (req) => {
    const rs = rulesets(emu.zone(req).id).get(phaseOf(req));
    return rs ? emu.ok(rs) : fail(404, 10003, `could not find entrypoint ruleset in the ${req.params.phase} phase`);
  });
  route("PUT", "/zones/:zone/rulesets/phases/:phase/entrypoint", permission("edit"), (req) => {
    const zoneId = emu.zone(req).id;
    const phase = phaseOf(req);
    const body = parseJson(req);
    const rs = rulesets(zoneId).get(phase);
    if (!rs) return emu.ok(make(zoneId, phase, body));
    // A rule given by id alone keeps its definition (the documented way to keep existing rules in a PUT).
    const rules = (Array.isArray(body?.rules) ? body.rules : []).map((b: any) => {
      const old = b?.id ? rs.rules.find((x) => x.id === b.id) : undefined;
      return old && Object.keys(b).length === 1 ? old : rule(zoneId, phase, b, old);
    });
    limitRules(zoneId, phase, rules.length);
    rs.rules = rules;
    if (body?.description !== undefined) rs.description = body.description;
    touch(rs);
    return emu.ok(rs);
  });
  route("GET", "/zones/:zone/rulesets/:ruleset", permission("read"), (req) => emu.ok(byId(emu.zone(req).id, req.params.ruleset)));
  route("POST", "/zones/:zone/rulesets/:ruleset/rules", permission("edit"), (req) => {
    const zoneId = emu.zone(req).id;
    const rs = byId(zoneId, req.params.ruleset);
    const body = parseJson(req);
    const made = rule(zoneId, rs.phase, body);
    if (rs.rules.some((x) => x.ref === made.ref)) fail(400, 20021, `a rule with ref ${made.ref} already exists in this ruleset`);
    limitRules(zoneId, rs.phase, rs.rules.length + 1);
    const at = position(rs, body?.position);
    rs.rules.splice(at, 0, made);
    touch(rs);
    return emu.ok(rs);
  });
  route("PATCH", "/zones/:zone/rulesets/:ruleset/rules/:rule", permission("edit"), (req) => {
    const zoneId = emu.zone(req).id;
    const rs = byId(zoneId, req.params.ruleset);
    const old = rs.rules.find((x) => x.id === req.params.rule) ?? fail(404, 10003, `could not find rule ${req.params.rule}`);
    const body = parseJson(req);
    const made = rule(zoneId, rs.phase, body, old);
    if (rs.rules.some((x) => x !== old && x.ref === made.ref))
      fail(400, 20021, `a rule with ref ${made.ref} already exists in this ruleset`);
    const at = rs.rules.indexOf(old); // a patched rule keeps its place unless a position moves it
    if (body?.position) {
      rs.rules.splice(at, 1);
      rs.rules.splice(position(rs, body.position), 0, made);
    } else rs.rules[at] = made;
    touch(rs);
    return emu.ok(rs);
  });
  route("DELETE", "/zones/:zone/rulesets/:ruleset/rules/:rule", permission("edit"), (req) => {
    const rs = byId(emu.zone(req).id, req.params.ruleset);
    const old = rs.rules.find((x) => x.id === req.params.rule) ?? fail(404, 10003, `could not find rule ${req.params.rule}`);
    rs.rules.splice(rs.rules.indexOf(old), 1);
    touch(rs);
    return emu.ok(rs);
  });

  /** Where `position` ({index} from 1, {before: id} or {after: id}) puts a rule; the end when absent. */
  function position(rs: Ruleset, p: any): number {
    if (!p) return rs.rules.length;
    if (Number.isInteger(p.index)) return Math.max(0, Math.min(rs.rules.length, p.index - 1));
    const anchor = (id: string) => rs.rules.findIndex((x) => x.id === id);
    if (p.before !== undefined) return p.before ? Math.max(0, anchor(p.before)) : 0;
    if (p.after !== undefined) return p.after ? anchor(p.after) + 1 : rs.rules.length;
    return rs.rules.length;
  }

  return {
    reset: () => byZone.clear(),
    entrypoint: (zoneId, phase) => rulesets(zoneId).get(phase),
    seedRule(zoneId, phase, r) {
      const rs = rulesets(zoneId).get(phase) ?? make(zoneId, phase, { name: "default", rules: [] });
      const made = rule(zoneId, phase, r);
      rs.rules.push(made);
      touch(rs);
      return made;
    },
  };
}

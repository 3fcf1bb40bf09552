/**
 * `ops.edge.RateLimit` on the rulesets engine: one rate limiting rule of the zone's `http_ratelimit` entry point.
 * id: the rule's id (`get` takes `<zoneId>/<ruleId>`); a stack of pulumi-ops 0.3.0 keeps its legacy rate limit id
 * as the resource id, and `ruleId` names the rule the service's upgrade made of it (found by ref, or by the same
 * expression, at the first up or refresh; nothing is written when it is already as the program says).
 */
import { checkWith, isUnknown, withoutProvider } from "../../check";
import { createByKey, type Bag, type Handler } from "../../handler";
import { notice } from "../../log";
import { ValidationError } from "../../http/errors";
import type * as wire from "../wire";
import {
  addPhaseRule,
  convertedRule,
  deleteResourceRule,
  listedPhaseRule,
  movedFrom,
  patchPhaseRule,
  phaseRules,
  previewPlacement,
  RATE_LIMIT_PHASE,
  updateResourceRule,
  type PlacedRule,
} from "../rulesets";
import { placement } from "../rule-position";
import { adopting, edgeClaim, holdEdge, edge, locate, resolveZone, type ZoneRef, zoneKnownAtPreview } from "../zones";
import { programZoneInputs, zoneChanged, zoneOutputs, zoneScopedId } from "../zone-ref";
import { matchFromExpression, modeOf, PLANS, planProblems, ruleBody, sameRule } from "./rule";
import { RateLimitInputs, type RateLimitOutputs } from "./schema";
import { previewNewRule } from "../rule-preview";

function outputs(r: Bag, zone: ZoneRef, { rule, rulesetId }: PlacedRule): RateLimitOutputs {
  const rl = rule.ratelimit;
  const mode = modeOf(rule);
  const timed = mode === "ban" || mode === "simulate";
  const methods = r.match?.request?.methods?.filter((m: string) => m !== "_ALL_");
  return {
    ...zoneOutputs(r, zone),
    ...(r.scorePerPeriod !== undefined
      ? {
          scorePerPeriod: (rl as Record<string, number> | undefined)?.score_per_period ?? r.scorePerPeriod,
          scoreResponseHeaderName: (rl as Record<string, string> | undefined)?.score_response_header_name ?? r.scoreResponseHeaderName,
        }
      : { threshold: rl?.requests_per_period ?? r.threshold }),
    period: rl?.period ?? r.period,
    action: { mode, ...(timed && rl?.mitigation_timeout !== undefined ? { timeout: rl.mitigation_timeout } : {}) },
    match: { request: { url: r.match.request.url, ...(methods?.length ? { methods } : {}) } },
    ...(rule.description ? { description: rule.description } : {}),
    disabled: !(rule.enabled ?? true),
    ref: rule.ref ?? rule.id,
    expression: rule.expression,
    ruleId: rule.id,
    rulesetId,
    adopt: r.adopt ?? false,
    ...(r.position ? { position: r.position } : {}),
    // What the program says of these, as the service has it (drift shows); what it leaves out is not its own.
    ...(r.characteristics ? { characteristics: rl?.characteristics ?? [] } : {}),
    ...(r.countingExpression !== undefined ? { countingExpression: rl?.counting_expression ?? "" } : {}),
    ...(r.requestsToOrigin !== undefined ? { requestsToOrigin: rl?.requests_to_origin ?? false } : {}),
    ...(r.logging ? { logging: (rule.logging as { enabled: boolean } | undefined) ?? { enabled: true } } : {}),
  };
}

/** The rule a resource stands for: by `ruleId` from state, or for 0.3.0 state the converted rule. */
async function placedRule(id: string, props: Bag, zoneId: string): Promise<PlacedRule | undefined> {
  if (props.ruleId) return listedPhaseRule(zoneId, RATE_LIMIT_PHASE, props.ruleId);
  const legacyId = zoneScopedId(id, props)[1];
  const body = ruleBody({ ...props, ref: undefined });
  return convertedRule(zoneId, RATE_LIMIT_PHASE, legacyId, (rule) => rule.expression === body.expression);
}

/** The zone's plan, read once per zone and run: what its rate limiting rules may use. */
const plans = new Map<string, Promise<string | undefined>>();
async function planOf(zone: { zoneId?: string; zoneName?: string }): Promise<string | undefined> {
  const key = zone.zoneId ?? `name:${zone.zoneName?.toLowerCase()}`;
  let plan = plans.get(key);
  if (!plan) {
    plan = (
      zone.zoneId
        ? edge().getZone(zone.zoneId)
        : edge()
            .listZones({ name: zone.zoneName })
            .then((zs) => zs[0])
    ).then((z) => z?.plan?.legacy_id);
    plan.catch(() => plans.delete(key));
    plans.set(key, plan);
  }
  return plan;
}

/**
 * A preview's read (this resource's preview, below): the zone's plan refuses what the service would refuse at up, and a new rule where
 * the zone already has as many as its plan allows (read from its entry point; `adopt` takes one over instead).
 */
async function checkPlan(inputs: Bag, olds: Bag = {}): Promise<void> {
  if ([inputs.zoneId, inputs.zoneName, inputs.period, inputs.action, inputs.match, inputs.adopt].some(isUnknown)) return;
  const plan = await planOf(inputs);
  const problems = planProblems(inputs, plan);
  if (!olds.ruleId && !olds.threshold && !olds.scorePerPeriod && !inputs.adopt && !problems.length) {
    const zone = await resolveZone(inputs);
    const allowed = PLANS[plan ?? ""] ?? PLANS.free;
    const existing = await phaseRules(zone.id, RATE_LIMIT_PHASE);
    if (existing.length >= allowed.rules) {
      problems.push({
        property: "zoneName",
        reason: `the zone's ${plan ?? "free"} plan allows ${allowed.rules} rate limiting rule(s) and ${zone.name} has ${existing.length} (${existing.map((p) => p.rule.ref ?? p.rule.id).join(", ")}): remove one, take it over with adopt: true, or upgrade the plan`,
      });
    }
  }
  if (problems.length) {
    throw new ValidationError({
      service: "edge",
      message: problems.map((p) => `${p.property}: ${p.reason}`).join("; "),
      remedy: "Change the rule to what the zone's plan allows, or upgrade the zone's plan",
    });
  }
}

/** The rule of the phase with this rule's natural key (its `ref`, else its expression): what `adopt` takes over. */
const findRule = async (zone: ZoneRef, body: wire.RuleBody) =>
  (await phaseRules(zone.id, RATE_LIMIT_PHASE)).find((p) => (body.ref ? p.rule.ref === body.ref : p.rule.expression === body.expression));

/** At preview (reads only): what an adopting RateLimit will take over, said as info. */
async function previewAdoption(r: Bag): Promise<void> {
  const zone = await resolveZone(r);
  const body = ruleBody(r);
  const existing = await findRule(zone, body);
  if (!existing) return previewNew(r);
  notice(
    `edge: RateLimit "${body.description ?? body.expression}" will adopt the existing rule (id ${existing.rule.id}) in ${zone.name}: ${sameRule(existing.rule, body) ? "nothing to change" : "changed to the program's"}`,
  );
}

/** At preview (reads only): where a new RateLimit will be added among the phase's rules. */
async function previewNew(r: Bag): Promise<void> {
  const body = ruleBody(r);
  await previewPlacement(
    await resolveZone(r),
    RATE_LIMIT_PHASE,
    `RateLimit "${r.ref ?? r.description ?? body.expression}"`,
    r.position,
    false,
  );
}

export const rateLimit: Handler<RateLimitInputs, RateLimitOutputs> = {
  async preview(ctx) {
    if (!ctx.reads) return;
    await checkPlan(ctx.inputs, ctx.olds); // a period, timeout or match the zone's plan does not allow: refused at up
    await previewNewRule(ctx, { placed: previewNew, adopted: previewAdoption });
  },
  knownAtPreview: zoneKnownAtPreview,
  async check(_olds, news) {
    return checkWith(RateLimitInputs, news);
  },

  async diff(_id, olds, news) {
    holdEdge("rule", [olds.ruleId ?? _id.split("/").pop()]); // in state: never another's to adopt
    const r = withoutProvider(news);
    const replaces = zoneChanged(r, olds as RateLimitOutputs) ? [r.zoneId ? "zoneId" : "zoneName"] : [];
    const unknown = [
      "threshold",
      "period",
      "action",
      "match",
      "description",
      "disabled",
      "ref",
      "position",
      "characteristics",
      "countingExpression",
      "requestsToOrigin",
      "logging",
      "scorePerPeriod",
      "scoreResponseHeaderName",
    ].some((k) => isUnknown(r[k]));
    if (unknown || !olds.ruleId) return { changes: true, replaces }; // 0.3.0 state: one update finds the converted rule
    const a = ruleBody(r);
    const b = { ...ruleBody({ ...olds, ref: r.ref ? olds.ref : undefined }), expression: olds.expression };
    const moved = JSON.stringify(r.position ?? null) !== JSON.stringify(olds.position ?? null);
    return { changes: replaces.length > 0 || moved || JSON.stringify(a) !== JSON.stringify(b), replaces };
  },

  async create(r) {
    const zone = await resolveZone(r);
    const body = ruleBody(r);
    const placed = await createByKey<PlacedRule>({
      what: `rate limiting rule "${body.expression}" in ${zone.name}`,
      adopt: adopting(r),
      find: () => findRule(zone, body),
      create: () => addPhaseRule(zone.id, RATE_LIMIT_PHASE, body, (rules) => placement(rules, r.position, false)),
      update: (existing) =>
        patchPhaseRule(
          zone.id,
          { rulesetId: existing.rulesetId, ruleId: existing.rule.id },
          { ...body, ref: body.ref ?? existing.rule.ref },
          r.position,
        ),
      unchanged: (existing) => sameRule(existing.rule, body) && !r.position,
      claimKey: (x) => edgeClaim("rule", x.rule.id), // never a rule another resource of this run holds
    });
    return { id: placed.rule.id, outs: outputs(r, zone, placed) };
  },

  async read(id, props) {
    const [zoneId] = await locate(id, props, "rate limit", async (z, x) =>
      (await phaseRules(z, RATE_LIMIT_PHASE)).some((p) => p.rule.id === x),
    );
    const ruleId = props.ruleId ?? (id.includes("/") ? id.split("/")[1] : props.zoneId ? undefined : id);
    if (!props.match) {
      // get() or an import, with no state: the URL pattern is read back from the expression where it is of the
      // form pulumi-ops writes; any other expression has no pattern to give (its outputs say `*`, and no inputs).
      const placed = ruleId ? await listedPhaseRule(zoneId, RATE_LIMIT_PHASE, ruleId) : undefined;
      if (!placed) return {};
      const zone = await resolveZone({ zoneId });
      const match = matchFromExpression(placed.rule.expression);
      const outs = outputs({ match: { request: match ?? { url: "*" } } }, zone, placed);
      if (!match) return { id, props: outs };
      const { ruleId: _r, rulesetId: _s, expression: _e, ref, ...shown } = outs;
      return { id, props: outs, inputs: programZoneInputs({ ...shown, ...(ref !== placed.rule.id ? { ref } : {}) }) };
    }
    const placed = await placedRule(id, { ...props, ruleId }, zoneId);
    if (!placed) return {};
    const zone = props.zoneName ? { id: zoneId, name: props.zoneName } : await resolveZone({ zoneId });
    const outs = outputs(props, zone, placed);
    // A rule moved out of the place the program gives it is drift: its place now, which up puts back.
    const moved = await movedFrom(zoneId, RATE_LIMIT_PHASE, placed.rule.id, props.position);
    if (props.ruleId && !moved && sameRule(placed.rule, ruleBody({ ...props, ref: undefined }))) return { id, props: outs };
    if (moved) outs.position = moved;
    const { ruleId: _r, rulesetId: _s, expression: _e, ref, ...shown } = outs;
    return { id, props: outs, inputs: programZoneInputs({ ...shown, ...(ref !== placed.rule.id ? { ref } : {}) }) };
  },

  async update(id, olds, news) {
    const r = withoutProvider(news);
    const zone = { id: olds.zoneId, name: olds.zoneName };
    const placed = await updateResourceRule(zone.id, RATE_LIMIT_PHASE, olds, ruleBody(r), {
      converted: () => placedRule(id, olds, zone.id),
      same: sameRule,
      what: `rate limit ${id}`,
      position: r.position,
    });
    return { outs: outputs(r, zone, placed) };
  },

  async delete(id, props) {
    const zoneId = zoneScopedId(id, props)[0];
    await deleteResourceRule(zoneId, props, () => placedRule(id, props, zoneId));
  },
};

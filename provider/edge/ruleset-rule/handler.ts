/**
 * `ops.edge.RulesetRule` on the rulesets engine: one rule of the zone's entry point ruleset of its phase, added,
 * patched (read, merged, written: rulesets.ts) and deleted one by one, so the phase's other rules are never touched.
 * id: the rule's id (`get` takes `<zoneId>/<phase>/<ruleId>`).
 */
import { checkWith, isUnknown, withoutProvider } from "../../check";
import { canonical, createByKey, type Bag, type Handler } from "../../handler";
import { takeoverNotice } from "../../log";
import {
  addPhaseRule,
  deleteResourceRule,
  listedPhaseRule,
  movedFrom,
  patchPhaseRule,
  phaseRules,
  previewPlacement,
  type PlacedRule,
} from "../rulesets";
import { placement } from "../rule-position";
import type * as wire from "../wire";
import { adopting, edgeClaim, holdEdge, resolveZone, type ZoneRef, zoneKnownAtPreview } from "../zones";
import { programZoneInputs, zoneChanged, zoneOutputs } from "../zone-ref";
import { RulesetRuleInputs, type RulesetRuleOutputs } from "./schema";
import { previewNewRule } from "../rule-preview";

const SKIP_LIKE = new Set(["skip"]);
const FIELDS = ["expression", "action", "actionParameters", "ratelimit", "description", "enabled", "ref", "position", "logging"];

/** What the service is asked to keep. */
function wanted(r: Bag): wire.RuleBody {
  return {
    ...(r.ref ? { ref: r.ref } : {}),
    action: r.action,
    expression: r.expression,
    description: r.description ?? "",
    enabled: r.enabled ?? true,
    ...(r.actionParameters ? { action_parameters: r.actionParameters } : {}),
    ...(r.ratelimit ? { ratelimit: r.ratelimit as wire.RuleRatelimit } : {}),
    ...(r.logging ? { logging: r.logging } : {}),
  };
}

/** Compared with object keys sorted: the service may answer a rule's objects in another key order. */
const json = canonical;

/**
 * Whether the service's rule is what `body` asks for: parameters, rate limit and logging compared where the program
 * says (what it leaves out is the service's, kept by mergedRule, never drift).
 */
function same(rule: wire.RulesetRule, body: wire.RuleBody): boolean {
  const params = (rule.action_parameters ?? {}) as Record<string, unknown>;
  const rl = (rule.ratelimit ?? {}) as Record<string, unknown>;
  return (
    rule.action === body.action &&
    rule.expression === body.expression &&
    (rule.description ?? "") === body.description &&
    (rule.enabled ?? true) === body.enabled &&
    Object.entries(body.action_parameters ?? {}).every(([k, v]) => json(params[k]) === json(v)) &&
    Object.entries(body.ratelimit ?? {}).every(([k, v]) => json(rl[k]) === json(v)) &&
    (body.logging === undefined || json(rule.logging ?? { enabled: true }) === json(body.logging)) &&
    (!body.ref || rule.ref === body.ref)
  );
}

/** The declared part of `x` as the service has it: the keys the program gives, each as the service keeps it. */
const declaredOf = (x: unknown, given: Record<string, unknown> | undefined) =>
  given && Object.fromEntries(Object.keys(given).map((k) => [k, ((x ?? {}) as Record<string, unknown>)[k]]));

function outputs(r: Bag, zone: ZoneRef, { rule, rulesetId }: PlacedRule): RulesetRuleOutputs {
  return {
    ...zoneOutputs(r, zone),
    phase: r.phase,
    expression: rule.expression,
    action: rule.action,
    ...(r.actionParameters ? { actionParameters: declaredOf(rule.action_parameters, r.actionParameters) } : {}),
    ...(r.ratelimit ? { ratelimit: declaredOf(rule.ratelimit, r.ratelimit) } : {}),
    ...(rule.description ? { description: rule.description } : {}),
    enabled: rule.enabled ?? true,
    ref: rule.ref ?? rule.id,
    ruleId: rule.id,
    rulesetId,
    ...(r.position ? { position: r.position } : {}),
    ...(r.logging ? { logging: (rule.logging as { enabled: boolean } | undefined) ?? { enabled: true } } : {}),
    adopt: r.adopt ?? false,
  };
}

/** The rule of the phase with this rule's natural key (its `ref`, else its expression and action): what `adopt` takes over. */
const findRule = async (zone: ZoneRef, phase: string, body: wire.RuleBody) =>
  (await phaseRules(zone.id, phase)).find((p) =>
    body.ref ? p.rule.ref === body.ref : p.rule.expression === body.expression && p.rule.action === body.action,
  );

/** At preview (reads only): where a new rule goes, or what an adopting one takes over, said as info. */
async function previewRule(r: Bag): Promise<void> {
  const zone = await resolveZone(r);
  const body = wanted(r);
  const existing = r.adopt ? await findRule(zone, r.phase, body) : undefined;
  if (existing)
    takeoverNotice(
      `edge: RulesetRule "${r.ref ?? r.description ?? body.expression}" will adopt the existing ${r.phase} rule (id ${existing.rule.id}) in ${zone.name}: ${same(existing.rule, body) ? "nothing to change" : "changed to the program's"}`,
      1,
      same(existing.rule, body) ? 0 : 1,
    );
  else
    await previewPlacement(
      zone,
      r.phase,
      `RulesetRule "${r.ref ?? r.description ?? body.expression}" (${r.action})`,
      r.position,
      SKIP_LIKE.has(r.action),
    );
}

/** `[zoneId, phase, ruleId]` from a resource id: the rule id with zone and phase from state, or `<zoneId>/<phase>/<ruleId>`. */
function located(id: string, props: Bag): [string, string, string] {
  const parts = id.split("/");
  return parts.length === 3 ? (parts as [string, string, string]) : [props.zoneId, props.phase, id];
}

export const rulesetRule: Handler<RulesetRuleInputs, RulesetRuleOutputs> = {
  preview: (ctx) => previewNewRule(ctx, { placed: previewRule, adopted: previewRule }),
  knownAtPreview: zoneKnownAtPreview,
  async check(_olds, news) {
    return checkWith(RulesetRuleInputs, news);
  },

  async diff(id, olds, news) {
    holdEdge("rule", [olds.ruleId ?? id.split("/").pop()]); // in state: never another's to adopt
    const r = withoutProvider(news);
    const replaces = zoneChanged(r, olds as RulesetRuleOutputs) ? [r.zoneId ? "zoneId" : "zoneName"] : [];
    if (!isUnknown(r.phase) && r.phase !== olds.phase) replaces.push("phase");
    const changed =
      FIELDS.some((k) => isUnknown(r[k])) ||
      json(wanted(r)) !== json(wanted({ ...olds, ref: r.ref ? olds.ref : undefined })) ||
      json(r.position) !== json(olds.position);
    return { changes: replaces.length > 0 || changed, replaces };
  },

  async create(r) {
    const zone = await resolveZone(r);
    const body = wanted(r);
    const placed = await createByKey<PlacedRule>({
      what: `${r.phase} rule "${body.expression}" (${body.action}) in ${zone.name}`,
      adopt: adopting(r),
      find: () => findRule(zone, r.phase, body),
      create: () => addPhaseRule(zone.id, r.phase, body, (rules) => placement(rules, r.position, SKIP_LIKE.has(r.action))),
      update: (existing) =>
        patchPhaseRule(
          zone.id,
          { rulesetId: existing.rulesetId, ruleId: existing.rule.id },
          { ...body, ref: body.ref ?? existing.rule.ref },
          r.position,
        ),
      unchanged: (existing) => same(existing.rule, body) && !r.position,
      claimKey: (x) => edgeClaim("rule", x.rule.id), // never a rule another resource of this run holds
    });
    return { id: placed.rule.id, outs: outputs(r, zone, placed) };
  },

  async read(id, props) {
    const [zoneId, phase, ruleId] = located(id, props);
    const placed = await listedPhaseRule(zoneId, phase, ruleId);
    if (!placed) return {};
    const zone = props.zoneName ? { id: zoneId, name: props.zoneName } : await resolveZone({ zoneId });
    const lookup = props.expression === undefined; // get(): no state, the rule as it is
    const outs = outputs(
      lookup ? { phase, actionParameters: placed.rule.action_parameters, ratelimit: placed.rule.ratelimit } : props,
      zone,
      placed,
    );
    // A rule moved out of the place the program gives it is drift: its place now, which up puts back.
    const moved = await movedFrom(zoneId, phase, placed.rule.id, props.position);
    if (!lookup && !moved && same(placed.rule, wanted({ ...props, ref: undefined }))) return { id, props: outs };
    if (moved) outs.position = moved;
    const { ruleId: _r, rulesetId: _s, ref, ...shown } = outs;
    return { id, props: outs, inputs: programZoneInputs({ ...shown, ...(ref !== placed.rule.id ? { ref } : {}) }) };
  },

  async update(_id, olds, news) {
    const r = withoutProvider(news);
    const zone = { id: olds.zoneId, name: olds.zoneName };
    const body = wanted(r);
    // Parameters the program gave before and gives no more go (the others the service holds are kept).
    const dropped = Object.keys(olds.actionParameters ?? {}).filter((k) => !(k in (r.actionParameters ?? {})));
    const placed = await patchPhaseRule(
      zone.id,
      { rulesetId: olds.rulesetId, ruleId: olds.ruleId },
      { ...body, ref: body.ref ?? olds.ref },
      r.position,
      dropped,
    );
    return { outs: outputs(r, zone, placed) };
  },

  async delete(id, props) {
    const [zoneId] = located(id, props);
    await deleteResourceRule(zoneId, props, async () => undefined);
  },
};

/**
 * `ops.edge.FirewallRule` on the rulesets engine: one rule of the zone's `http_request_firewall_custom` entry point.
 * id: the rule's id (`get` takes `<zoneId>/<ruleId>`); a stack of pulumi-ops 0.3.0 keeps its legacy firewall rule
 * id as the resource id, and `ruleId` names the rule the service's upgrade made of it (found by ref, or by the same
 * expression and action, at the first up or refresh; nothing is written when it is already as the program says).
 */
import { checkWith, isUnknown, withoutProvider } from "../../check";
import { canonical, createByKey, type Bag, type Handler } from "../../handler";
import { takeoverNotice } from "../../log";
import {
  addPhaseRule,
  convertedRule,
  deleteResourceRule,
  FIREWALL_PHASE,
  listedPhaseRule,
  movedFrom,
  patchPhaseRule,
  phaseRules,
  previewPlacement,
  updateResourceRule,
  type PlacedRule,
} from "../rulesets";
import { placement } from "../rule-position";
import type * as wire from "../wire";
import { adopting, edgeClaim, holdEdge, locate, resolveZone, type ZoneRef, zoneKnownAtPreview } from "../zones";
import { programZoneInputs, zoneChanged, zoneOutputs, zoneScopedId } from "../zone-ref";
import { FirewallRuleInputs, type FirewallRuleOutputs } from "./schema";
import { previewNewRule } from "../rule-preview";

const SKIP_LIKE = new Set(["skip", "allow", "bypass"]);
const DEFAULT_SKIP = JSON.stringify({ ruleset: "current" });
const isDefaultSkip = (rule: wire.RulesetRule) => rule.action === "skip" && JSON.stringify(rule.action_parameters) === DEFAULT_SKIP;

/** What the service is asked to keep, from inputs or outputs alike: legacy forms mapped to the engine's. */
function wanted(r: Bag): wire.RuleBody {
  const action = SKIP_LIKE.has(r.action) ? "skip" : r.action;
  const response = r.response && { status_code: r.response.statusCode, content_type: r.response.contentType, content: r.response.content };
  const given = r.actionParameters ?? (action === "skip" ? { ruleset: "current" } : undefined);
  const params = response ? { ...given, response } : given;
  return {
    ...(r.ref ? { ref: r.ref } : {}),
    action,
    expression: r.expression ?? r.filter?.expression,
    description: r.description ?? "",
    enabled: r.enabled ?? !(r.paused ?? false),
    ...(params ? { action_parameters: params } : {}),
    ...(r.logging ? { logging: r.logging } : {}),
  };
}

/**
 * Whether the service's rule is what `body` asks for (its ref only when the program names one). Action parameters
 * and logging are compared where the program says: what it leaves out (a response set in the dashboard) is kept as
 * the service has it (rulesets.ts, mergedRule), never drift.
 */
function same(rule: wire.RulesetRule, body: wire.RuleBody): boolean {
  const params = (rule.action_parameters ?? {}) as Record<string, unknown>;
  return (
    rule.action === body.action &&
    rule.expression === body.expression &&
    (rule.description ?? "") === body.description &&
    (rule.enabled ?? true) === body.enabled &&
    Object.entries(body.action_parameters ?? {}).every(([k, v]) => canonical(params[k]) === canonical(v)) &&
    (body.logging === undefined || canonical(rule.logging ?? { enabled: true }) === canonical(body.logging)) &&
    (!body.ref || rule.ref === body.ref)
  );
}

function outputs(r: Bag, zone: ZoneRef, { rule, rulesetId }: PlacedRule): FirewallRuleOutputs {
  const enabled = rule.enabled ?? true;
  // The program's own action name is kept where the service holds its meaning (allow/bypass as skip).
  const action = SKIP_LIKE.has(r.action) && rule.action === "skip" ? r.action : rule.action;
  return {
    ...zoneOutputs(r, zone),
    expression: rule.expression,
    ...(r.filter ? { filter: { expression: rule.expression } } : {}),
    action,
    // The parameters the program gave, or any the service holds besides the default of skip.
    ...(rule.action_parameters && (r.actionParameters || !isDefaultSkip(rule)) ? { actionParameters: rule.action_parameters } : {}),
    ...(rule.description ? { description: rule.description } : {}),
    paused: !enabled,
    enabled,
    ref: rule.ref ?? rule.id,
    ruleId: rule.id,
    rulesetId,
    adopt: r.adopt ?? false,
    ...(r.position ? { position: r.position } : {}),
    // What the program says of these, as the service has it (drift shows); what it leaves out is not its own.
    ...(r.response ? { response: responseOf(rule) } : {}),
    ...(r.logging ? { logging: (rule.logging as { enabled: boolean } | undefined) ?? { enabled: true } } : {}),
  };
}

/** A block rule's custom response in the program's words (empty when the service has none). */
function responseOf(rule: wire.RulesetRule): { statusCode: number; contentType: string; content: string } {
  const x = ((rule.action_parameters ?? {}) as { response?: { status_code?: number; content_type?: string; content?: string } }).response;
  return { statusCode: x?.status_code ?? 0, contentType: x?.content_type ?? "", content: x?.content ?? "" };
}

/**
 * Action parameters the program gave before and gives no more, which an update removes: a skip's scope (`ruleset`,
 * `phases`, `products`: always the program's, the default included) and a response it no longer declares.
 */
function droppedParams(r: Bag, olds: Bag): string[] {
  return [...(SKIP_LIKE.has(r.action) ? ["ruleset", "phases", "products"] : []), ...(olds.response && !r.response ? ["response"] : [])];
}

/** The rule a resource stands for: by `ruleId` from state, or for 0.3.0 state the converted rule. */
async function placedRule(id: string, props: Bag, zoneId: string): Promise<PlacedRule | undefined> {
  if (props.ruleId) return listedPhaseRule(zoneId, FIREWALL_PHASE, props.ruleId);
  const legacyId = zoneScopedId(id, props)[1];
  return convertedRule(zoneId, FIREWALL_PHASE, legacyId, (rule) => same(rule, { ...wanted(props), ref: undefined }));
}

/** The rule of the phase with this rule's natural key (its `ref`, else its expression and action): what `adopt` takes over. */
const findRule = async (zone: ZoneRef, body: wire.RuleBody) =>
  (await phaseRules(zone.id, FIREWALL_PHASE)).find((p) =>
    body.ref ? p.rule.ref === body.ref : p.rule.expression === body.expression && p.rule.action === body.action,
  );

/** At preview (reads only): what an adopting FirewallRule will take over, said as info. */
async function previewAdoption(r: Bag): Promise<void> {
  const zone = await resolveZone(r);
  const body = wanted(r);
  const existing = await findRule(zone, body);
  if (!existing) return previewNew(r);
  takeoverNotice(
    `edge: FirewallRule "${body.description ?? body.expression}" will adopt the existing rule (id ${existing.rule.id}) in ${zone.name}: ${same(existing.rule, body) ? "nothing to change" : "changed to the program's"}`,
    1,
    same(existing.rule, body) ? 0 : 1,
  );
}

/** At preview (reads only): where a new FirewallRule will be added among the phase's rules. */
async function previewNew(r: Bag): Promise<void> {
  const body = wanted(r);
  await previewPlacement(
    await resolveZone(r),
    FIREWALL_PHASE,
    `FirewallRule "${r.ref ?? r.description ?? body.expression}" (${r.action})`,
    r.position,
    SKIP_LIKE.has(r.action),
  );
}

export const firewallRule: Handler<FirewallRuleInputs, FirewallRuleOutputs> = {
  preview: (ctx) => previewNewRule(ctx, { placed: previewNew, adopted: previewAdoption }),
  knownAtPreview: zoneKnownAtPreview,
  async check(_olds, news) {
    return checkWith(FirewallRuleInputs, news);
  },

  async diff(_id, olds, news) {
    holdEdge("rule", [olds.ruleId ?? _id.split("/").pop()]); // in state: never another's to adopt
    const r = withoutProvider(news);
    const replaces = zoneChanged(r, olds as FirewallRuleOutputs) ? [r.zoneId ? "zoneId" : "zoneName"] : [];
    const unknown = [
      "expression",
      "filter",
      "action",
      "actionParameters",
      "description",
      "paused",
      "enabled",
      "ref",
      "position",
      "response",
      "logging",
    ].some((k) => isUnknown(r[k]));
    const a = wanted(r);
    const b = wanted({
      ...olds,
      ref: r.ref ? olds.ref : undefined,
      actionParameters: r.actionParameters === undefined ? undefined : olds.actionParameters,
    });
    const moved = JSON.stringify(r.position ?? null) !== JSON.stringify(olds.position ?? null);
    // State of 0.3.0 has no ruleId: one update finds the rule the service converted (and writes only if it differs).
    const changed = unknown || !olds.ruleId || moved || canonical(a) !== canonical(b);
    return { changes: replaces.length > 0 || changed, replaces };
  },

  async create(r) {
    const zone = await resolveZone(r);
    const body = wanted(r);
    const placed = await createByKey<PlacedRule>({
      what: `firewall rule "${body.expression}" (${body.action}) in ${zone.name}`,
      adopt: adopting(r),
      find: () => findRule(zone, body),
      create: () => addPhaseRule(zone.id, FIREWALL_PHASE, body, (rules) => placement(rules, r.position, SKIP_LIKE.has(r.action))),
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
    const [zoneId] = await locate(id, props, "firewall rule", async (z, x) =>
      (await phaseRules(z, FIREWALL_PHASE)).some((p) => p.rule.id === x),
    );
    const placed = await placedRule(
      id,
      { ...props, ruleId: props.ruleId ?? (id.includes("/") ? id.split("/")[1] : props.zoneId ? undefined : id) },
      zoneId,
    );
    if (!placed) return {};
    const zone = props.zoneName ? { id: zoneId, name: props.zoneName } : await resolveZone({ zoneId });
    const outs = outputs(props, zone, placed);
    // A rule moved out of the place the program gives it is drift: its place now, which up puts back.
    const moved = await movedFrom(zoneId, FIREWALL_PHASE, placed.rule.id, props.position);
    if (props.ruleId && !moved && same(placed.rule, wanted({ ...props, ref: undefined }))) return { id, props: outs };
    if (moved) outs.position = moved;
    const { ruleId: _r, rulesetId: _s, enabled: _e, ref, ...shown } = outs;
    if (shown.filter) delete (shown as Partial<typeof shown>).expression; // the program's form only
    return { id, props: outs, inputs: programZoneInputs({ ...shown, ...(ref !== placed.rule.id ? { ref } : {}) }) };
  },

  async update(id, olds, news) {
    const r = withoutProvider(news);
    const zone = { id: olds.zoneId, name: olds.zoneName };
    const placed = await updateResourceRule(zone.id, FIREWALL_PHASE, olds, wanted(r), {
      converted: () => placedRule(id, olds, zone.id),
      same,
      what: `firewall rule ${id}`,
      position: r.position,
      dropped: droppedParams(r, olds),
    });
    return { outs: outputs(r, zone, placed) };
  },

  async delete(id, props) {
    const zoneId = zoneScopedId(id, props)[0];
    await deleteResourceRule(zoneId, props, () => placedRule(id, props, zoneId));
  },
};

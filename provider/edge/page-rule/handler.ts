/** `ops.edge.PageRule`. id: the rule id (`PageRule.get` takes `<zoneId>/<ruleId>`). Natural key: the URL pattern. */
import { checkWith, isUnknown, withoutProvider } from "../../check";
import { listedRule } from "../rule-listing";
import { changedKeys, createByKey, deleteUnlessGone, sameField as same, unlessGone, type Bag, type Handler } from "../../handler";
import type * as wire from "../wire";
import { notice, takeoverNotice, warn } from "../../log";
import { DEPRECATED_KIND, DEPRECATION_WARNING, successorsLine } from "./successors";
import { adoptedInRun } from "../../claims";
import { adopting, edgeClaim, edgeScope, holdEdge, edge, locate, resolveZone, type ZoneRef, zoneKnownAtPreview } from "../zones";
import { programZoneInputs, zoneChanged, zoneOutputs, zoneScopedId } from "../zone-ref";
import { PageRuleInputs, type PageRuleOutputs } from "./schema";
import { previewNewRule } from "../rule-preview";

const FIELDS = ["targets", "actions", "priority", "status"];

function body(r: Bag): wire.PageRuleBody {
  return {
    targets: r.targets.map((value: string) => ({ target: "url" as const, constraint: { operator: "matches", value } })),
    actions: r.actions.map((a: Bag) => (a.value === undefined ? { id: a.id } : { id: a.id, value: a.value })),
    priority: r.priority,
    status: r.status,
  };
}

/** Outputs from the rule as stored; `priority` stays the rank asked for (the service renumbers to close gaps). */
function outputs(wanted: Bag, zone: ZoneRef, rule: wire.PageRule): PageRuleOutputs {
  return {
    ...zoneOutputs(wanted, zone),
    targets: rule.targets.map((t) => t.constraint.value),
    actions: rule.actions.map((a) => (a.value === undefined || a.value === null ? { id: a.id } : { id: a.id, value: a.value as string })),
    priority: wanted.priority ?? rule.priority,
    effectivePriority: rule.priority,
    status: rule.status,
    adopt: wanted.adopt ?? false,
    createdOn: rule.created_on,
    modifiedOn: rule.modified_on,
  };
}

/** The page rule with this rule's URL pattern, its natural key: what `adopt` takes over. */
const findRule = async (zone: ZoneRef, r: Bag) =>
  (await edge().listPageRules(zone.id)).find((x) => x.targets[0]?.constraint.value === r.targets[0]);
const unchanged = (r: Bag, zone: ZoneRef, existing: wire.PageRule) => !changedKeys(FIELDS, outputs(r, zone, existing), r, same).length;

/** At preview (reads only): what an adopting page rule will take over, said as info. */
async function previewAdoption(r: Bag): Promise<void> {
  const zone = await resolveZone(r);
  const existing = await findRule(zone, r);
  if (existing)
    takeoverNotice(
      `edge: PageRule for ${r.targets[0]} will adopt the existing page rule (id ${existing.id}) in ${zone.name}: ${unchanged(r, zone, existing) ? "nothing to change" : "changed to the program's actions, priority and status"}`,
      1,
      unchanged(r, zone, existing) ? 0 : 1,
    );
}

export const pageRule: Handler<PageRuleInputs, PageRuleOutputs> = {
  preview: (ctx) => previewNewRule(ctx, { adopted: previewAdoption }),
  knownAtPreview: zoneKnownAtPreview,
  async check(_olds, news) {
    const result = checkWith(PageRuleInputs, news);
    // The product is deprecated: every preview says so once, and each rule what does the same for its actions.
    const { targets, actions } = result.inputs as { targets?: unknown; actions?: unknown };
    if (
      !result.failures.length &&
      Array.isArray(targets) &&
      Array.isArray(actions) &&
      !isUnknown(targets[0]) &&
      actions.every((a) => a && !isUnknown(a) && !isUnknown(a.id))
    ) {
      warn(DEPRECATION_WARNING, DEPRECATED_KIND);
      notice(successorsLine(String(targets[0]), actions as { id: string }[]));
    }
    return result;
  },

  async diff(_id, olds, news) {
    holdEdge("pagerule", [olds.ruleId ?? _id.split("/").pop()]); // in state: never another's to adopt
    const wanted = withoutProvider(news);
    const replaces = zoneChanged(wanted, olds as PageRuleOutputs) ? [wanted.zoneId ? "zoneId" : "zoneName"] : [];
    const changed = changedKeys(FIELDS, olds, wanted, same);
    return { changes: replaces.length + changed.length > 0, replaces };
  },

  async create(r) {
    const zone = await resolveZone(r);
    const rule = await createByKey({
      what: `page rule for ${r.targets[0]} in ${zone.name}`,
      adopt: adopting(r),
      find: () => findRule(zone, r),
      create: () => edge().createPageRule(zone.id, body(r)),
      update: (existing) => edge().updatePageRule(zone.id, existing.id, body(r)),
      unchanged: (existing) => unchanged(r, zone, existing),
      claimKey: (x) => edgeClaim("pagerule", x.id), // never a rule another resource of this run holds
    });
    return { id: rule.id, outs: outputs(r, zone, rule) };
  },

  async read(id, props) {
    const [zoneId, ruleId] = await locate(id, props, "page rule", (z, x) => unlessGone(() => edge().getPageRule(z, x)));
    const rule = await listedRule(edgeScope(), "pagerules", zoneId, ruleId, () => edge().listPageRules(zoneId));
    if (!rule) return {};
    const zone = props.zoneName ? { id: zoneId, name: props.zoneName } : await resolveZone({ zoneId });
    const outs = outputs(props, zone, rule);
    if (!changedKeys(FIELDS, props, outs, same).length) return { id, props: outs };
    const { effectivePriority: _e, createdOn: _c, modifiedOn: _m, ...all } = outs;
    const inputs = programZoneInputs(all);
    return { id, props: outs, inputs };
  },

  async update(id, olds, news) {
    const r = withoutProvider(news);
    const zone = { id: olds.zoneId, name: olds.zoneName };
    return { outs: outputs(r, zone, await edge().updatePageRule(zone.id, id, body(r))) };
  },

  async delete(id, props) {
    const [zoneId, ruleId] = zoneScopedId(id, props);
    // Taken over by another resource's create in this run (a resource renamed without an alias): left to it.
    if (adoptedInRun(edgeClaim("pagerule", ruleId))) {
      notice(`edge: the page rule ${ruleId} was taken over by another resource of this run: not deleted`);
      return;
    }
    await deleteUnlessGone(() => edge().deletePageRule(zoneId, ruleId));
  },
};

/** `ops.edge.FirewallRule`. id: the rule id (`get` takes `<zoneId>/<ruleId>`). Natural key: the expression. */
import { checkWith, withoutProvider } from "../../check";
import { listedRule } from "../rule-listing";
import { changedKeys, createByKey, deleteUnlessGone, unlessGone, type Bag, type Handler } from "../../handler";
import type * as wire from "../wire";
import { adopting, edge, locate, resolveZone, type ZoneRef } from "../zones";
import { programZoneInputs, zoneChanged, zoneOutputs, zoneScopedId } from "../zone-ref";
import { FirewallRuleInputs, type FirewallRuleOutputs } from "./schema";

const FIELDS = ["filter", "action", "description", "paused"];
const same = (k: string, a: any, b: any) => (k === "description" ? (a ?? "") === (b ?? "") : JSON.stringify(a) === JSON.stringify(b));

const body = (r: Bag): wire.FirewallRuleBody => ({
  filter: { expression: r.filter.expression },
  action: r.action,
  description: r.description ?? "",
  paused: r.paused,
});

function outputs(wanted: Bag, zone: ZoneRef, rule: wire.FirewallRule): FirewallRuleOutputs {
  return {
    ...zoneOutputs(wanted, zone),
    filter: { expression: rule.filter.expression },
    ...(rule.filter.id ? { filterId: rule.filter.id } : {}),
    action: rule.action,
    ...(rule.description ? { description: rule.description } : {}),
    paused: rule.paused ?? false,
    adopt: wanted.adopt ?? false,
  };
}


export const firewallRule: Handler = {
  async check(_olds, news) {
    return checkWith(FirewallRuleInputs, news);
  },

  async diff(_id, olds, news) {
    const wanted = withoutProvider(news);
    const replaces = zoneChanged(wanted, olds as FirewallRuleOutputs) ? [wanted.zoneId ? "zoneId" : "zoneName"] : [];
    const changed = changedKeys(FIELDS, olds, wanted, same);
    return { changes: replaces.length + changed.length > 0, replaces };
  },

  async create(r) {
    const zone = await resolveZone(r);
    const rule = await createByKey({
      what: `firewall rule "${r.filter.expression}" in ${zone.name}`,
      adopt: adopting(r),
      find: async () => (await edge().listFirewallRules(zone.id)).find((x) => x.filter.expression === r.filter.expression),
      create: () => edge().createFirewallRule(zone.id, body(r)),
      update: (existing) => edge().updateFirewallRule(zone.id, existing.id, body(r)),
      unchanged: (existing) => !changedKeys(FIELDS, outputs(r, zone, existing), r, same).length,
    });
    return { id: rule.id, outs: outputs(r, zone, rule) };
  },

  async read(id, props) {
    const [zoneId, ruleId] = await locate(id, props, "firewall rule", (z, x) => unlessGone(() => edge().getFirewallRule(z, x)));
    const rule = await listedRule("firewall", zoneId, ruleId, () => edge().listFirewallRules(zoneId));
    if (!rule) return {};
    const zone = props.zoneName ? { id: zoneId, name: props.zoneName } : await resolveZone({ zoneId });
    const outs = outputs(props, zone, rule);
    if (!changedKeys(FIELDS, props, outs, same).length) return { id, props: outs };
    const { filterId: _f, ...all } = outs;
    const inputs = programZoneInputs(all);
    return { id, props: outs, inputs };
  },

  async update(id, olds, news) {
    const r = withoutProvider(news);
    const zone = { id: olds.zoneId, name: olds.zoneName };
    return { outs: outputs(r, zone, await edge().updateFirewallRule(zone.id, id, body(r))) };
  },

  async delete(id, props) {
    const [zoneId, ruleId] = zoneScopedId(id, props);
    await deleteUnlessGone(() => edge().deleteFirewallRule(zoneId, ruleId));
  },
};

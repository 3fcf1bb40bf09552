/**
 * `ops.edge.RateLimit`. Updated with PUT (the API has no PATCH). id: the rule id (`get` takes `<zoneId>/<ruleId>`).
 * Natural key: the URL pattern.
 */
import { checkWith, withoutProvider } from "../../check";
import { listedRule } from "../rule-listing";
import { changedKeys, createByKey, deleteUnlessGone, unlessGone, type Bag, type Handler } from "../../handler";
import type * as wire from "../wire";
import { adopting, edge, locate, resolveZone, type ZoneRef } from "../zones";
import { programZoneInputs, zoneChanged, zoneOutputs, zoneScopedId } from "../zone-ref";
import { RateLimitInputs, type RateLimitOutputs } from "./schema";

const FIELDS = ["threshold", "period", "action", "match", "description", "disabled"];

/** Methods default to all on the service; an absent list and `["_ALL_"]` mean the same. */
function comparable(k: string, v: any): unknown {
  if (k === "description") return v ?? "";
  if (k === "match") return { url: v?.request?.url, methods: v?.request?.methods?.filter((m: string) => m !== "_ALL_").sort() ?? [] };
  return v;
}
const same = (k: string, a: unknown, b: unknown) => JSON.stringify(comparable(k, a)) === JSON.stringify(comparable(k, b));

const body = (r: Bag): wire.RateLimitBody => ({
  threshold: r.threshold,
  period: r.period,
  action: { mode: r.action.mode, ...(r.action.timeout !== undefined ? { timeout: r.action.timeout } : {}) },
  match: { request: { url: r.match.request.url, ...(r.match.request.methods ? { methods: r.match.request.methods } : {}) } },
  description: r.description ?? "",
  disabled: r.disabled,
});

function outputs(wanted: Bag, zone: ZoneRef, rule: wire.RateLimit): RateLimitOutputs {
  const methods = rule.match.request.methods?.filter((m) => m !== "_ALL_");
  return {
    ...zoneOutputs(wanted, zone),
    threshold: rule.threshold,
    period: rule.period,
    action: { mode: rule.action.mode, ...(rule.action.timeout !== undefined ? { timeout: rule.action.timeout } : {}) },
    match: { request: { url: rule.match.request.url, ...(methods?.length ? { methods } : {}) } },
    ...(rule.description ? { description: rule.description } : {}),
    disabled: rule.disabled ?? false,
    adopt: wanted.adopt ?? false,
  };
}

export const rateLimit: Handler = {
  async check(_olds, news) {
    return checkWith(RateLimitInputs, news);
  },

  async diff(_id, olds, news) {
    const wanted = withoutProvider(news);
    const replaces = zoneChanged(wanted, olds as RateLimitOutputs) ? [wanted.zoneId ? "zoneId" : "zoneName"] : [];
    const changed = changedKeys(FIELDS, olds, wanted, same);
    return { changes: replaces.length + changed.length > 0, replaces };
  },

  async create(r) {
    const zone = await resolveZone(r);
    const rule = await createByKey({
      what: `rate limit for ${r.match.request.url} in ${zone.name}`,
      adopt: adopting(r),
      find: async () => {
        for await (const x of edge().rateLimits(zone.id)) if (x.match.request.url === r.match.request.url) return x;
        return undefined;
      },
      create: () => edge().createRateLimit(zone.id, body(r)),
      update: (existing) => edge().updateRateLimit(zone.id, existing.id, body(r)),
      unchanged: (existing) => !changedKeys(FIELDS, outputs(r, zone, existing), r, same).length,
    });
    return { id: rule.id, outs: outputs(r, zone, rule) };
  },

  async read(id, props) {
    const [zoneId, ruleId] = await locate(id, props, "rate limit", (z, x) => unlessGone(() => edge().getRateLimit(z, x)));
    const rule = await listedRule("rate_limits", zoneId, ruleId, () => edge().rateLimits(zoneId));
    if (!rule) return {};
    const zone = props.zoneName ? { id: zoneId, name: props.zoneName } : await resolveZone({ zoneId });
    const outs = outputs(props, zone, rule);
    return changedKeys(FIELDS, props, outs, same).length ? { id, props: outs, inputs: programZoneInputs(outs) } : { id, props: outs };
  },

  async update(id, olds, news) {
    const r = withoutProvider(news);
    const zone = { id: olds.zoneId, name: olds.zoneName };
    return { outs: outputs(r, zone, await edge().updateRateLimit(zone.id, id, body(r))) };
  },

  async delete(id, props) {
    const [zoneId, ruleId] = zoneScopedId(id, props);
    await deleteUnlessGone(() => edge().deleteRateLimit(zoneId, ruleId));
  },
};

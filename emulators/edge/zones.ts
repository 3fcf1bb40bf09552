/**
 * The account's zones (`/zones`: list by name, read, add) and a zone's settings (`/zones/{id}/settings`: every
 * setting, one, and an edit refused as the service refuses it), as the service shows them.
 */
import { parseJson } from "../kit";
import { fail } from "./dns";
import type { Plan } from "./rulesets";
import type { EdgeRoute } from "./access";
import type { EdgeEmulator, Zone } from "./server";
import { acceptable, SETTINGS } from "./settings";

export function registerZoneRoutes(edge: EdgeEmulator, r: EdgeRoute): void {
  r("GET", "/zones", "zone:read", (req) => {
    const name = req.query.get("name")?.toLowerCase();
    const zones = [...edge.zones.values()].filter((z) => !name || z.name === name).map((z) => zoneView(edge, z));
    return edge.page(req, zones, { perPage: 20, min: 5, max: 50 });
  });
  r("GET", "/zones/:zone", "zone:read", (req) => edge.ok(zoneView(edge, edge.zone(req))));
  // Adding a zone (the API reference's "Create Zone"): `{name, account: {id}, type}`; the zone is `pending` on the
  // Free plan until the registrar names its assigned name servers. A zone the account has already: 1061.
  r("POST", "/zones", "zone:edit", (req) => {
    const body = parseJson(req) ?? {};
    const name = String(body.name ?? "")
      .toLowerCase()
      .replace(/\.$/, "");
    if (!/^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/.test(name))
      fail(400, 1097, `Invalid zone name: ${JSON.stringify(body.name ?? "")}`);
    if (body.account?.id !== undefined && body.account.id !== edge.options.accountId)
      fail(403, 9109, "Unauthorized to access requested resource");
    const type = String(body.type ?? "full");
    if (!["full", "partial", "secondary", "internal"].includes(type)) fail(400, 1003, `Invalid zone type: ${type}`);
    if ([...edge.zones.values()].some((z) => z.name === name)) fail(400, 1061, `${name} already exists`);
    const zone = edge.addZone(name);
    zone.added = { type, on: edge.timestamp() };
    return edge.ok(zoneView(edge, zone));
  });

  r("GET", "/zones/:zone/settings", "zone_settings:read", (req) => {
    const z = edge.zone(req);
    return edge.ok(Object.keys(SETTINGS).map((id) => settingView(z, id)));
  });
  r("GET", "/zones/:zone/settings/:setting", "zone_settings:read", (req) => {
    const z = edge.zone(req);
    if (!SETTINGS[req.params.setting]) fail(400, 1006, "Unrecognized zone setting name");
    return edge.ok(settingView(z, req.params.setting));
  });
  r("PATCH", "/zones/:zone/settings/:setting", "zone_settings:edit", (req) => {
    const z = edge.zone(req);
    const id = req.params.setting;
    const spec = SETTINGS[id];
    if (!spec) fail(400, 1006, "Unrecognized zone setting name");
    if (spec.editable === false) fail(400, 1057, `Zone setting ${id} is not editable`);
    const body = parseJson(req);
    if (!body || !("value" in body) || !acceptable(spec, body.value)) {
      fail(400, 1007, `Invalid value for zone setting ${id}${spec.values ? `: must be one of ${spec.values.join(", ")}` : ""}`);
    }
    z.settings[id] = { value: body.value, modified_on: edge.timestamp() };
    return edge.ok(settingView(z, id));
  });
}

function zoneView(edge: EdgeEmulator, z: Zone) {
  return {
    id: z.id,
    name: z.name,
    status: z.added ? "pending" : "active",
    paused: false,
    type: z.added?.type ?? "full",
    name_servers: ["ada.ns.example.net", "bob.ns.example.net"],
    account: { id: edge.options.accountId, name: "Demo account" },
    plan: planView(edge.plans.get(z.id) ?? "free"),
    development_mode: 0,
    meta: {
      cdn_only: false,
      custom_certificate_quota: 0,
      dns_only: false,
      foundation_dns: false,
      page_rule_quota: 3,
      phishing_detected: false,
      step: 2,
    },
    owner: { id: null, name: null, type: "user" },
    original_name_servers: null,
    original_registrar: null,
    original_dnshost: null,
    activated_on: z.added ? null : "2024-01-01T00:00:00Z",
    created_on: z.added?.on ?? "2024-01-01T00:00:00Z",
    modified_on: z.added?.on ?? "2024-01-01T00:00:00Z",
  };
}

function settingView(z: Zone, id: string) {
  const s = z.settings[id];
  return { id, value: s.value, editable: SETTINGS[id].editable !== false, modified_on: s.modified_on };
}

/** A zone's `plan` as the service shows it (legacy_id is what the rate limiting availability table goes by). */
function planView(plan: Plan) {
  const names: Record<Plan, string> = {
    free: "Free Website",
    pro: "Pro Website",
    business: "Business Website",
    enterprise: "Enterprise Website",
  };
  return { id: plan, name: names[plan], legacy_id: plan, is_subscribed: plan !== "free", can_subscribe: true };
}

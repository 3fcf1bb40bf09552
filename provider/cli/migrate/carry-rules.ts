/** Rules carried from the old tool's state: a zone's ruleset rules in the API's shape, and page rules. */
import { one, unset, type Found } from "./source";
import { type Bag, type Carried, type Left, num, str } from "./carried";

/** Blocks the rulesets engine takes as one object (the v4 provider stored them as lists of one). */
const RULE_BLOCKS = new Set([
  "action_parameters",
  "autominify",
  "browser_ttl",
  "cache_key",
  "custom_key",
  "query_string",
  "header",
  "cookie",
  "user",
  "host",
  "cache_reserve",
  "edge_ttl",
  "from_list",
  "from_value",
  "target_url",
  "matched_data",
  "origin",
  "overrides",
  "response",
  "serve_stale",
  "sni",
  "uri",
  "path",
  "query",
  "status_code_range",
  "ratelimit",
  "logging",
  "exposed_credential_check",
]);

/** A rule's parameters as the API takes them: blocks as objects, headers by name, rule lists as lists; unset left out. */
export function apiShape(v: unknown, key = ""): unknown {
  if (Array.isArray(v)) {
    if (RULE_BLOCKS.has(key) && v.length <= 1) return v.length ? apiShape(v[0], key) : undefined;
    if (key === "headers" && v.every((h) => h && typeof h === "object" && "name" in h)) {
      return Object.fromEntries(
        v.map((h) => {
          const { name, ...rest } = h as Bag;
          return [name, apiShape(rest)];
        }),
      );
    }
    const list = v.map((x) => apiShape(x)).filter((x) => x !== undefined);
    return list.length ? list : undefined;
  }
  if (v && typeof v === "object") {
    const out: Bag = {};
    for (const [k, x] of Object.entries(v)) {
      const y = key === "rules" && typeof x === "string" ? x.split(",").filter(Boolean) : apiShape(x, k);
      if (y !== undefined && y !== null && !(typeof y === "object" && !Array.isArray(y) && !Object.keys(y).length)) out[k] = y;
    }
    return Object.keys(out).length ? out : undefined;
  }
  return v === null ? undefined : v;
}

export function rulesetRules(f: Found, zoneId: string): Carried[] | Left {
  const a = f.attributes;
  const phase = String(a.phase);
  if (!str(a.zone_id))
    return { address: f.address, reason: "an account-level ruleset: pulumi-ops manages a zone's entry point rules (RulesetRule)" };
  if (a.kind !== "zone")
    return { address: f.address, reason: `a ruleset of kind ${a.kind}: pulumi-ops manages a zone's entry point rules (kind zone)` };
  return ((a.rules ?? []) as Bag[]).map((r, i) => {
    const params = apiShape(r.action_parameters, "action_parameters");
    const ratelimit = apiShape(r.ratelimit, "ratelimit");
    const logging = one(r.logging);
    return {
      type: "edge:RulesetRule",
      name: `${f.name}-${str(r.ref) ?? i}`,
      from: [`${f.address}.rules[${i}]`],
      inputs: {
        zoneId,
        phase,
        expression: r.expression,
        action: r.action,
        ...(params ? { actionParameters: params } : {}),
        ...(ratelimit ? { ratelimit } : {}),
        ...(str(r.description) ? { description: r.description } : {}),
        ...(r.enabled === false ? { enabled: false } : {}),
        ...(str(r.ref) ? { ref: r.ref } : {}),
        ...(logging && typeof logging.enabled === "boolean" ? { logging: { enabled: logging.enabled } } : {}),
        adopt: true,
      },
    };
  });
}

/** Page rule actions that are flags (present or not), not values. */
const FLAG_ACTIONS = new Set([
  "always_use_https",
  "disable_apps",
  "disable_performance",
  "disable_railgun",
  "disable_security",
  "disable_zaraz",
]);

export function pageRule(f: Found, zoneId: string): Carried | Left {
  const a = f.attributes;
  const given = one(a.actions) ?? {};
  const actions: Bag[] = [];
  for (const [id, raw] of Object.entries(given)) {
    if (FLAG_ACTIONS.has(id)) {
      if (raw === true) actions.push({ id });
      continue;
    }
    if (unset(raw) || raw === 0 || raw === false) continue;
    if (id === "forwarding_url") {
      const fw = one(raw)!;
      actions.push({ id, value: { url: fw.url, status_code: num(fw.status_code) } });
    } else if (id === "browser_cache_ttl" || id === "edge_cache_ttl") actions.push({ id, value: num(raw) });
    else if (id === "minify" || id === "minifies") actions.push({ id: "minify", value: one(raw) });
    else if (id === "cache_ttl_by_status" || id === "cache_ttl_by_statuses") {
      const byCode = Array.isArray(raw)
        ? Object.fromEntries((raw as Bag[]).map((x) => [String(x.codes), num(x.ttl) ?? x.ttl]))
        : Object.fromEntries(Object.entries(raw as Bag).map(([k, v]) => [k, num(v) ?? v]));
      actions.push({ id: "cache_ttl_by_status", value: byCode });
    } else if (typeof raw === "string" || typeof raw === "number") actions.push({ id, value: raw });
    // Carried without it, the rule's takeover would write the rule without that action: the whole rule stays behind.
    else
      return {
        address: f.address,
        reason: `its ${id} action (nested blocks) is not carried, and a PageRule without it would remove it from the rule: take the rule over with pulumi-ops import --zone (it reads the rule as the service has it), or move it to RulesetRules (--page-rules-as-rules)`,
      };
  }
  return {
    type: "edge:PageRule",
    name: f.name,
    from: [f.address],
    inputs: {
      zoneId,
      targets: [a.target],
      actions,
      ...(num(a.priority) ? { priority: num(a.priority) } : {}),
      ...(a.status === "disabled" ? { status: "disabled" } : {}),
      adopt: true,
    },
  };
}

/**
 * The Cloudflare API v4's other objects as the service has them today: page rules, edge scripts, the retired firewall rules
 * and rate-limit endpoints (rulesets.ts has what replaced them), and the read-only analytics, security events and
 * per-location cache statistics (deterministic, plausible numbers).
 */
import { parseJson } from "../kit";
import { fail } from "./dns";
import type { EdgeRoute } from "./access";
import type { EdgeEmulator } from "./server";

export interface RuleState {
  resetRules?: () => void;
  /** A zone's page rules, for a report of what exists that sends no request (the demo's). */
  pageRulesOf?: (zoneId: string) => readonly unknown[];
}

interface Stored {
  id: string;
  [k: string]: unknown;
}

export function registerRuleRoutes(emu: EdgeEmulator, r: EdgeRoute): void {
  const pageRules = new Map<string, Stored[]>();
  const firewall = new Map<string, Stored[]>();
  emu.resetRules = () => [pageRules, firewall].forEach((m) => m.clear());
  emu.pageRulesOf = (zoneId) => pageRules.get(zoneId) ?? [];
  const list = (m: Map<string, Stored[]>, zone: string) => m.get(zone) ?? m.set(zone, []).get(zone)!;
  const find = (items: Stored[], id: string, what: string) => items.find((x) => x.id === id) ?? fail(404, 7003, `${what} not found`);

  // Page rules: higher priority wins; priorities are renumbered 1..n to close gaps, as the service does.
  const renumber = (rules: Stored[]) => {
    rules.sort((a, b) => (a.priority as number) - (b.priority as number));
    rules.forEach((x, i) => (x.priority = i + 1));
  };
  const pageRule = (body: any, old?: Stored): Stored => {
    const targets = body?.targets ?? old?.targets;
    const actions = body?.actions ?? old?.actions;
    if (
      !Array.isArray(targets) ||
      !targets.length ||
      !targets.every((t: any) => t?.target === "url" && typeof t?.constraint?.value === "string")
    ) {
      fail(400, 1004, "Page Rule validation failed: targets must be url targets with a constraint value");
    }
    if (!Array.isArray(actions) || !actions.length || !actions.every((a: any) => typeof a?.id === "string")) {
      fail(400, 1004, "Page Rule validation failed: at least one action is required");
    }
    const status = body?.status ?? old?.status ?? "disabled";
    if (!["active", "disabled"].includes(status)) fail(400, 1004, "Page Rule validation failed: status must be active or disabled");
    const now = emu.timestamp();
    return {
      id: old?.id ?? emu.nextId(),
      targets,
      actions,
      priority: Number(body?.priority ?? old?.priority ?? 1),
      status,
      created_on: old?.created_on ?? now,
      modified_on: now,
    };
  };
  r("GET", "/zones/:zone/pagerules", "page_rules:edit", (req) => emu.ok(list(pageRules, emu.zone(req).id)));
  r("POST", "/zones/:zone/pagerules", "page_rules:edit", (req) => {
    const rules = list(pageRules, emu.zone(req).id);
    const rule = pageRule(parseJson(req));
    rules.push(rule);
    renumber(rules);
    return emu.ok(rule);
  });
  r("GET", "/zones/:zone/pagerules/:id", "page_rules:edit", (req) =>
    emu.ok(find(list(pageRules, emu.zone(req).id), req.params.id, "Page rule")),
  );
  for (const method of ["PATCH", "PUT"]) {
    r(method, "/zones/:zone/pagerules/:id", "page_rules:edit", (req) => {
      const rules = list(pageRules, emu.zone(req).id);
      const old = find(rules, req.params.id, "Page rule");
      const rule = pageRule(parseJson(req), method === "PATCH" ? old : ({ id: old.id, created_on: old.created_on } as Stored));
      rules.splice(rules.indexOf(old), 1, rule);
      renumber(rules);
      return emu.ok(rule);
    });
  }
  r("DELETE", "/zones/:zone/pagerules/:id", "page_rules:edit", (req) => {
    const rules = list(pageRules, emu.zone(req).id);
    rules.splice(rules.indexOf(find(rules, req.params.id, "Page rule")), 1);
    renumber(rules);
    return emu.ok({ id: req.params.id });
  });

  // Firewall rules (the legacy API): not supported since 2025-06-15. Reads still answer what is left; every write is
  // refused with 10020 (the service's words), since the rules moved to the rulesets engine (rulesets.ts).
  r("GET", "/zones/:zone/firewall/rules", "firewall:read", (req) => emu.ok(list(firewall, emu.zone(req).id)));
  r("GET", "/zones/:zone/firewall/rules/:id", "firewall:read", (req) =>
    emu.ok(find(list(firewall, emu.zone(req).id), req.params.id, "Firewall rule")),
  );
  for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
    for (const path of ["/zones/:zone/firewall/rules", "/zones/:zone/firewall/rules/:id"]) {
      r(method, path, "firewall:edit", () =>
        fail(
          400,
          10020,
          "firewallrules.api.maintenance_mode: the Firewall Rules API is in maintenance mode and no longer accepts modifications; use WAF custom rules (the rulesets engine)",
        ),
      );
    }
  }

  // Rate limiting (previous version): no longer available; every call answers 410 Gone.
  for (const method of ["GET", "POST", "PUT", "DELETE"]) {
    for (const path of ["/zones/:zone/rate_limits", "/zones/:zone/rate_limits/:id"]) {
      r(method, path, "rate_limits:read", () =>
        fail(
          410,
          10000,
          "Rate limiting (previous version) is no longer available: use rate limiting rules (the rulesets engine, phase http_ratelimit)",
        ),
      );
    }
  }

  // The zone analytics REST endpoints were sunset on 2021-03-01 (graphql.ts has what replaced them); the service
  // answers them with 1015 and these words. Security events never had a REST endpoint.
  for (const p of ["/zones/:zone/analytics/dashboard", "/zones/:zone/analytics/colos"]) {
    r("GET", p, "analytics:read", () => fail(400, 1015, "Zone Analytics API is sunset and replaced by GraphQL API"));
  }
}

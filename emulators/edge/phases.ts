/**
 * What each phase of a zone's rulesets takes, as the service documents it: the actions of each phase, the permission
 * each needs, an action's parameters, and the values a rate limiting rule may use on each plan
 * (developers.cloudflare.com/waf/rate-limiting-rules/, availability by plan).
 */
import type { Permission } from "./access";

export type Plan = "free" | "pro" | "business" | "enterprise";

/** The phases a zone's rules live in here, and the permission each needs. */
const rules = (actions: string[]) => ({ read: "rules:read" as Permission, edit: "rules:edit" as Permission, actions });
export const PHASES: Record<string, { read: Permission; edit: Permission; actions: string[] }> = {
  http_request_firewall_custom: {
    read: "firewall:read",
    edit: "firewall:edit",
    actions: ["block", "challenge", "js_challenge", "managed_challenge", "log", "skip"],
  },
  http_ratelimit: {
    read: "rate_limits:read",
    edit: "rate_limits:edit",
    actions: ["block", "challenge", "js_challenge", "managed_challenge", "log"],
  },
  // The products that replace page rules (ruleset-engine/reference/phases-list; each product's "Create via API").
  http_request_cache_settings: rules(["set_cache_settings"]),
  http_request_dynamic_redirect: rules(["redirect"]),
  http_request_transform: rules(["rewrite"]),
  http_request_late_transform: rules(["rewrite"]),
  http_response_headers_transform: rules(["rewrite"]),
  http_request_origin: rules(["route"]),
  http_config_settings: rules(["set_config"]),
  http_response_compression: rules(["compress_response"]),
  http_custom_errors: rules(["serve_error"]),
};

/** What an action's parameters must hold, as the service refuses a rule without it (20021). */
export function paramsProblem(action: string, p: Record<string, any> | undefined): string | undefined {
  if (action === "redirect") {
    const target = p?.from_value?.target_url;
    if (!target || (typeof target.value !== "string" && typeof target.expression !== "string"))
      return "a redirect rule needs action_parameters.from_value.target_url (value or expression)";
    if (p!.from_value.status_code !== undefined && ![301, 302, 303, 307, 308].includes(p!.from_value.status_code))
      return "action_parameters.from_value.status_code must be 301, 302, 303, 307 or 308";
  }
  if (action === "rewrite" && !p?.uri && !p?.headers) return "a rewrite rule needs action_parameters.uri or action_parameters.headers";
  if (action === "route" && !p?.host_header && !p?.origin && !p?.sni)
    return "a route rule needs action_parameters.host_header, origin or sni";
  if ((action === "set_config" || action === "set_cache_settings") && (!p || !Object.keys(p).length))
    return `a ${action} rule needs action_parameters`;
  if (action === "compress_response" && !Array.isArray(p?.algorithms)) return "a compress_response rule needs action_parameters.algorithms";
  return undefined;
}

/**
 * The values a rate limiting rule's period and mitigation timeout take (the availability table's "supported
 * values"), and what each plan allows of them: a counting period up to 10 s / 1 min / 10 min / 65,535 s, a
 * mitigation timeout 10 s / up to 1 h / up to 1 day / up to 1 day (Enterprise may set other timeouts by API, so any
 * whole number up to a day is taken there). Rules 1 / 2 / 5 / 100.
 */
export const RATE_LIMIT_VALUES = [10, 15, 20, 30, 40, 45, 60, 90, 120, 180, 240, 300, 480, 600, 900, 1200, 1800, 2400, 3600, 65535, 86400];
const upTo = (max: number) => RATE_LIMIT_VALUES.filter((v) => v <= max);
export const RATE_LIMIT_PLANS: Record<
  Plan,
  { rules: number; periods: number[]; timeouts: number[] | "any up to a day"; fields: string[] | "any" }
> = {
  free: { rules: 1, periods: [10], timeouts: [10], fields: ["http.request.uri.path", "cf.bot_management.verified_bot"] },
  pro: {
    rules: 2,
    periods: upTo(60),
    timeouts: upTo(3600),
    fields: [
      "http.host",
      "http.request.uri",
      "http.request.uri.path",
      "http.request.full_uri",
      "http.request.uri.query",
      "cf.bot_management.verified_bot",
    ],
  },
  business: {
    rules: 5,
    periods: upTo(600),
    timeouts: upTo(86400),
    fields: [
      "http.host",
      "http.request.uri",
      "http.request.uri.path",
      "http.request.full_uri",
      "http.request.uri.query",
      "http.request.method",
      "ip.src",
      "http.user_agent",
      "cf.bot_management.verified_bot",
    ],
  },
  enterprise: { rules: 100, periods: upTo(65535), timeouts: "any up to a day", fields: "any" },
};

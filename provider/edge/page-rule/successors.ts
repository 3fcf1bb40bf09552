/**
 * Page rules are deprecated by the service: their settings move to the rules of the ruleset engine, one product per
 * kind of setting (developers.cloudflare.com/rules/reference/page-rules-migration/). A PageRule's preview says so and
 * names, for its actions, the rules that do the same, so that a user can plan the move.
 */

/** The phase (and product) that does what each page rule setting does. */
const SUCCESSOR: Record<string, string> = {
  forwarding_url: "a redirect rule (Single Redirects, phase http_request_dynamic_redirect)",
  always_use_https: "the zone setting always_use_https, or a redirect rule (http_request_dynamic_redirect)",
  cache_level: "a cache rule (http_request_cache_settings)",
  edge_cache_ttl: "a cache rule (http_request_cache_settings)",
  browser_cache_ttl: "a cache rule (http_request_cache_settings)",
  bypass_cache_on_cookie: "a cache rule (http_request_cache_settings)",
  cache_by_device_type: "a cache rule (http_request_cache_settings)",
  cache_deception_armor: "a cache rule (http_request_cache_settings)",
  cache_key_fields: "a cache rule (http_request_cache_settings)",
  cache_on_cookie: "a cache rule (http_request_cache_settings)",
  explicit_cache_control: "a cache rule (http_request_cache_settings)",
  origin_cache_control: "a cache rule (http_request_cache_settings)",
  respect_strong_etag: "a cache rule (http_request_cache_settings)",
  sort_query_string_for_cache: "a cache rule (http_request_cache_settings)",
  host_header_override: "an origin rule (http_request_origin)",
  resolve_override: "an origin rule (http_request_origin)",
  automatic_https_rewrites: "a configuration rule (http_config_settings)",
  browser_check: "a configuration rule (http_config_settings)",
  email_obfuscation: "a configuration rule (http_config_settings)",
  rocket_loader: "a configuration rule (http_config_settings)",
  mirage: "a configuration rule (http_config_settings)",
  polish: "a configuration rule (http_config_settings)",
  opportunistic_encryption: "a configuration rule (http_config_settings)",
  security_level: "a configuration rule (http_config_settings)",
  server_side_exclude: "a configuration rule (http_config_settings)",
  ssl: "a configuration rule (http_config_settings)",
  disable_apps: "a configuration rule (http_config_settings)",
  disable_performance: "a configuration rule (http_config_settings)",
  disable_zaraz: "a configuration rule (http_config_settings)",
  automatic_platform_optimization: "a configuration rule (http_config_settings)",
  true_client_ip_header: "the Managed Transform that adds True-Client-IP",
  ip_geolocation: "the Managed Transform that adds visitor location headers",
  waf: "a WAF custom rule with skip (FirewallRule)",
};

/** The warning a run with page rules shows once, whatever the number of rules (its kind: DEPRECATED_KIND). */
export const DEPRECATION_WARNING =
  "edge: page rules are deprecated by the service (developers.cloudflare.com/rules/reference/page-rules-migration/): `pulumi-ops import --page-rules-as-rules` writes a zone's page rules as the RulesetRules that do the same; each rule's preview says where its actions go";
export const DEPRECATED_KIND = "page-rules-deprecated";

/** What a PageRule's preview says of its own actions: what does the same for each. */
export function successorsLine(target: string, actions: { id: string }[]): string {
  const named = [...new Set(actions.map((a) => a.id))].map(
    (id) => `${id} -> ${SUCCESSOR[id] ?? "no one rule named in the migration guide: check it"}`,
  );
  return `edge: the page rule for ${target} can move to: ${named.join("; ")}`;
}

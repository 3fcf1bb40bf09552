/**
 * The zone settings the service has today, as the official `cloudflare` SDK (generated from the service's
 * schema) types them: a mistyped id fails the preview with the nearest one, instead of a replacement that the service
 * refuses at up (1006). Which take a number, an object or a list; and which are deprecated.
 */

export const SETTING_IDS = [
  "0rtt",
  "advanced_ddos",
  "aegis",
  "always_online",
  "always_use_https",
  "automatic_https_rewrites",
  "automatic_platform_optimization",
  "brotli",
  "browser_cache_ttl",
  "browser_check",
  "cache_level",
  "challenge_ttl",
  "china_network_enabled",
  "ciphers",
  "cname_flattening",
  "content_converter",
  "development_mode",
  "early_hints",
  "edge_cache_ttl",
  "email_obfuscation",
  "h2_prioritization",
  "hotlink_protection",
  "http2",
  "http3",
  "image_resizing",
  "ip_geolocation",
  "ipv6",
  "max_upload",
  "min_tls_version",
  "mirage",
  "nel",
  "opportunistic_encryption",
  "opportunistic_onion",
  "orange_to_orange",
  "origin_error_page_pass_thru",
  "origin_h2_max_streams",
  "origin_max_http_version",
  "polish",
  "pre_render",
  "prefetch_preload",
  "privacy_pass",
  "proxy_read_timeout",
  "pseudo_ipv4",
  "redirects_for_ai_training",
  "replace_insecure_js",
  "response_buffering",
  "rocket_loader",
  "search_for_agents",
  "security_header",
  "security_level",
  "server_side_exclude",
  "sha1_support",
  "sort_query_string_for_cache",
  "ssl",
  "tls_1_2_only",
  "tls_1_3",
  "tls_client_auth",
  "transformations",
  "transformations_allowed_origins",
  "true_client_ip_header",
  "waf",
  "webmcp_enabled",
  "webmcp_packs",
  "webp",
  "websockets",
] as const;

/** Settings whose value is a number (seconds, megabytes, streams), an object, or a list; the rest take text. */
export const NUMBER_SETTINGS = new Set([
  "browser_cache_ttl",
  "challenge_ttl",
  "edge_cache_ttl",
  "max_upload",
  "origin_h2_max_streams",
  "proxy_read_timeout",
]);
export const OBJECT_SETTINGS = new Set(["security_header", "nel", "automatic_platform_optimization"]);
export const LIST_SETTINGS = new Set(["ciphers"]);

/**
 * The values each setting takes, as the official `cloudflare` SDK (src/resources/zones/settings.ts of 2026-08-18, the
 * typed answers of its settings) lists them: a value outside them is refused at preview, as the service refuses it
 * at up (1007). Settings not here (objects, lists, free text, numbers the SDK does not enumerate) go to the service,
 * whose refusal names the setting.
 */
export const ALLOWED_VALUES: Record<string, readonly (string | number)[]> = {
  "0rtt": ["on", "off"],
  advanced_ddos: ["on", "off"],
  always_online: ["on", "off"],
  always_use_https: ["on", "off"],
  automatic_https_rewrites: ["on", "off"],
  brotli: ["off", "on"],
  // A plain number in the SDK's types; the service's own API schema (zones_browser_cache_ttl_value) enumerates these
  // (0 respects the origin's headers).
  browser_cache_ttl: [
    0, 30, 60, 120, 300, 1200, 1800, 3600, 7200, 10800, 14400, 18000, 28800, 43200, 57600, 72000, 86400, 172800, 259200, 345600, 432000,
    691200, 1382400, 2073600, 2678400, 5356800, 16070400, 31536000,
  ],
  browser_check: ["on", "off"],
  cache_level: ["aggressive", "basic", "simplified"],
  challenge_ttl: [300, 900, 1800, 2700, 3600, 7200, 10800, 14400, 28800, 57600, 86400, 604800, 2592000, 31536000],
  china_network_enabled: ["on", "off"],
  cname_flattening: ["flatten_at_root", "flatten_all"],
  content_converter: ["off", "on"],
  development_mode: ["on", "off"],
  early_hints: ["on", "off"],
  edge_cache_ttl: [
    30, 60, 300, 1200, 1800, 3600, 7200, 10800, 14400, 18000, 28800, 43200, 57600, 72000, 86400, 172800, 259200, 345600, 432000, 518400,
    604800,
  ],
  email_obfuscation: ["on", "off"],
  h2_prioritization: ["on", "off", "custom"],
  hotlink_protection: ["on", "off"],
  http2: ["on", "off"],
  http3: ["on", "off"],
  image_resizing: ["on", "off", "open"],
  ip_geolocation: ["on", "off"],
  ipv6: ["off", "on"],
  max_upload: [100, 125, 150, 175, 200, 225, 250, 275, 300, 325, 350, 375, 400, 425, 450, 475, 500, 1000],
  min_tls_version: ["1.0", "1.1", "1.2", "1.3"],
  mirage: ["on", "off"],
  opportunistic_encryption: ["on", "off"],
  opportunistic_onion: ["on", "off"],
  orange_to_orange: ["on", "off"],
  origin_error_page_pass_thru: ["on", "off"],
  origin_max_http_version: ["2", "1"],
  polish: ["off", "lossless", "lossy"],
  prefetch_preload: ["on", "off"],
  privacy_pass: ["on", "off"],
  pseudo_ipv4: ["off", "add_header", "overwrite_header"],
  redirects_for_ai_training: ["off", "on"],
  replace_insecure_js: ["on", "off"],
  response_buffering: ["on", "off"],
  rocket_loader: ["on", "off"],
  search_for_agents: ["off", "on"],
  security_level: ["off", "essentially_off", "low", "medium", "high", "under_attack"],
  server_side_exclude: ["on", "off"],
  sha1_support: ["off", "on"],
  sort_query_string_for_cache: ["on", "off"],
  ssl: ["off", "flexible", "full", "strict"],
  tls_1_2_only: ["off", "on"],
  tls_1_3: ["on", "off", "zrt"],
  tls_client_auth: ["on", "off"],
  transformations: ["on", "off", "open"],
  true_client_ip_header: ["on", "off"],
  waf: ["on", "off"],
  webmcp_enabled: ["off", "on"],
  webp: ["off", "on"],
  websockets: ["off", "on"],
};

/** Deprecated settings, and what the service says to use instead. */
export const DEPRECATED: Record<string, string> = {
  brotli: "the service compresses with Brotli by default and manages compression with compression rules",
  cname_flattening: "use the zone's DNS settings instead (API deprecations, 2025-03-21)",
  mirage: "Mirage is no longer supported",
  orange_to_orange: "Orange-to-Orange is applied by the service",
  privacy_pass: "Privacy Pass v1 was deprecated in 2023",
  response_buffering: "this functionality is no longer supported",
};

/** The known id nearest to `id` (edit distance), when one is near enough to be a typo. */
export function nearestSetting(id: string): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const known of SETTING_IDS) {
    const d = distance(id, known);
    if (d < bestDistance) [best, bestDistance] = [known, d];
  }
  return bestDistance <= Math.max(2, Math.floor(id.length / 4)) ? best : undefined;
}

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length];
}

/** One text for equal values, whatever their key order: how values are compared. */
export function valueKey(v: unknown): string {
  return JSON.stringify(v, (_k, x) =>
    x && typeof x === "object" && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => a.localeCompare(b))) : x,
  );
}

/**
 * A new Free zone's value of each setting, as the service answers a zone nobody changed (a captured answer of its
 * settings listing, the values whose `modified_on` is null there, and the plans table's 4-hour browser cache TTL;
 * docs/service-today.md). `pulumi-ops import` writes the settings whose
 * value differs. Settings whose first value depends on the plan, the zone's age or the service's own tuning (ssl
 * under automatic SSL/TLS, http3, ...) are left out: import cannot tell whether someone changed them.
 */
export const DEFAULT_VALUES: Record<string, unknown> = {
  "0rtt": "off",
  always_use_https: "off",
  brotli: "on",
  browser_cache_ttl: 14400, // 4 hours, the plans table's default
  browser_check: "on",
  challenge_ttl: 1800,
  max_upload: 100,
  min_tls_version: "1.0",
  opportunistic_encryption: "on",
  tls_1_3: "on",
};

/**
 * The zone settings the edge emulator knows: the ones the provider knows (provider/edge/zone-setting/known.ts: every
 * setting the official `cloudflare` SDK types for the settings endpoints, src/resources/zones/settings.ts, and
 * `pre_render` of an older SDK), with the values the SDK enumerates (or the value's type) and the value the emulator
 * gives a new zone (the service's Free-zone values are not published; `ssl_recommender`, which takes `{enabled}`
 * rather than a value, is not served), so that a program (or a migrated settings override) meets here what it meets
 * on the service.
 */
export interface SettingSpec {
  /** The values it takes; a setting without them takes any value of its initial value's type. */
  values?: readonly unknown[];
  initial: unknown;
  editable?: boolean;
}

const onOff = (initial: "on" | "off"): SettingSpec => ({ values: ["on", "off"], initial });
/** The browser cache TTLs the service offers (seconds; 0 respects the origin's headers). */
const TTLS = [
  0, 30, 60, 120, 300, 1200, 1800, 3600, 7200, 10800, 14400, 18000, 28800, 43200, 57600, 72000, 86400, 172800, 259200, 345600, 432000,
  691200, 1382400, 2073600, 2678400, 5356800, 16070400, 31536000,
];

export const SETTINGS: Record<string, SettingSpec> = {
  "0rtt": onOff("off"),
  always_online: onOff("off"),
  always_use_https: onOff("off"),
  automatic_https_rewrites: onOff("on"),
  brotli: onOff("on"),
  browser_cache_ttl: { values: TTLS, initial: 14400 },
  browser_check: onOff("on"),
  cache_level: { values: ["basic", "simplified", "aggressive"], initial: "aggressive" },
  challenge_ttl: {
    values: [300, 900, 1800, 2700, 3600, 7200, 10800, 14400, 28800, 57600, 86400, 604800, 2592000, 31536000],
    initial: 1800,
  },
  development_mode: onOff("off"),
  email_obfuscation: onOff("on"),
  hotlink_protection: onOff("off"),
  http2: { ...onOff("on"), editable: false },
  http3: onOff("on"),
  ip_geolocation: onOff("on"),
  ipv6: onOff("on"),
  max_upload: { values: [100, 125, 150, 175, 200, 225, 250, 275, 300, 325, 350, 375, 400, 425, 450, 475, 500, 1000], initial: 100 },
  min_tls_version: { values: ["1.0", "1.1", "1.2", "1.3"], initial: "1.0" },
  opportunistic_encryption: onOff("on"),
  rocket_loader: onOff("off"),
  security_header: {
    initial: { strict_transport_security: { enabled: false, max_age: 0, include_subdomains: false, preload: false, nosniff: false } },
  },
  security_level: { values: ["off", "essentially_off", "low", "medium", "high", "under_attack"], initial: "medium" },
  server_side_exclude: onOff("on"),
  ssl: { values: ["off", "flexible", "full", "strict"], initial: "flexible" },
  tls_1_3: { values: ["on", "off", "zrt"], initial: "on" },
  websockets: onOff("on"),
  // The rest of the SDK's settings: deprecated ones are still listed and answered.
  advanced_ddos: { ...onOff("on"), editable: false },
  aegis: { initial: { enabled: false }, editable: false },
  automatic_platform_optimization: {
    initial: { enabled: false, cf: false, wordpress: false, wp_plugin: false, hostnames: [], cache_by_device_type: false },
  },
  china_network_enabled: { ...onOff("off"), editable: false },
  ciphers: { initial: [] },
  cname_flattening: { values: ["flatten_at_root", "flatten_all"], initial: "flatten_at_root" },
  content_converter: onOff("off"),
  early_hints: onOff("off"),
  edge_cache_ttl: {
    values: [
      30, 60, 300, 1200, 1800, 3600, 7200, 10800, 14400, 18000, 28800, 43200, 57600, 72000, 86400, 172800, 259200, 345600, 432000, 518400,
      604800,
    ],
    initial: 7200,
  },
  h2_prioritization: { values: ["on", "off", "custom"], initial: "off" },
  image_resizing: { values: ["on", "off", "open"], initial: "off" },
  mirage: onOff("off"),
  nel: { initial: { enabled: false } },
  opportunistic_onion: onOff("on"),
  orange_to_orange: onOff("off"),
  origin_error_page_pass_thru: onOff("off"),
  origin_h2_max_streams: { initial: 100, editable: false },
  origin_max_http_version: { values: ["2", "1"], initial: "1" },
  polish: { values: ["off", "lossless", "lossy"], initial: "off" },
  pre_render: { ...onOff("off"), editable: false },
  prefetch_preload: onOff("off"),
  privacy_pass: onOff("on"),
  proxy_read_timeout: { initial: 100 },
  pseudo_ipv4: { values: ["off", "add_header", "overwrite_header"], initial: "off" },
  redirects_for_ai_training: onOff("off"),
  replace_insecure_js: onOff("on"),
  response_buffering: onOff("off"),
  search_for_agents: onOff("off"),
  sha1_support: onOff("off"),
  sort_query_string_for_cache: onOff("off"),
  tls_1_2_only: onOff("off"),
  tls_client_auth: onOff("off"),
  transformations: { values: ["on", "off", "open"], initial: "off" },
  transformations_allowed_origins: { initial: "" },
  true_client_ip_header: onOff("off"),
  waf: { ...onOff("off"), editable: false },
  webmcp_enabled: onOff("off"),
  webmcp_packs: { initial: [] },
  webp: onOff("off"),
};

/** Whether `value` is one this setting takes: one of its values, or of its initial value's type. */
export function acceptable(spec: SettingSpec, value: unknown): boolean {
  if (spec.values) return spec.values.some((v) => v === value);
  const kind = (x: unknown) => (Array.isArray(x) ? "list" : x === null ? "null" : typeof x);
  return kind(value) === kind(spec.initial);
}

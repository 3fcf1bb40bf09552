/** The zone settings the edge emulator knows, with their allowed values and a plausible default. */
export interface SettingSpec {
  values: readonly string[];
  initial: string;
  editable?: boolean;
}

const onOff = (initial: "on" | "off"): SettingSpec => ({ values: ["on", "off"], initial });

export const SETTINGS: Record<string, SettingSpec> = {
  "0rtt": onOff("off"),
  always_online: onOff("off"),
  always_use_https: onOff("off"),
  automatic_https_rewrites: onOff("on"),
  brotli: onOff("on"),
  browser_check: onOff("on"),
  cache_level: { values: ["basic", "simplified", "aggressive"], initial: "aggressive" },
  development_mode: onOff("off"),
  email_obfuscation: onOff("on"),
  hotlink_protection: onOff("off"),
  http2: { ...onOff("on"), editable: false },
  http3: onOff("on"),
  ip_geolocation: onOff("on"),
  ipv6: onOff("on"),
  min_tls_version: { values: ["1.0", "1.1", "1.2", "1.3"], initial: "1.0" },
  opportunistic_encryption: onOff("on"),
  rocket_loader: onOff("off"),
  security_level: { values: ["off", "essentially_off", "low", "medium", "high", "under_attack"], initial: "medium" },
  server_side_exclude: onOff("on"),
  ssl: { values: ["off", "flexible", "full", "strict"], initial: "flexible" },
  tls_1_3: { values: ["on", "off", "zrt"], initial: "on" },
  websockets: onOff("on"),
};

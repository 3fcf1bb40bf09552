/**
 * Each object of the old tool's state as the pulumi-ops resource that takes it over with zero writes: its inputs are
 * what the old tool said the object is, and `adopt: true`, so the first up finds it, compares, and sends nothing when
 * the service holds it as the state says (a DNS zone's records go into one DnsRecordSet per zone, keyed by the old
 * resource names). What has no pulumi-ops resource, or would not survive the move unchanged, is left with its reason.
 */
import { DATA_FIELDS, isDataType } from "../../edge/dns-record/data";
import { PRIORITY_TYPES } from "../../edge/dns-record/normalize";
import { dynamic, one, texts, unset, type Found } from "./source";
import { sameValue } from "../../handler";
import { SETTING_IDS as KNOWN_SETTINGS } from "../../edge/zone-setting/known";
import { type Bag, type Carried, type Left, num, str } from "./carried";
import { pageRule, rulesetRules } from "./carry-rules";
import { route, script } from "./carry-workers";

export type { Carried, Left };

/** A key a DnsRecordSet takes: the old resource's name, with what its alphabet lacks as `-`. */
const recordKey = (name: string) =>
  name
    .replace(/[^A-Za-z0-9._:@*-]+/g, "-")
    .replace(/^[^A-Za-z0-9]+/, "")
    .slice(0, 120) || "record";

/** The record's inputs in a DnsRecordSet, from either provider's shape. */
function record(a: Bag): Bag {
  const type = String(a.type);
  // v5 holds the full name after a read; v4 the name as written, with the full one in `hostname`.
  const name = str(a.hostname) ?? String(a.name);
  const out: Bag = { type, name };
  if (isDataType(type)) {
    const d = one(a.data) ?? {};
    const fields = DATA_FIELDS[type];
    const data: Bag = {};
    for (const f of Object.keys(fields)) {
      // CAA's value: `content` in v4's data block, `value` in v5's.
      let v = dynamic(f === "value" && type === "CAA" ? (str(d.value) ?? d.content) : d[f]);
      if (v === undefined || v === null || v === "") continue;
      if (
        typeof v === "string" &&
        (fields[f] as { kind: { k: string } }).kind.k !== "text" &&
        num(v) !== undefined &&
        !/hex|b64/.test(JSON.stringify(fields[f]))
      )
        v = num(v);
      data[f] = v;
    }
    out.data = data;
  } else out.content = str(a.content) ?? str(a.value) ?? "";
  const ttl = num(a.ttl);
  out.ttl = ttl && ttl > 0 ? ttl : 1;
  if (a.proxied === true) out.proxied = true;
  if (PRIORITY_TYPES.includes(type) && num(a.priority) !== undefined) out.priority = num(a.priority);
  if (str(a.comment)) out.comment = a.comment;
  if (Array.isArray(a.tags) && a.tags.length) out.tags = [...a.tags].sort();
  const s = one(a.settings);
  const settings = Object.fromEntries(
    (
      [
        ["ipv4_only", "ipv4Only"],
        ["ipv6_only", "ipv6Only"],
        ["flatten_cname", "flattenCname"],
      ] as const
    )
      .filter(([k]) => s?.[k] === true)
      .map(([, k]) => [k, true]),
  );
  if (Object.keys(settings).length) out.settings = settings;
  return out;
}

/** Settings' ids where the API's differs from the Terraform attribute's (or pulumi-cloudflare's camelCase). */
const SETTING_IDS: Record<string, string> = {
  zero_rtt: "0rtt",
  tls13: "tls_1_3",
  tls12_only: "tls_1_2_only",
  tls_1_3: "tls_1_3",
  tls_1_2_only: "tls_1_2_only",
};

/** A setting's value as the API takes it, from a v4 block. */
function settingValue(id: string, v: unknown): unknown {
  if (id === "security_header") {
    const h = one(v) ?? {};
    return {
      strict_transport_security: Object.fromEntries(
        ["enabled", "max_age", "include_subdomains", "preload", "nosniff"].filter((k) => h[k] !== undefined).map((k) => [k, h[k]]),
      ),
    };
  }
  if (Array.isArray(v) && v.every((x) => x && typeof x === "object")) return one(v);
  return v;
}

function settings(f: Found, zoneId: string, left: Left[]): Carried[] {
  const a = f.attributes;
  if (f.type === "cloudflare_zone_setting") {
    const id = String(a.setting_id ?? a.id);
    return [{ type: "edge:ZoneSetting", name: `${f.name}`, from: [f.address], inputs: { zoneId, settingId: id, value: dynamic(a.value) } }];
  }
  // cloudflare_zone_settings_override: v4 reads every setting of the zone into `settings` after its apply, and kept
  // what the zone had before its first apply in `initial_settings`: the settings the old program changed are those
  // that differ from it. A state without initial_settings (or a setting it lacks) has only what was given: any value.
  const out: Carried[] = [];
  const initial = one(a.initial_settings) ?? {};
  const before = Object.keys(initial).length > 0;
  for (const [key, v] of Object.entries(one(a.settings) ?? {})) {
    if (unset(v) || v === 0) continue;
    if (key === "universal_ssl") {
      left.push({
        address: `${f.address}.settings.universal_ssl`,
        reason: "Universal SSL is not a zone setting of the API (its own endpoint, /ssl/universal/settings)",
      });
      continue;
    }
    if (before && key in initial && sameValue(settingValue(key, initial[key]), settingValue(key, v))) continue; // as the zone had it: not the program's
    const id = SETTING_IDS[key] ?? key;
    if (!(KNOWN_SETTINGS as readonly string[]).includes(id)) {
      left.push({
        address: `${f.address}.settings.${key}`,
        reason: `${id} is not a zone setting the service lists today (GET /zones/{id}/settings): nothing to carry`,
      });
      continue;
    }
    out.push({
      type: "edge:ZoneSetting",
      name: `${f.name}-${id}`,
      from: [`${f.address}.settings.${key}`],
      inputs: { zoneId, settingId: id, value: settingValue(id, v) },
    });
  }
  return out;
}

/** Why a type of the service's provider has no place here. */
const NOT_CARRIED: Record<string, string> = {
  cloudflare_zone: "pulumi-ops does not make or delete zones: a program names its zone (zoneName, or edge.getZone)",
  cloudflare_account: "pulumi-ops does not manage accounts",
  cloudflare_api_token: "pulumi-ops does not manage API tokens",
  cloudflare_workers_custom_domain:
    "a custom domain: write an ops.edge.WorkerDomain for its hostname (take it over with pulumi-ops import --zone)",
  cloudflare_worker_domain: "a custom domain: write an ops.edge.WorkerDomain for its hostname (take it over with pulumi-ops import --zone)",
};

/** Whether a resource would write a secret of the old tool's: any text of its inputs or files is, or holds, one. */
function writesSecret(c: Carried, secrets: string[]): boolean {
  if (!secrets.length) return false;
  const written = [...texts(c.inputs), ...Object.values(c.files ?? {})];
  return written.some((t) => secrets.some((s) => t === s || (s.length >= 6 && t.includes(s))));
}

/** Everything the state holds, as resources of the new program and what is left. */
export function carry(found: Found[]): { carried: Carried[]; left: Left[] } {
  const carried: Carried[] = [];
  const left: Left[] = [];
  const zones = new Map<string, { records: Record<string, Bag>; from: string[] }>();
  const files = new Set<string>();
  const secretFree = (f: Found, c: Carried): boolean => {
    if (!writesSecret(c, f.secrets)) return true;
    left.push({
      address: f.address,
      reason:
        "it holds a value the old tool kept as a secret, which is never written into a program: declare it by hand with the value from `pulumi config set --secret`",
    });
    return false;
  };
  for (const f of found) {
    const a = f.attributes;
    // Carried without its encrypted values, an object's takeover would write them empty: it stays behind.
    if (f.encrypted.length) {
      left.push({
        address: f.address,
        reason: `encrypted in the export (${f.encrypted.join(", ")}): export with --show-secrets to carry it`,
      });
      continue;
    }
    const zoneId = String(a.zone_id ?? "");
    switch (f.type) {
      case "cloudflare_record":
      case "cloudflare_dns_record": {
        const zone = zones.get(zoneId) ?? { records: {}, from: [] };
        zones.set(zoneId, zone);
        let key = recordKey(f.name);
        for (let n = 2; key in zone.records; n++) key = `${recordKey(f.name)}-${n}`;
        const rec = record(a);
        if (!secretFree(f, { type: "edge:DnsRecordSet", name: key, inputs: rec, from: [] })) break;
        zone.records[key] = rec;
        zone.from.push(f.address);
        break;
      }
      case "cloudflare_ruleset": {
        const rules = rulesetRules(f, zoneId);
        if (Array.isArray(rules)) carried.push(...rules.filter((c) => secretFree(f, c)));
        else left.push(rules);
        break;
      }
      case "cloudflare_page_rule": {
        const rule = pageRule(f, zoneId);
        if (!("type" in rule)) left.push(rule);
        else if (secretFree(f, rule)) carried.push(rule);
        break;
      }
      case "cloudflare_zone_settings_override":
      case "cloudflare_zone_setting":
        carried.push(...settings(f, zoneId, left).filter((c) => secretFree(f, c)));
        break;
      case "cloudflare_worker_script":
      case "cloudflare_workers_script": {
        const s = script(f, left, files);
        if (!("type" in s)) left.push(s);
        else if (secretFree(f, s)) carried.push(s);
        break;
      }
      case "cloudflare_worker_route":
      case "cloudflare_workers_route": {
        const r = route(f, zoneId);
        if (secretFree(f, r)) carried.push(r);
        break;
      }
      default:
        left.push({ address: f.address, reason: NOT_CARRIED[f.type] ?? `no pulumi-ops resource for ${f.type}` });
    }
  }
  const sets: Carried[] = [...zones.entries()].map(([zoneId, z], i) => ({
    type: "edge:DnsRecordSet",
    name: zones.size > 1 ? `records-${i + 1}` : "records",
    from: z.from,
    inputs: { zoneId, records: z.records, adopt: true },
  }));
  return { carried: [...sets, ...carried], left };
}

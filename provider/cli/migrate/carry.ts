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

/** A resource of the new program. */
export interface Carried {
  type: string;
  name: string;
  inputs: Record<string, unknown>;
  /** Files beside the program (a script's code), by path relative to it. */
  files?: Record<string, string>;
  /** Where it came from. */
  from: string[];
  /** What MIGRATION.md says of it besides (a redirect that replaces the page rule the old tool made). */
  note?: string;
}

/** An object not carried, or a part of one, with why. */
export interface Left {
  address: string;
  reason: string;
}

type Bag = Record<string, unknown>;
const str = (v: unknown) => (typeof v === "string" && v !== "" ? v : undefined);
const num = (v: unknown) =>
  typeof v === "number" ? v : typeof v === "string" && v.trim() !== "" && !Number.isNaN(Number(v)) ? Number(v) : undefined;
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
function apiShape(v: unknown, key = ""): unknown {
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

function rulesetRules(f: Found, zoneId: string): Carried[] | Left {
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

function pageRule(f: Found, zoneId: string): Carried | Left {
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

/** Binding types a WorkerScript keeps on the script as they are (every upload names them in keep_bindings). */
function script(f: Found, left: Left[], files: Set<string>): Carried | Left {
  const a = f.attributes;
  const name = String(a.script_name ?? a.name);
  if (!/^[a-z0-9][a-z0-9_-]{0,62}$/.test(name))
    return {
      address: f.address,
      reason: `its name ${JSON.stringify(name)} is not a script name the service takes (lowercase letters, digits, - and _)`,
    };
  const content = str(a.content);
  if (!content)
    return {
      address: f.address,
      reason: `no code in the state (content_file or assets): write the script's code to workers/${name}.js and add an ops.edge.WorkerScript with adopt: true`,
    };
  const module = a.module === true || !!str(a.main_module);
  // v5 lists every binding under `bindings` with its type; v4 (and pulumi-cloudflare v5) one list per type.
  const bindings: Bag[] = Array.isArray(a.bindings)
    ? (a.bindings as Bag[])
    : Object.entries(a)
        .filter(([k, v]) => /_bindings?$/.test(k) && Array.isArray(v))
        .flatMap(([k, v]) => (v as Bag[]).map((b) => ({ ...b, type: k.replace(/_bindings?$/, "") })));
  const vars: Record<string, string> = {};
  for (const b of bindings) {
    if (b.type === "plain_text") vars[String(b.name)] = String(b.text ?? "");
    else if (b.type === "secret_text")
      left.push({
        address: `${f.address} binding ${b.name}`,
        reason:
          "a secret: it stays on the script as it is (never written into a program); give it in the WorkerScript's `secrets` (from config set --secret) to manage it",
      });
    else
      left.push({
        address: `${f.address} binding ${b.name ?? b.binding}`,
        reason: `a ${b.type} binding: WorkerScript manages variables and secrets, and keeps every other binding on the script as it is`,
      });
  }
  // One file a script: the same name in another account gets its account in the file's name.
  const file = files.has(`workers/${name}.js`) ? `workers/${name}-${String(a.account_id).slice(0, 8)}.js` : `workers/${name}.js`;
  files.add(file);
  const flags = Array.isArray(a.compatibility_flags) ? (a.compatibility_flags as string[]) : [];
  return {
    type: "edge:WorkerScript",
    name: f.name,
    from: [f.address],
    files: { [file]: content },
    inputs: {
      accountId: a.account_id,
      name,
      source: file,
      format: module ? "module" : "service-worker",
      compatibilityDate: str(a.compatibility_date) ?? "2021-11-02",
      ...(flags.length ? { compatibilityFlags: [...flags].sort() } : {}),
      ...(Object.keys(vars).length ? { vars } : {}),
      adopt: true,
    },
  };
}

function route(f: Found, zoneId: string): Carried {
  const a = f.attributes;
  const target = str(a.script) ?? str(a.script_name);
  return {
    type: "edge:WorkerRoute",
    name: f.name,
    from: [f.address],
    inputs: { zoneId, pattern: a.pattern, ...(target ? { script: target } : {}), adopt: true },
  };
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

/**
 * The record types whose value the service takes as structured `data` (SRV, CAA, DS, ...), field by field as the
 * official API client types them (`cloudflare` npm SDK, `dns.records` `XxxRecordParam.Data`), with the ranges and
 * formats of each type's RFC. One table serves the check, the normalisation (hex and host names compared as the
 * service stores them), the presentation text (`content`, zone files) and the zone-file reader.
 */
import { kindOf } from "../../issue-text";
import { aRecord, isHostname } from "./names";

export const DATA_TYPES = [
  "SRV",
  "CAA",
  "DS",
  "HTTPS",
  "SVCB",
  "TLSA",
  "SSHFP",
  "NAPTR",
  "CERT",
  "URI",
  "SMIMEA",
  "DNSKEY",
  "LOC",
] as const;
export type DataType = (typeof DATA_TYPES)[number];
export type RecordData = Record<string, number | string>;

type Kind =
  | { k: "int"; min: number; max: number; only?: number[] }
  | { k: "num"; min: number; max: number }
  | { k: "hex" | "base64" | "params" }
  | { k: "host" } // a host name, or "." for none (SRV, HTTPS, SVCB, NAPTR)
  | { k: "text"; min?: number }
  | { k: "enum"; values: string[] };
interface Field {
  kind: Kind;
  /** What an omitted field means (LOC's RFC 1876 defaults); without it the field is required. */
  default?: number;
  about: string;
}

const int = (min: number, max: number, about: string, only?: number[]): Field => ({ kind: { k: "int", min, max, only }, about });
const u8 = (about: string) => int(0, 255, about);
const u16 = (about: string) => int(0, 65535, about);
const hex: Field = { kind: { k: "hex" }, about: "hexadecimal" };
const b64: Field = { kind: { k: "base64" }, about: "base64" };
const host = (about: string): Field => ({ kind: { k: "host" }, about });
const text = (about: string, min = 0): Field => ({ kind: { k: "text", min }, about });
const tlsa = {
  usage: int(0, 3, "certificate usage, 0 to 3"),
  selector: int(0, 1, "selector, 0 (full certificate) or 1 (public key)"),
  matching_type: int(0, 2, "matching type: 0 exact, 1 SHA-256, 2 SHA-512"),
  certificate: { ...hex, about: "certificate association data, hexadecimal" },
};
const svcb = {
  priority: u16("0 for alias mode, 1 to 65535 for service mode"),
  target: host("target name, or . for the owner itself"),
  value: { kind: { k: "params" }, about: 'service parameters, such as alpn="h3,h2" ipv4hint="203.0.113.1"' } as Field,
};
const loc = (what: "lat" | "long") => ({
  [`${what}_degrees`]: int(0, what === "lat" ? 90 : 180, `${what === "lat" ? "latitude" : "longitude"} degrees`),
  [`${what}_minutes`]: { ...int(0, 59, "minutes"), default: 0 },
  [`${what}_seconds`]: { kind: { k: "num", min: 0, max: 59.999 }, default: 0, about: "seconds, to the thousandth" } as Field,
  [`${what}_direction`]: {
    kind: { k: "enum", values: what === "lat" ? ["N", "S"] : ["E", "W"] },
    about: what === "lat" ? "N or S" : "E or W",
  } as Field,
});
const meters = (max: number, def: number, about: string): Field => ({ kind: { k: "num", min: 0, max }, default: def, about });

/** Each type's fields, in the order its presentation format (RFC) writes them. */
export const DATA_FIELDS: Record<DataType, Record<string, Field>> = {
  SRV: {
    priority: u16("priority, 0 to 65535"),
    weight: u16("weight, 0 to 65535"),
    port: u16("port, 0 to 65535"),
    target: host("target host, or . for no service"),
  },
  CAA: {
    flags: u8("flags, 0 to 255 (128: critical)"),
    tag: { kind: { k: "enum", values: ["issue", "issuewild", "iodef"] }, about: "issue, issuewild or iodef" },
    value: text("the CA's domain (issue, issuewild) or a mailto:/https: URL (iodef)"),
  },
  DS: {
    key_tag: u16("key tag, 0 to 65535"),
    algorithm: u8("DNSSEC algorithm number"),
    digest_type: int(1, 4, "digest type: 1 SHA-1, 2 SHA-256, 4 SHA-384", [1, 2, 4]),
    digest: { ...hex, about: "digest, hexadecimal" },
  },
  HTTPS: svcb,
  SVCB: svcb,
  TLSA: tlsa,
  SSHFP: {
    algorithm: int(1, 6, "key algorithm: 1 RSA, 2 DSA, 3 ECDSA, 4 Ed25519, 6 Ed448", [1, 2, 3, 4, 6]),
    type: int(1, 2, "fingerprint type: 1 SHA-1, 2 SHA-256"),
    fingerprint: { ...hex, about: "fingerprint, hexadecimal" },
  },
  NAPTR: {
    order: u16("order, 0 to 65535"),
    preference: u16("preference, 0 to 65535"),
    flags: text("flags, such as S, A, U or P (may be empty)"),
    service: text("service, such as SIP+D2U (may be empty)"),
    regex: text("substitution expression (may be empty)"),
    replacement: host("replacement name, or . when the regex is used"),
  },
  CERT: {
    type: u16("certificate type, 0 to 65535 (1 PKIX, 2 SPKI, 3 PGP, ...)"),
    key_tag: u16("key tag, 0 to 65535"),
    algorithm: u8("algorithm, 0 to 255"),
    certificate: { ...b64, about: "certificate, base64" },
  },
  URI: { weight: u16("weight, 0 to 65535"), target: text("the URI", 1) },
  SMIMEA: tlsa,
  DNSKEY: {
    flags: int(0, 65535, "flags: 256 zone key, 257 key-signing key"),
    protocol: int(3, 3, "protocol, always 3"),
    algorithm: u8("DNSSEC algorithm number"),
    public_key: { ...b64, about: "public key, base64" },
  },
  LOC: {
    ...loc("lat"),
    ...loc("long"),
    altitude: { kind: { k: "num", min: -100000, max: 42849672.95 }, default: 0, about: "altitude in meters, -100000 to 42849672.95" },
    size: meters(90000000, 1, "size in meters"),
    precision_horz: meters(90000000, 10000, "horizontal precision in meters"),
    precision_vert: meters(90000000, 10, "vertical precision in meters"),
  },
};

/** The hex digits a digest or fingerprint must have, from the type that says how it was made. */
const HEX_LENGTH: Partial<Record<DataType, [string, string, Record<number, number>]>> = {
  DS: ["digest_type", "digest", { 1: 40, 2: 64, 4: 96 }],
  SSHFP: ["type", "fingerprint", { 1: 40, 2: 64 }],
  TLSA: ["matching_type", "certificate", { 1: 64, 2: 128 }],
  SMIMEA: ["matching_type", "certificate", { 1: 64, 2: 128 }],
};

export const isDataType = (t: string): t is DataType => (DATA_TYPES as readonly string[]).includes(t);

/** Every field name of every type: the `data` input's shape (a field may be a number for one type, text for another). */
export function allDataFields(): Record<string, { number: boolean; text: boolean; about: string[] }> {
  const out: Record<string, { number: boolean; text: boolean; about: string[] }> = {};
  for (const [type, fields] of Object.entries(DATA_FIELDS)) {
    for (const [name, f] of Object.entries(fields)) {
      const o = (out[name] ??= { number: false, text: false, about: [] });
      if (f.kind.k === "int" || f.kind.k === "num") o.number = true;
      else o.text = true;
      o.about.push(`${type}: ${f.about}`);
    }
  }
  return out;
}

const HEX = /^[0-9a-f]+$/i;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

function fieldProblem(type: DataType, name: string, f: Field, v: unknown): string | undefined {
  const at = `data.${name}`;
  const k = f.kind;
  if (k.k === "int" || k.k === "num") {
    if (typeof v !== "number" || !Number.isFinite(v)) return `${at} must be a number for ${aRecord(type)} (${f.about}), not ${kindOf(v)}`;
    if (k.k === "int" && !Number.isInteger(v)) return `${at} must be a whole number (${f.about}), got ${v}`;
    if (v < k.min || v > k.max || (k.k === "int" && k.only && !k.only.includes(v)))
      return `${at} must be ${k.k === "int" && k.only ? `one of ${k.only.join(", ")}` : `from ${k.min} to ${k.max}`} for ${aRecord(type)} (${f.about}), got ${v}`;
    return undefined;
  }
  if (typeof v !== "string") return `${at} must be text for ${aRecord(type)} (${f.about}), not ${kindOf(v)}`;
  if (k.k === "hex" && !HEX.test(v.replace(/\s+/g, "")))
    return `${at} must be hexadecimal digits (0-9, a-f) for ${aRecord(type)}, got "${v.slice(0, 80)}"`;
  if (k.k === "hex" && v.replace(/\s+/g, "").length % 2)
    return `${at} must have an even number of hexadecimal digits (whole bytes), got ${v.replace(/\s+/g, "").length}`;
  if (k.k === "base64" && !BASE64.test(v.replace(/\s+/g, "")))
    return `${at} must be base64 (A-Z, a-z, 0-9, +, /, = padding) for ${aRecord(type)}`;
  if (k.k === "host" && v !== "." && (!isHostname(v) || v.includes("*")))
    return `${at} must be a host name (or . for none) for ${aRecord(type)}, got "${v}"`;
  if (k.k === "enum" && !k.values.includes(k.values.some((x) => x === x.toLowerCase()) ? v.toLowerCase() : v.toUpperCase()))
    return `${at} must be ${k.values.join(", ")} for ${aRecord(type)}, got "${v}"`;
  if (k.k === "text" && v.length < (k.min ?? 0)) return `${at} must not be empty for ${aRecord(type)} (${f.about})`;
  if ((k.k === "text" || k.k === "params") && /[\u0000-\u001f\u007f]/.test(v)) return `${at} must not contain control characters`;
  if (k.k === "params" && v.trim() && !/^[a-z0-9-]+(=\S.*)?$/i.test(v.trim().split(/\s+/)[0]))
    return `${at} must be key=value service parameters (e.g. alpn="h3,h2"), got "${v.slice(0, 80)}"`;
  return undefined;
}

/** Why `data` is not a valid value for a record of `type`, each problem a sentence naming the field; [] when it is. */
export function dataProblems(type: DataType, data: Record<string, unknown> | undefined): string[] {
  const fields = DATA_FIELDS[type];
  if (!data || typeof data !== "object")
    return [`${aRecord(type)} needs data with ${Object.keys(fields).join(", ")}: set data, not content`];
  const problems: string[] = [];
  for (const name of Object.keys(data)) {
    if (data[name] !== undefined && !(name in fields))
      problems.push(`data.${name} does not apply to ${aRecord(type)}: its fields are ${Object.keys(fields).join(", ")}`);
  }
  for (const [name, f] of Object.entries(fields)) {
    const v = data[name];
    if (v === undefined) {
      if (f.default === undefined)
        problems.push(`data.${name} is required for ${aRecord(type)}: set it to the ${f.about.replace(/^the /, "")}`);
      continue;
    }
    const p = fieldProblem(type, name, f, v);
    if (p) problems.push(p);
  }
  const rule = HEX_LENGTH[type];
  if (rule && !problems.length) {
    const [by, field, lengths] = rule;
    const want = lengths[data[by] as number];
    const got = String(data[field]).replace(/\s+/g, "").length;
    if (want !== undefined && got !== want)
      problems.push(`data.${field} of ${aRecord(type)} with ${by} ${data[by]} must be ${want} hexadecimal digits, got ${got}`);
  }
  return problems;
}

/** The spelling the service stores: defaults filled, hex lowercase, base64 and hex without spaces, host names lowercase without the trailing dot. */
export function normalizeData(type: DataType, data: Record<string, unknown>): RecordData {
  const out: RecordData = {};
  for (const [name, f] of Object.entries(DATA_FIELDS[type])) {
    const v = data[name] ?? f.default;
    if (v === undefined) continue;
    switch (f.kind.k) {
      case "hex":
        out[name] = String(v).replace(/\s+/g, "").toLowerCase();
        break;
      case "base64":
        out[name] = String(v).replace(/\s+/g, "");
        break;
      case "host":
        out[name] = v === "." ? "." : String(v).toLowerCase().replace(/\.$/, "");
        break;
      case "enum":
        out[name] = f.kind.values.find((x) => x.toLowerCase() === String(v).toLowerCase()) ?? String(v);
        break;
      case "params":
        out[name] = normalizeParams(String(v));
        break;
      default:
        out[name] = v as number | string;
    }
  }
  return out;
}

/** Service parameters as `key="value"` pairs separated by one space (`key` alone when it has no value). */
export function normalizeParams(text: string): string {
  const out: string[] = [];
  const re = /([A-Za-z0-9-]+)(?:=(?:"((?:[^"\\]|\\.)*)"|(\S*)))?/g;
  for (const m of text.matchAll(re)) {
    const value = m[2] ?? m[3];
    out.push(value === undefined ? m[1].toLowerCase() : `${m[1].toLowerCase()}="${value}"`);
  }
  return out.join(" ");
}

export function sameData(type: DataType, a: Record<string, unknown> | undefined, b: Record<string, unknown> | undefined): boolean {
  if (!a || !b) return a === b;
  return dataKey(type, normalizeData(type, a)) === dataKey(type, normalizeData(type, b));
}

/** One string that is equal for equal values: the fields in their RFC order. */
export function dataKey(type: DataType, data: RecordData): string {
  return Object.keys(DATA_FIELDS[type])
    .map((k) => String(data[k] ?? ""))
    .join(" ");
}

const quote = (s: string) => `"${s.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
const dot = (h: string | number) => (h === "." ? "." : `${h}.`);
const num = (n: number, unit = "") =>
  `${Number.isInteger(n) ? n : n.toFixed(n * 1000 === Math.round(n * 1000) && n * 100 !== Math.round(n * 100) ? 3 : 2)}${unit}`;

/** The value as a zone file writes it (RFC presentation format), host names absolute. */
export function presentData(type: DataType, d: RecordData): string {
  switch (type) {
    case "SRV":
      return `${d.priority} ${d.weight} ${d.port} ${dot(d.target)}`;
    case "CAA":
      return `${d.flags} ${d.tag} ${quote(String(d.value))}`;
    case "DS":
      return `${d.key_tag} ${d.algorithm} ${d.digest_type} ${String(d.digest).toUpperCase()}`;
    case "HTTPS":
    case "SVCB":
      return `${d.priority} ${dot(d.target)}${d.value ? ` ${d.value}` : ""}`;
    case "TLSA":
    case "SMIMEA":
      return `${d.usage} ${d.selector} ${d.matching_type} ${String(d.certificate).toUpperCase()}`;
    case "SSHFP":
      return `${d.algorithm} ${d.type} ${d.fingerprint}`;
    case "NAPTR":
      return `${d.order} ${d.preference} ${quote(String(d.flags))} ${quote(String(d.service))} ${quote(String(d.regex))} ${dot(d.replacement)}`;
    case "CERT":
      return `${d.type} ${d.key_tag} ${d.algorithm} ${d.certificate}`;
    case "URI":
      return `${d.weight} ${quote(String(d.target))}`;
    case "DNSKEY":
      return `${d.flags} ${d.protocol} ${d.algorithm} ${d.public_key}`;
    case "LOC":
      return [
        d.lat_degrees,
        d.lat_minutes,
        num(Number(d.lat_seconds)),
        d.lat_direction,
        d.long_degrees,
        d.long_minutes,
        num(Number(d.long_seconds)),
        d.long_direction,
        num(Number(d.altitude), "m"),
        num(Number(d.size), "m"),
        num(Number(d.precision_horz), "m"),
        num(Number(d.precision_vert), "m"),
      ].join(" ");
  }
}

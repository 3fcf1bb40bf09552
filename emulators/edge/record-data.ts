/**
 * The structured record types of the edge service (SRV, CAA, DS, ...): a record's value comes as `data`, shaped as
 * the official client types it (`cloudflare` npm SDK, `XxxRecordParam.Data`), and the service renders `content`
 * from it. Written apart from the provider's table on purpose: the emulator answers as the service does, and the
 * fidelity tests drive it with the official client.
 */
import { fail } from "./dns";

type Spec = [field: string, kind: "u8" | "u16" | "int" | "num" | "hex" | "b64" | "host" | "text" | "dir", min?: number, max?: number][];

const TLSA: Spec = [
  ["usage", "int", 0, 3],
  ["selector", "int", 0, 1],
  ["matching_type", "int", 0, 2],
  ["certificate", "hex"],
];
const SVCB: Spec = [
  ["priority", "u16"],
  ["target", "host"],
  ["value", "text"],
];
export const DATA_SPECS: Record<string, Spec> = {
  SRV: [
    ["priority", "u16"],
    ["weight", "u16"],
    ["port", "u16"],
    ["target", "host"],
  ],
  CAA: [
    ["flags", "u8"],
    ["tag", "text"],
    ["value", "text"],
  ],
  DS: [
    ["key_tag", "u16"],
    ["algorithm", "u8"],
    ["digest_type", "int", 1, 4],
    ["digest", "hex"],
  ],
  HTTPS: SVCB,
  SVCB,
  TLSA,
  SMIMEA: TLSA,
  SSHFP: [
    ["algorithm", "int", 1, 6],
    ["type", "int", 1, 2],
    ["fingerprint", "hex"],
  ],
  NAPTR: [
    ["order", "u16"],
    ["preference", "u16"],
    ["flags", "text"],
    ["service", "text"],
    ["regex", "text"],
    ["replacement", "host"],
  ],
  CERT: [
    ["type", "u16"],
    ["key_tag", "u16"],
    ["algorithm", "u8"],
    ["certificate", "b64"],
  ],
  URI: [
    ["weight", "u16"],
    ["target", "text"],
  ],
  DNSKEY: [
    ["flags", "u16"],
    ["protocol", "int", 3, 3],
    ["algorithm", "u8"],
    ["public_key", "b64"],
  ],
  LOC: [
    ["lat_degrees", "int", 0, 90],
    ["lat_minutes", "int", 0, 59],
    ["lat_seconds", "num", 0, 59.999],
    ["lat_direction", "dir"],
    ["long_degrees", "int", 0, 180],
    ["long_minutes", "int", 0, 59],
    ["long_seconds", "num", 0, 59.999],
    ["long_direction", "dir"],
    ["altitude", "num", -100000, 42849672.95],
    ["size", "num", 0, 90000000],
    ["precision_horz", "num", 0, 90000000],
    ["precision_vert", "num", 0, 90000000],
  ],
};
const LOC_DEFAULTS: Record<string, number> = {
  lat_minutes: 0,
  lat_seconds: 0,
  long_minutes: 0,
  long_seconds: 0,
  altitude: 0,
  size: 1,
  precision_horz: 10000,
  precision_vert: 10,
};
const HEX_LENGTHS: Record<string, [string, string, Record<number, number>]> = {
  DS: ["digest_type", "digest", { 1: 40, 2: 64, 4: 96 }],
  SSHFP: ["type", "fingerprint", { 1: 40, 2: 64 }],
  TLSA: ["matching_type", "certificate", { 1: 64, 2: 128 }],
  SMIMEA: ["matching_type", "certificate", { 1: 64, 2: 128 }],
};

const bad = (type: string, why: string): never => fail(400, 9005, `Content for ${type} record is invalid. ${why}`);

/** Validates `data` for `type` and returns it as stored: only the type's fields, hex and base64 without spaces. */
export function validateData(type: string, data: unknown): Record<string, number | string> {
  const spec = DATA_SPECS[type];
  if (!data || typeof data !== "object" || Array.isArray(data)) return bad(type, "The record needs a data object.");
  const given = data as Record<string, unknown>;
  const out: Record<string, number | string> = {};
  for (const [field, kind, min, max] of spec) {
    const v = given[field] ?? (type === "LOC" ? LOC_DEFAULTS[field] : undefined);
    if (v === undefined) bad(type, `data.${field} is required.`);
    if (["u8", "u16", "int", "num"].includes(kind)) {
      const [lo, hi] = kind === "u8" ? [0, 255] : kind === "u16" ? [0, 65535] : [min!, max!];
      if (typeof v !== "number" || (kind !== "num" && !Number.isInteger(v)) || v < lo || v > hi)
        bad(type, `data.${field} must be a number from ${lo} to ${hi}.`);
      out[field] = v as number;
      continue;
    }
    if (typeof v !== "string") return bad(type, `data.${field} must be a string.`);
    const s = kind === "hex" || kind === "b64" ? v.replace(/\s+/g, "") : v;
    if (kind === "hex" && !/^([0-9a-fA-F]{2})+$/.test(s)) bad(type, `data.${field} must be hexadecimal.`);
    if (kind === "b64" && !/^[A-Za-z0-9+/]+={0,2}$/.test(s)) bad(type, `data.${field} must be base64.`);
    if (kind === "host" && s !== "." && !/^([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?\.)*[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?\.?$/i.test(s))
      bad(type, `data.${field} must be a host name.`);
    if (kind === "dir" && !(field.startsWith("lat") ? ["N", "S"] : ["E", "W"]).includes(s))
      bad(type, `data.${field} must be ${field.startsWith("lat") ? "N or S" : "E or W"}.`);
    out[field] = kind === "host" && s !== "." ? s.replace(/\.$/, "").toLowerCase() : s;
  }
  if (type === "CAA" && !["issue", "issuewild", "iodef"].includes(String(out.tag)))
    bad(type, "data.tag must be issue, issuewild or iodef.");
  if (type === "SSHFP" && out.algorithm === 5) bad(type, "data.algorithm 5 is not assigned.");
  if (type === "DS" && out.digest_type === 3) bad(type, "data.digest_type 3 (GOST) is not supported.");
  const rule = HEX_LENGTHS[type];
  if (rule) {
    const want = rule[2][out[rule[0]] as number];
    if (want !== undefined && String(out[rule[1]]).length !== want)
      bad(type, `data.${rule[1]} must be ${want} hex digits for ${rule[0]} ${out[rule[0]]}.`);
  }
  return out;
}

const q = (s: unknown) => `"${String(s).replace(/[\\"]/g, (c) => `\\${c}`)}"`;
const dot = (h: unknown) => (h === "." ? "." : `${h}`);
const fixed = (n: unknown, unit = "") =>
  `${Number(n)
    .toFixed(Number.isInteger(Number(n)) ? 0 : 3)
    .replace(/\.?0+$/, (m) => (m.startsWith(".") ? "" : m))}${unit}`;

/**
 * `content` as the service renders it from data: the RFC presentation format, without the priority of the types
 * that report it as the record's own `priority` field (SRV, URI), as the service does for MX.
 */
export function renderContent(type: string, d: Record<string, number | string>): string {
  switch (type) {
    case "SRV":
      return `${d.weight} ${d.port} ${dot(d.target)}`;
    case "URI":
      return `${d.weight} ${q(d.target)}`;
    case "CAA":
      return `${d.flags} ${d.tag} ${q(d.value)}`;
    case "NAPTR":
      return `${d.order} ${d.preference} ${q(d.flags)} ${q(d.service)} ${q(d.regex)} ${dot(d.replacement)}`;
    case "HTTPS":
    case "SVCB":
      return `${d.priority} ${dot(d.target)} ${d.value}`.trimEnd();
    case "LOC":
      return [
        d.lat_degrees,
        d.lat_minutes,
        fixed(d.lat_seconds),
        d.lat_direction,
        d.long_degrees,
        d.long_minutes,
        fixed(d.long_seconds),
        d.long_direction,
        fixed(d.altitude, "m"),
        fixed(d.size, "m"),
        fixed(d.precision_horz, "m"),
        fixed(d.precision_vert, "m"),
      ].join(" ");
    default:
      return DATA_SPECS[type].map(([f]) => d[f]).join(" ");
  }
}

/** The record's own `priority` field for structured types that have one in data (SRV, URI takes its own). */
export const priorityFromData = (type: string, d: Record<string, number | string>): number | undefined =>
  type === "SRV" ? Number(d.priority) : undefined;

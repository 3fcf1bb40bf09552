/**
 * The edge service's DNS record rules, as the real service applies them: name expansion, per-type content checks,
 * canonical IPv6, proxy eligibility, the prohibited (private) addresses of code 1004, and TTL bounds.
 */
import { BlockList, isIPv4, isIPv6 } from "node:net";
import { HttpError } from "../kit";

/** Types whose value is `content`; the structured ones (record-data.ts) take `data`. */
export const CONTENT_TYPES = ["A", "AAAA", "CNAME", "MX", "TXT", "NS", "PTR", "OPENPGPKEY"] as const;
const PROXIABLE = new Set(["A", "AAAA", "CNAME"]);

const prohibited = new BlockList();
for (const [net, bits] of [
  ["10.0.0.0", 8],
  ["172.16.0.0", 12],
  ["192.168.0.0", 16],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["100.64.0.0", 10],
  ["0.0.0.0", 8],
] as const) {
  prohibited.addSubnet(net, bits, "ipv4");
}
for (const [net, bits] of [
  ["fc00::", 7],
  ["fe80::", 10],
  ["::1", 128],
  ["::", 128],
] as const)
  prohibited.addSubnet(net, bits, "ipv6");

export function fail(status: number, code: number, message: string): never {
  throw new HttpError({ status, body: { success: false, errors: [{ code, message }], messages: [], result: null } });
}

const LABEL = /^(\*|[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)$/;

export function isHostname(name: string): boolean {
  const n = name.replace(/\.$/, "").toLowerCase();
  return n.length > 0 && n.length <= 253 && n.split(".").every((l, i) => LABEL.test(l) && (l !== "*" || i === 0));
}

/** `@` and bare labels are relative to the zone; answers always carry the full lowercase name. */
export function expandName(name: unknown, zone: string): string {
  if (typeof name !== "string" || !name) fail(400, 9000, "DNS name is invalid.");
  const n = (name as string).toLowerCase().replace(/\.$/, "");
  const full = n === "@" ? zone : n === zone || n.endsWith(`.${zone}`) ? n : `${n}.${zone}`;
  if (!isHostname(full)) fail(400, 9000, "DNS name is invalid.");
  return full;
}

export function canonicalContent(type: string, content: unknown): string {
  if (typeof content !== "string" || !content) fail(400, 9005, `Content for ${type} record is invalid.`);
  const c = content as string;
  switch (type) {
    case "A":
      if (!isIPv4(c)) fail(400, 9005, "Content for A record is invalid. Must be a valid IPv4 address");
      return c;
    case "AAAA":
      if (!isIPv6(c)) fail(400, 9005, "Content for AAAA record is invalid. Must be a valid IPv6 address");
      return new URL(`http://[${c}]/`).hostname.slice(1, -1);
    case "CNAME":
    case "MX":
    case "NS":
    case "PTR":
      if (!isHostname(c)) fail(400, 9005, `Content for ${type} record is invalid. Must be a valid host name`);
      return c.replace(/\.$/, "");
    case "OPENPGPKEY":
      if (!/^[A-Za-z0-9+/]+={0,2}$/.test(c.replace(/\s+/g, "")))
        fail(400, 9005, "Content for OPENPGPKEY record is invalid. Must be base64");
      return c.replace(/\s+/g, "");
    case "TXT": {
      // The limit is the text's: a value the service split into quoted strings is still the same 2,048 characters.
      const text = QUOTED_STRINGS.test(c) ? [...c.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]).join("") : c;
      if (text.length > 2048) fail(400, 9005, "Content for TXT record is invalid. Must be at most 2048 characters");
      return txtStrings(c);
    }
    default:
      return c;
  }
}

export function isProhibited(type: string, content: string): boolean {
  if (type === "A") return prohibited.check(content, "ipv4");
  if (type === "AAAA") return prohibited.check(content, "ipv6");
  return false;
}

export interface StoredRecord {
  id: string;
  zone_id: string;
  zone_name: string;
  name: string;
  type: string;
  content: string;
  data?: Record<string, number | string>;
  proxiable: boolean;
  proxied: boolean;
  ttl: number;
  priority?: number;
  comment: string | null;
  tags: string[];
  /** `ipv4_only`, `ipv6_only`, `flatten_cname`: always present (`{}`; a CNAME's `{flatten_cname: false}`). */
  settings: { ipv4_only?: boolean; ipv6_only?: boolean; flatten_cname?: boolean };
  /** `read_only`: a record the service made and keeps (a Worker's custom domain's), refused to writes. */
  meta: { auto_added: boolean; read_only?: boolean; origin_worker_id?: string };
  created_on: string;
  modified_on: string;
}

/** Validates a full record (after a create body or a PATCH merged over the stored record). */
export function validateRecord(
  r: { type?: unknown; ttl?: unknown; proxied?: unknown; priority?: unknown; comment?: unknown },
  known: readonly string[],
): void {
  const type = String(r.type);
  if (!known.includes(type)) fail(400, 9007, `DNS record type "${type}" is invalid.`);
  const ttl = r.ttl;
  // 30 is the minimum on Enterprise zones (the zone's plan is checked where the record is built).
  if (typeof ttl !== "number" || !Number.isInteger(ttl) || (ttl !== 1 && (ttl < 30 || ttl > 86400))) {
    fail(400, 9021, "Invalid TTL. Must be between 60 and 86400 seconds, or 1 for Automatic.");
  }
  if (typeof r.proxied !== "boolean") fail(400, 9003, "Invalid 'proxied' value, must be a boolean.");
  if (r.proxied && !PROXIABLE.has(type)) fail(400, 9004, `This record type cannot be proxied.`);
  if ((type === "MX" || type === "URI") && (typeof r.priority !== "number" || r.priority < 0 || r.priority > 65535)) {
    fail(400, 9101, `Priority must be set for ${type} records (0 to 65535).`);
  }
  if (r.comment !== undefined && r.comment !== null && (typeof r.comment !== "string" || r.comment.length > 500)) {
    fail(400, 9102, "Comment must be a string of at most 500 characters.");
  }
}

export function proxiable(type: string): boolean {
  return PROXIABLE.has(type);
}

/**
 * A zone's records by id, with an index by name: the rules that compare a record with the others of its name
 * (81044, the CNAME rule) look at those alone, so a zone of 100,000 records takes a write in constant time.
 */
export class RecordMap extends Map<string, StoredRecord> {
  // No initializer: Map's constructor calls set() before a field initializer would run (and then reset it).
  declare private byName?: Map<string, Set<string>>;

  override set(id: string, rec: StoredRecord): this {
    const index = (this.byName ??= new Map());
    const old = this.get(id);
    if (old && old.name !== rec.name) index.get(old.name)?.delete(id);
    super.set(id, rec);
    let ids = index.get(rec.name);
    if (!ids) index.set(rec.name, (ids = new Set()));
    ids.add(id);
    return this;
  }

  override delete(id: string): boolean {
    const old = this.get(id);
    if (old) this.byName?.get(old.name)?.delete(id);
    return super.delete(id);
  }

  override clear(): void {
    this.byName?.clear();
    super.clear();
  }

  /** The records of one name. */
  named(name: string): StoredRecord[] {
    return [...(this.byName?.get(name) ?? [])].map((id) => this.get(id)).filter((r): r is StoredRecord => r?.name === name);
  }
}

const QUOTED_STRINGS = /^"(?:[^"\\]|\\.)*"(?:\s+"(?:[^"\\]|\\.)*")*$/;

/**
 * A TXT value as the service stores and answers it (its TXT record model: quoted character strings of up to 255
 * bytes each, longer ones split): a value of at most 255 bytes given as one string stays as given; a longer one, or
 * one given as quoted strings with a string over 255 bytes, comes back as quoted strings of at most 255 bytes.
 */
export function txtStrings(content: string): string {
  const quoted = QUOTED_STRINGS.test(content);
  const strings = quoted ? [...content.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1].replace(/\\(.)/g, "$1")) : [content];
  if (strings.every((x) => Buffer.byteLength(x) <= 255)) return content;
  const pieces: string[] = [];
  for (const text of strings) {
    let piece = "";
    for (const ch of text) {
      if (Buffer.byteLength(piece + ch) > 255) {
        pieces.push(piece);
        piece = "";
      }
      piece += ch;
    }
    pieces.push(piece);
  }
  return pieces.map((p) => `"${p.replace(/["\\]/g, (c) => `\\${c}`)}"`).join(" ");
}

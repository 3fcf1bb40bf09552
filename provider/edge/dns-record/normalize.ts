/**
 * How DNS record values compare. The service answers with full lowercase names, canonical IPv6 and host names
 * without a trailing dot; comparing through these functions is what keeps a second `up` free of phantom diffs.
 */
import { BlockList, isIPv4, isIPv6 } from "node:net";
import { DATA_TYPES, dataKey, isDataType, normalizeData, type RecordData } from "./data";
import { isHostname } from "./names";

export { aRecord, fullName, isHostname, normalizeName } from "./names";

/** The types whose value is `content` (text); the others (DATA_TYPES) take structured `data`. */
export const CONTENT_TYPES = ["A", "AAAA", "CNAME", "MX", "TXT", "NS", "PTR", "OPENPGPKEY"] as const;
export const RECORD_TYPES = [...CONTENT_TYPES, ...DATA_TYPES] as const;
export type RecordType = (typeof RECORD_TYPES)[number];
export const PROXIABLE_TYPES: readonly string[] = ["A", "AAAA", "CNAME"];
/** Types whose priority is a field of the record itself (SRV, HTTPS and SVCB carry theirs in data). */
export const PRIORITY_TYPES: readonly string[] = ["MX", "URI"];
/** Host-name values: compared lowercase without the trailing dot. */
const HOST_TYPES = ["CNAME", "MX", "NS", "PTR"];

export function canonicalIPv6(address: string): string {
  return new URL(`http://[${address}]/`).hostname.slice(1, -1);
}

/** The spelling the service stores for `content` of a record of `type`. */
export function normalizeContent(type: string, content: string): string {
  if (type === "AAAA" && isIPv6(content)) return canonicalIPv6(content);
  if (HOST_TYPES.includes(type)) return content.toLowerCase().replace(/\.$/, "");
  if (type === "OPENPGPKEY") return content.replace(/\s+/g, "");
  return content;
}

/** A TXT value as RFC 1035 character strings: `"v=DKIM1; " "p=MIIB..."`. */
const QUOTED = /^"(?:[^"\\]|\\.)*"(?:\s+"(?:[^"\\]|\\.)*")*$/;

/**
 * A TXT value's text: the service stores a value over 255 bytes as quoted strings of at most 255 bytes each (`"..."
 * "..."`, its TXT record model), and may answer a value given as one string so; the strings joined are the text a
 * resolver's client reads. Any other content is its own text.
 */
export function txtText(content: string): string {
  if (!QUOTED.test(content)) return content;
  return [...content.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1].replace(/\\(.)/g, "$1")).join("");
}

/** What two values of `type` are compared as: the stored spelling, and for TXT the text however it is split. */
export function comparableContent(type: string, content: string): string {
  return type === "TXT" ? txtText(content) : normalizeContent(type, content);
}

/** Why `content` is not acceptable for `type`, or undefined when it is. */
export function contentProblem(type: string, content: string): string | undefined {
  switch (type) {
    case "A":
      return isIPv4(content) ? undefined : `content must be an IPv4 address for an A record (e.g. 203.0.113.10), got "${content}"`;
    case "AAAA":
      return isIPv6(content) ? undefined : `content must be an IPv6 address for an AAAA record (e.g. 2001:db8::10), got "${content}"`;
    case "CNAME":
    case "MX":
    case "NS":
    case "PTR":
      return isHostname(content) && !content.includes("*")
        ? undefined
        : `content must be a host name for a ${type} record (e.g. target.example.net), got "${content}"`;
    case "OPENPGPKEY":
      return /^[A-Za-z0-9+/]+={0,2}$/.test(content.replace(/\s+/g, ""))
        ? undefined
        : "content must be the OpenPGP public key in base64 for an OPENPGPKEY record (RFC 7929)";
    default:
      if (content.length > 2048) return "content of a TXT record must be at most 2048 characters";
      return /[\u0000-\u001f\u007f]/.test(content) ? "content must not contain control characters" : undefined;
  }
}

const prohibited = new BlockList();
prohibited.addSubnet("10.0.0.0", 8, "ipv4");
prohibited.addSubnet("172.16.0.0", 12, "ipv4");
prohibited.addSubnet("192.168.0.0", 16, "ipv4");
prohibited.addSubnet("127.0.0.0", 8, "ipv4");
prohibited.addSubnet("169.254.0.0", 16, "ipv4");
prohibited.addSubnet("100.64.0.0", 10, "ipv4");
prohibited.addSubnet("0.0.0.0", 8, "ipv4");
prohibited.addSubnet("fc00::", 7, "ipv6");
prohibited.addSubnet("fe80::", 10, "ipv6");
prohibited.addAddress("::1", "ipv6");
prohibited.addAddress("::", "ipv6");

/** Addresses the proxy refuses to serve (API error 9041). */
export function isPrivateAddress(type: string, content: string): boolean {
  if (type === "A" && isIPv4(content)) return prohibited.check(content, "ipv4");
  if (type === "AAAA" && isIPv6(content)) return prohibited.check(content, "ipv6");
  return false;
}

export function sameContent(type: string, a: string, b: string): boolean {
  return comparableContent(type, a) === comparableContent(type, b);
}

/**
 * One string equal for equal values of a record of `type`: its content as the service stores it, or its data's
 * fields in RFC order. MX and URI keep their priority beside the value, so it is part of it.
 */
export function recordValue(
  type: string,
  content: string | undefined,
  data: Record<string, unknown> | undefined,
  priority?: number,
): string {
  const value = isDataType(type) ? (data ? dataKey(type, normalizeData(type, data)) : "") : comparableContent(type, content ?? "");
  return type === "MX" || type === "URI" ? `${priority ?? ""} ${value}` : value;
}

export type { RecordData };

/** A record's value as `recordValue` sees it, from a record of the service or a body for it. */
export const valueOf = (r: { type?: string; content?: string; data?: Record<string, unknown> | null; priority?: number }): string =>
  recordValue(r.type ?? "", r.content, r.data ?? undefined, r.priority);

/** Do two records (of the service, or bodies) hold the same value? */
export const sameValue = (a: Parameters<typeof valueOf>[0], b: Parameters<typeof valueOf>[0]): boolean =>
  a.type === b.type && valueOf(a) === valueOf(b);

/**
 * How DNS record values compare. The service answers with full lowercase names, canonical IPv6 and host names
 * without a trailing dot; comparing through these functions is what keeps a second `up` free of phantom diffs.
 */
import { BlockList, isIPv4, isIPv6 } from "node:net";

export const RECORD_TYPES = ["A", "AAAA", "CNAME", "MX", "TXT", "NS"] as const;
export type RecordType = (typeof RECORD_TYPES)[number];
export const PROXIABLE_TYPES: readonly string[] = ["A", "AAAA", "CNAME"];

const LABEL = /^(\*|[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)$/;

/** A DNS name: dot-separated labels of letters, digits, `-` and `_`, an optional leading `*`, at most 253. */
export function isHostname(value: string): boolean {
  const n = value.toLowerCase().replace(/\.$/, "");
  return n.length > 0 && n.length <= 253 && n.split(".").every((l, i) => LABEL.test(l) && (l !== "*" || i === 0));
}

/** `@`, a label or a full name, lowercased and without a trailing dot. */
export function normalizeName(name: string): string {
  return name === "@" ? "@" : name.toLowerCase().replace(/\.$/, "");
}

/** The full name the service reports for `name` in `zone`. */
export function fullName(name: string, zone: string): string {
  const n = normalizeName(name);
  const z = zone.toLowerCase().replace(/\.$/, "");
  if (n === "@" || n === z) return z;
  return n.endsWith(`.${z}`) ? n : `${n}.${z}`;
}

export function canonicalIPv6(address: string): string {
  return new URL(`http://[${address}]/`).hostname.slice(1, -1);
}

/** The spelling the service stores for `content` of a record of `type`. */
export function normalizeContent(type: string, content: string): string {
  if (type === "AAAA" && isIPv6(content)) return canonicalIPv6(content);
  if (type === "CNAME" || type === "MX" || type === "NS") return content.toLowerCase().replace(/\.$/, "");
  return content;
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
      return isHostname(content) && !content.includes("*") ? undefined : `content must be a host name for a ${type} record (e.g. target.example.net), got "${content}"`;
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

/** Addresses the proxy refuses to serve (API error 1004). */
export function isPrivateAddress(type: string, content: string): boolean {
  if (type === "A" && isIPv4(content)) return prohibited.check(content, "ipv4");
  if (type === "AAAA" && isIPv6(content)) return prohibited.check(content, "ipv6");
  return false;
}

export function sameContent(type: string, a: string, b: string): boolean {
  return normalizeContent(type, a) === normalizeContent(type, b);
}

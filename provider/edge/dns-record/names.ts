/** DNS names as the service compares them: lowercase, without the trailing dot, relative to the zone or full. */

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

/** "an A record", "a CNAME record": the article a type's name takes when read aloud, letter by letter. */
export const aRecord = (type: string) => `${/^[AEFHILMNORSX]/.test(type) ? "an" : "a"} ${type} record`;

/** URL patterns with `*` wildcards, as page rules and rate limits match requests: `[scheme://]host[:port][/path]`. */
const PATTERN = /^(?:(?:\*|https?):\/\/)?(?<host>[a-z0-9*_-]+(?:\.[a-z0-9*_-]+)*)(?::(?:\d{1,5}|\*))?(?<path>\/[^\s]*)?$/i;

/** Why `pattern` is not a URL pattern (or does not belong to `zone` when that is known), else undefined. */
export function urlPatternProblem(pattern: string, zone?: string): string | undefined {
  if (pattern.length > 2048) return "a URL pattern must be at most 2048 characters";
  const m = PATTERN.exec(pattern);
  if (!m || /[\u0000-\u001f\u007f]/.test(pattern)) {
    return `"${pattern}" is not a URL pattern: write [http(s)://]host[/path], with * as a wildcard, e.g. example.com/static/*`;
  }
  const host = m.groups!.host.toLowerCase().replace(/^\*\.?/, "");
  // `*` alone is any host of the zone.
  if (zone && host && !host.includes("*") && host !== zone && !host.endsWith(`.${zone}`)) {
    return `"${pattern}" is outside the zone ${zone}: its host must be ${zone} or a subdomain of it`;
  }
  return undefined;
}

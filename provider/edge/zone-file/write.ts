/**
 * Records written as a zone file (RFC 1035 master file) that BIND, dnspython and `parseZoneFile` read back as the
 * same records: names relative to `$ORIGIN`, host names absolute, texts quoted and cut into strings of at most 255
 * bytes, structured types in their RFC presentation format. A proxied record carries the service's own marker
 * (`; cf_tags=cf-proxied:true`, as its export writes it), which `parseZoneFile` reads back; so do a record's tags
 * (`name:value` items of the same list; one whose value holds a space or a comma, which the list cannot carry, is
 * left out) and its CNAME flattening (`cf-flatten-cname`, as the service's export marks it). BIND has no field for
 * either: they ride in the comment, which BIND and dnspython ignore.
 */
import { isDataType, presentData } from "../dns-record/data";

export interface WritableRecord {
  type: string;
  name: string;
  content?: string;
  data?: Record<string, number | string>;
  ttl?: number;
  proxied?: boolean;
  priority?: number;
  tags?: string[];
  settings?: { flattenCname?: boolean };
}

/** The service's export marker list: tags, then its own `cf-` items. */
function marker(r: WritableRecord): string {
  const items = [
    ...(r.tags ?? []).filter((t) => !/[\s,]/.test(t)),
    ...(r.proxied ? ["cf-proxied:true"] : []),
    ...(r.settings?.flattenCname ? ["cf-flatten-cname"] : []),
  ];
  return items.length ? ` ; cf_tags=${items.join(",")}` : "";
}

const HOST_TYPES = new Set(["CNAME", "NS", "PTR", "MX"]);

/** A text as quoted strings of at most 255 bytes, `"` and `\` escaped, bytes outside printable ASCII as `\DDD`. */
export function quoteText(text: string): string {
  const bytes = Buffer.from(text);
  const parts: string[] = [];
  for (let at = 0; at < bytes.length || (at === 0 && !parts.length); at += 255) {
    let s = "";
    for (const b of bytes.subarray(at, at + 255))
      s +=
        b === 0x22 || b === 0x5c
          ? `\\${String.fromCharCode(b)}`
          : b < 0x20 || b > 0x7e
            ? `\\${String(b).padStart(3, "0")}`
            : String.fromCharCode(b);
    parts.push(`"${s}"`);
    if (!bytes.length) break;
  }
  return parts.join(" ");
}

function rdata(r: WritableRecord): string {
  if (isDataType(r.type)) return `${r.type === "URI" ? `${r.priority} ` : ""}${presentData(r.type, r.data ?? {})}`;
  const content = r.content ?? "";
  if (r.type === "TXT") return quoteText(content);
  if (HOST_TYPES.has(r.type)) return `${r.type === "MX" ? `${r.priority} ` : ""}${content.replace(/\.$/, "")}.`;
  return content;
}

/** The zone file of `records` (a record set's, or a listing's) for the zone `origin`, sorted by name and type. */
export function toZoneFile(records: WritableRecord[] | Record<string, WritableRecord>, origin: string): string {
  const zone = origin.toLowerCase().replace(/\.$/, "");
  const list = (Array.isArray(records) ? records : Object.values(records)).map((r) => {
    const n = r.name.toLowerCase().replace(/\.$/, "");
    const name = n === "@" || n === zone ? "@" : n.endsWith(`.${zone}`) ? n.slice(0, -zone.length - 1) : n;
    return { ...r, name };
  });
  list.sort((a, b) =>
    a.name === b.name
      ? a.type.localeCompare(b.type) || rdata(a).localeCompare(rdata(b))
      : a.name === "@"
        ? -1
        : b.name === "@"
          ? 1
          : a.name.localeCompare(b.name),
  );
  const width = Math.min(40, Math.max(1, ...list.map((r) => r.name.length)));
  const lines = list.map((r) => `${r.name.padEnd(width)} ${String(r.ttl ?? 1).padStart(5)} IN ${r.type.padEnd(6)} ${rdata(r)}${marker(r)}`);
  return [`$ORIGIN ${zone}.`, ...lines, ""].join("\n");
}

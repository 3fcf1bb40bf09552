/**
 * A standard zone file (RFC 1035 master file, as BIND writes it) read into the records of an
 * `ops.edge.DnsRecordSet`: `$ORIGIN`, `$TTL`, `@`, relative and absolute names, an omitted owner (the previous
 * one), TTLs with units (`1h30m`), the class, parentheses over several lines, `;` comments, quoted strings with
 * escapes. Nothing is sent anywhere: it is text in, records out.
 *
 * Keys are `<type>:<name>` (`A:www`, `MX:@`), with `:2`, `:3` for the second and third record of the same type and
 * name in file order: a record whose content changes in the file keeps its key, so the set updates it in place.
 * The SOA and the apex NS records are the service's own (it answers for the zone with its own name servers), so
 * they are left out and listed in `skipped`, as the service's own zone-file import does. A type the set does not
 * manage is refused with its line, or skipped and listed with `skipUnsupported`.
 */
import { RECORD_TYPES } from "./dns-record/normalize";

export interface ZoneFileRecord {
  type: (typeof RECORD_TYPES)[number];
  name: string;
  content: string;
  ttl: number;
  priority?: number;
}

export interface ZoneFile {
  records: Record<string, ZoneFileRecord>;
  skipped: { line: number; type: string; name: string; reason: string }[];
}

export class ZoneFileError extends Error {
  constructor(line: number, message: string, remedy: string) {
    super(`zone file, line ${line}: ${message}. ${remedy}`);
    this.name = "ZoneFileError";
  }
}

type Token = { text: string; quoted: boolean };
type Entry = { line: number; startsBlank: boolean; tokens: Token[] };

const TYPES = new Set<string>(RECORD_TYPES);
const UNIT: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400, w: 604800 };

/** `3600`, `1h`, `1h30m`, `1W`: seconds, or undefined when `text` is not a TTL. */
function ttlOf(text: string): number | undefined {
  if (/^\d+$/.test(text)) return Number(text);
  if (!/^(\d+[smhdw])+$/i.test(text)) return undefined;
  return [...text.toLowerCase().matchAll(/(\d+)([smhdw])/g)].reduce((s, [, n, u]) => s + Number(n) * UNIT[u], 0);
}

/** The text of one quoted string or word, its `\X` and `\DDD` escapes resolved. */
function unescape(raw: string): string {
  return raw.replace(/\\(\d{3}|.)/g, (_, e: string) => (e.length === 3 ? String.fromCharCode(Number(e)) : e));
}

/** The file as entries: one per record or directive, parentheses joining lines, comments and blank lines gone. */
function entries(text: string): Entry[] {
  const out: Entry[] = [];
  let current: Entry | undefined;
  let depth = 0;
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (!current) current = { line: i + 1, startsBlank: /^[ \t]/.test(line), tokens: [] };
    let at = 0;
    while (at < line.length) {
      const c = line[at];
      if (c === ";") break;
      if (c === " " || c === "\t") at++;
      else if (c === "(") (depth++, at++);
      else if (c === ")") {
        if (--depth < 0) throw new ZoneFileError(i + 1, "a `)` closes no `(`", "Remove it or add the `(` it closes");
        at++;
      } else if (c === '"') {
        const m = /^"((?:[^"\\]|\\.)*)"/.exec(line.slice(at));
        if (!m) throw new ZoneFileError(i + 1, "a quoted string is not closed on its line", 'Close it with `"`, or split a long text into several quoted strings');
        current.tokens.push({ text: unescape(m[1]), quoted: true });
        at += m[0].length;
      } else {
        const m = /^(?:[^\s;()"\\]|\\.)+/.exec(line.slice(at));
        if (!m) throw new ZoneFileError(i + 1, "a `\\` ends the line with nothing to escape", "Remove it, or write `\\\\` for a backslash");
        current.tokens.push({ text: unescape(m[0]), quoted: false });
        at += m[0].length;
      }
    }
    if (depth === 0) {
      if (current.tokens.length) out.push(current);
      current = undefined;
    }
  }
  if (depth > 0 && current) throw new ZoneFileError(current.line, "a `(` is not closed before the end of the file", "Close it with `)`");
  return out;
}

/** `name` (as written) as a full name without the trailing dot, relative ones under `origin`. */
function absolute(name: string, origin: string): string {
  if (name === "@") return origin;
  if (name.endsWith(".")) return name.slice(0, -1).toLowerCase();
  return `${name}.${origin}`.toLowerCase();
}

/** A full name as the set's record name: `@` for the apex, else the part before the zone's name. */
function relative(full: string, zone: string, line: number): string {
  if (full === zone) return "@";
  if (full.endsWith(`.${zone}`)) return full.slice(0, -zone.length - 1);
  throw new ZoneFileError(line, `${full} is outside the zone ${zone}`, "A record set holds the records of one zone: remove the line or move it to that zone's file");
}

export function parseZoneFile(text: string, options: { origin: string; skipUnsupported?: boolean }): ZoneFile {
  const zone = options.origin.toLowerCase().replace(/\.$/, "");
  let origin = zone;
  let defaultTtl: number | undefined;
  let lastTtl: number | undefined;
  let owner: string | undefined;
  const records: ZoneFile["records"] = {};
  const skipped: ZoneFile["skipped"] = [];
  const seen = new Map<string, number>();
  for (const { line, startsBlank, tokens } of entries(text)) {
    const words = tokens.map((t) => t.text);
    const directive = tokens[0].quoted ? "" : words[0].toUpperCase();
    if (directive === "$ORIGIN") {
      if (!words[1]) throw new ZoneFileError(line, "$ORIGIN needs a name", "Write `$ORIGIN example.com.`");
      origin = absolute(words[1], origin);
      continue;
    }
    if (directive === "$TTL") {
      defaultTtl = ttlOf(words[1] ?? "");
      if (defaultTtl === undefined) throw new ZoneFileError(line, `$TTL needs a time such as 3600 or 1h, got "${words[1] ?? ""}"`, "Write `$TTL 3600`");
      continue;
    }
    if (directive.startsWith("$")) throw new ZoneFileError(line, `${words[0]} is not supported`, "Inline the records it would bring ($INCLUDE) or write them out ($GENERATE)");
    let rest = tokens;
    if (!startsBlank) {
      owner = absolute(words[0], origin);
      rest = tokens.slice(1);
    }
    if (!owner) throw new ZoneFileError(line, "the first record has no name", "Start the line with the record's name, or @ for the zone apex");
    let ttl: number | undefined;
    // TTL and class come in either order before the type.
    for (let k = 0; k < 2 && rest.length; k++) {
      const word = rest[0].text;
      const seconds = ttl === undefined ? ttlOf(word) : undefined;
      if (seconds !== undefined) ttl = lastTtl = seconds;
      else if (/^(IN|CH|HS|CS)$/i.test(word)) {
        if (word.toUpperCase() !== "IN") throw new ZoneFileError(line, `the class ${word} is not the Internet's`, "Use IN, or leave the class out");
      } else break;
      rest = rest.slice(1);
    }
    const type = rest[0]?.text.toUpperCase();
    if (!type) throw new ZoneFileError(line, "the record has no type", "Write it as `name [ttl] [IN] type data`, e.g. `www 3600 IN A 203.0.113.10`");
    const data = rest.slice(1);
    const name = relative(owner, zone, line);
    if (type === "SOA") {
      // With no $TTL, a record without a TTL takes the SOA's minimum, as BIND does.
      const minimum = ttlOf(data[6]?.text ?? "");
      if (defaultTtl === undefined && minimum !== undefined) defaultTtl = minimum;
      skipped.push({ line, type, name, reason: "the service keeps the zone's SOA itself" });
      continue;
    }
    if (type === "NS" && name === "@") {
      skipped.push({ line, type, name, reason: "the service answers for the zone with its own name servers" });
      continue;
    }
    if (!TYPES.has(type)) {
      if (options.skipUnsupported) {
        skipped.push({ line, type, name, reason: `a record set manages ${RECORD_TYPES.join(", ")} records` });
        continue;
      }
      throw new ZoneFileError(line, `${type} records are not managed by a record set (${RECORD_TYPES.join(", ")})`, "Remove the line, or pass `skipUnsupported: true` to leave such records out and list them in `skipped`");
    }
    // An omitted TTL is $TTL's, else the last one written (RFC 2308, RFC 1035).
    ttl ??= defaultTtl ?? lastTtl;
    if (ttl === undefined) throw new ZoneFileError(line, "the record has no TTL, and no $TTL or earlier TTL gives one", "Put `$TTL 3600` at the top of the file");
    const need = type === "MX" ? 2 : 1;
    if (data.length < need || (type !== "TXT" && data.length > need)) {
      throw new ZoneFileError(line, `${type} data is ${type === "MX" ? "a preference and a host name" : type === "TXT" ? "one or more strings" : "one value"}, got ${data.length} item(s)`, "Check the line against `name [ttl] [IN] type data`");
    }
    const record: ZoneFileRecord = { type: type as ZoneFileRecord["type"], name, ttl, content: "" };
    if (type === "TXT") record.content = data.map((t) => t.text).join("");
    else if (type === "MX") {
      record.priority = Number(data[0].text);
      if (!/^\d+$/.test(data[0].text)) throw new ZoneFileError(line, `an MX record's preference must be a number, got "${data[0].text}"`, "Write it as `@ MX 10 mail.example.com.`");
      record.content = absolute(data[1].text, origin);
    } else if (type === "CNAME" || type === "NS") record.content = absolute(data[0].text, origin);
    else record.content = data[0].text;
    const base = `${type}:${name}`;
    const count = (seen.get(base) ?? 0) + 1;
    seen.set(base, count);
    records[count === 1 ? base : `${base}:${count}`] = record;
  }
  return { records, skipped };
}

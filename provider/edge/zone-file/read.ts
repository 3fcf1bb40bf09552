/**
 * A standard zone file (RFC 1035 master file, as BIND writes it) read into the records of an
 * `ops.edge.DnsRecordSet`: `$ORIGIN` (also mid-file), `$TTL`, `@`, relative and absolute names, IDN names, an
 * omitted owner (the previous one), TTLs with units (`1h30m`), the class, parentheses over several lines, `;`
 * comments, quoted strings with `\X` and `\DDD` escapes, and every record type the service manages. It reads what
 * dnspython reads, and refuses what it refuses (the test suite holds the two side by side). Nothing is sent.
 *
 * Keys: `<type>:<name>` (`A:www`, `MX:@`) for the only record of its type and name, `<type>:<name>:<value>` when
 * there are several (`A:@:203.0.113.10`; a long or unusual value gives a short hash instead). A key follows the
 * record's value, not its place in the file: reordering lines changes nothing, inserting one is one add, and the
 * record set matches a changed value to its old record by type and name, so it is one change.
 *
 * The SOA and the apex NS records are the service's own (it answers with its own name servers), so they are left
 * out and listed in `skipped`, as the service's own zone-file import does. A known type the service does not
 * manage (HINFO, RP, ...) is refused with its line, or, with `skipUnsupported`, skipped whole and listed. Nothing
 * else is ever skipped: a line that is not a record is an error.
 */
import { createHash } from "node:crypto";
import { domainToASCII } from "node:url";
import { explainIssue } from "../../issue-text";
import { SetRecord } from "../dns-record-set/schema";
import { aRecord, RECORD_TYPES, valueOf } from "../dns-record/normalize";
import { entries, ZoneFileError } from "./lexer";
import { readValue } from "./rdata";

export { ZoneFileError } from "./lexer";

export interface ZoneFileRecord {
  type: (typeof RECORD_TYPES)[number];
  name: string;
  content?: string;
  data?: Record<string, number | string>;
  ttl: number;
  priority?: number;
  /** Set from the service's own export marker, `; cf_tags=cf-proxied:true`. */
  proxied?: boolean;
  /** The record's tags, from the same marker's `name:value` items. */
  tags?: string[];
  /** `cf-flatten-cname` in the marker. */
  settings?: { flattenCname?: boolean };
}

export interface ZoneFile {
  records: Record<string, ZoneFileRecord>;
  skipped: { line: number; type: string; name: string; reason: string }[];
  /** The line each record was read from, by key (for messages about a record). */
  lines: Record<string, number>;
}

const MANAGED = new Set<string>(RECORD_TYPES);
/** Types of the IANA registry that a zone file may hold and the service does not manage. */
const OTHER_TYPES = new Set(
  (
    "MD MF MB MG MR NULL WKS HINFO MINFO RP AFSDB X25 ISDN RT NSAP NSAP-PTR SIG KEY PX GPOS NXT EID NIMLOC ATMA KX A6 DNAME " +
    "SINK APL IPSECKEY RRSIG NSEC DHCID NSEC3 NSEC3PARAM HIP NINFO RKEY TALINK CDS CDNSKEY OPENPGPKEY CSYNC ZONEMD SPF " +
    "UINFO UID GID UNSPEC NID L32 L64 LP EUI48 EUI64 AVC DOA AMTRELAY RESINFO WALLET TA DLV"
  ).split(" "),
);
const UNIT: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400, w: 604800 };

/** `3600`, `1h`, `1h30m`, `1W`: seconds, or undefined when `text` is not a TTL (BIND's and dnspython's reading). */
function ttlOf(text: string): number | undefined {
  const n = /^\d+$/.test(text)
    ? Number(text)
    : /^(\d+[smhdw])+$/i.test(text)
      ? [...text.toLowerCase().matchAll(/(\d+)([smhdw])/g)].reduce((s, [, v, u]) => s + Number(v) * UNIT[u], 0)
      : undefined;
  return n !== undefined && n <= 2 ** 32 - 1 ? n : undefined;
}

/** A name as written made absolute under `origin`: lowercase, no trailing dot, IDN labels in their ASCII form. */
function absolute(name: string, origin: string, line: number): string {
  if (name === "@") return origin;
  const full = name.endsWith(".") ? name.slice(0, -1) : `${name}.${origin}`;
  if (/[^\x00-\x7f]/.test(full)) {
    const ascii = domainToASCII(full);
    if (!ascii)
      throw new ZoneFileError(
        line,
        `${name} is not a valid internationalised name`,
        "Write it in its ASCII form (xn--...) or check its spelling",
      );
    return ascii;
  }
  return full.toLowerCase();
}

/** A full name as the set's record name: `@` for the apex, else the part before the zone's name. */
function relative(full: string, zone: string, line: number): string {
  if (full === zone) return "@";
  if (full.endsWith(`.${zone}`)) return full.slice(0, -zone.length - 1);
  throw new ZoneFileError(
    line,
    `${full} is outside the zone ${zone}`,
    "A record set holds the records of one zone: remove the line or move it to that zone's file",
  );
}

const isType = (w: string) => MANAGED.has(w) || OTHER_TYPES.has(w) || /^TYPE\d+$/.test(w) || w === "SOA";

export function parseZoneFile(text: string, options: { origin: string; skipUnsupported?: boolean }): ZoneFile {
  const zone = absolute(options.origin.replace(/\.$/, "") + ".", "", 0);
  let origin = zone;
  let defaultTtl: number | undefined;
  let lastTtl: number | undefined;
  let owner: string | undefined;
  const read: { line: number; record: ZoneFileRecord }[] = [];
  const skipped: ZoneFile["skipped"] = [];
  for (const { line, startsBlank, tokens, comment } of entries(text)) {
    const words = tokens.map((t) => t.text);
    const directive = tokens[0].quoted ? "" : words[0].toUpperCase();
    if (directive === "$ORIGIN") {
      if (!words[1] || tokens.length > 2) throw new ZoneFileError(line, "$ORIGIN takes one name", "Write `$ORIGIN example.com.`");
      origin = absolute(words[1], origin, line);
      continue;
    }
    if (directive === "$TTL") {
      defaultTtl = ttlOf(words[1] ?? "");
      if (defaultTtl === undefined || tokens.length > 2)
        throw new ZoneFileError(line, `$TTL takes one time such as 3600 or 1h, got "${words.slice(1).join(" ")}"`, "Write `$TTL 3600`");
      continue;
    }
    if (directive.startsWith("$"))
      throw new ZoneFileError(
        line,
        `${words[0]} is not supported`,
        "Inline the records it would bring ($INCLUDE) or write them out ($GENERATE)",
      );
    let rest = tokens;
    if (!startsBlank) {
      if (tokens[0].quoted)
        throw new ZoneFileError(
          line,
          `a line starts with the quoted string "${words[0].slice(0, 40)}" where a name belongs`,
          "Start the line with the record's name, or @ for the zone apex",
        );
      owner = absolute(words[0], origin, line);
      rest = tokens.slice(1);
    }
    if (!owner)
      throw new ZoneFileError(line, "the first record has no name", "Start the line with the record's name, or @ for the zone apex");
    let ttl: number | undefined;
    // TTL and class come in either order before the type.
    for (let k = 0; k < 2 && rest.length && !rest[0].quoted; k++) {
      const word = rest[0].text;
      const seconds = ttl === undefined ? ttlOf(word) : undefined;
      if (seconds !== undefined) ttl = seconds;
      else if (/^(IN|CH|HS|CS|CLASS\d+)$/i.test(word)) {
        if (word.toUpperCase() !== "IN")
          throw new ZoneFileError(line, `the class ${word} is not the Internet's`, "Use IN, or leave the class out");
      } else break;
      rest = rest.slice(1);
    }
    const typeToken = rest[0];
    if (!typeToken)
      throw new ZoneFileError(line, "the record has no type", "Write it as `name [ttl] [IN] type data`, e.g. `www 3600 IN A 203.0.113.10`");
    const type = typeToken.text.toUpperCase();
    if (typeToken.quoted || !isType(type)) {
      // Most often the second half of a text continued on a new line without parentheses: never read as a record.
      throw new ZoneFileError(
        line,
        `"${typeToken.text.slice(0, 60)}" is not a record type`,
        startsBlank
          ? 'A line that starts with a space is a new record of the previous name; a text continued over lines must be inside parentheses: `@ TXT ( "first part" "second part" )`'
          : "Write the line as `name [ttl] [IN] type data`, e.g. `www 3600 IN A 203.0.113.10`",
      );
    }
    const name = relative(owner, zone, line);
    if (type === "SOA") {
      // With no $TTL, a record without a TTL takes the SOA's minimum, as BIND does.
      const minimum = ttlOf(rest[7]?.text ?? "");
      if (rest.length !== 8 || minimum === undefined)
        throw new ZoneFileError(
          line,
          `an SOA record has 7 data items (mname rname serial refresh retry expire minimum), got ${rest.length - 1}`,
          "Check the SOA record against RFC 1035's format",
        );
      defaultTtl ??= minimum;
      skipped.push({ line, type, name, reason: "the service keeps the zone's SOA itself" });
      continue;
    }
    ttl ??= defaultTtl ?? lastTtl;
    if (ttl === undefined)
      throw new ZoneFileError(
        line,
        "the record has no TTL, and no $TTL or earlier TTL gives one",
        "Put `$TTL 3600` at the top of the file",
      );
    lastTtl = ttl;
    if (!MANAGED.has(type)) {
      if (options.skipUnsupported) {
        skipped.push({ line, type, name, reason: `the service does not manage ${type} records` });
        continue;
      }
      throw new ZoneFileError(
        line,
        `${type} records are not managed by the service`,
        "Remove the line, or pass `skipUnsupported: true` to leave such records out (each is listed in `skipped`)",
      );
    }
    const value = readValue(type, rest.slice(1), line, (n) => absolute(n, origin, line));
    if (type === "NS" && name === "@") {
      skipped.push({ line, type, name, reason: "the service answers for the zone with its own name servers" });
      continue;
    }
    // The service's export marker: `cf_tags=` a list of the record's tags and its own `cf-` items.
    const items = /\bcf_tags=(\S+)/.exec(comment)?.[1].split(",").filter(Boolean) ?? [];
    const proxied = items.includes("cf-proxied:true");
    const tags = items.filter((t) => !t.startsWith("cf-"));
    const flatten = items.includes("cf-flatten-cname");
    read.push({
      line,
      record: {
        type: type as ZoneFileRecord["type"],
        name,
        ...value,
        ttl,
        ...(proxied ? { proxied } : {}),
        ...(tags.length ? { tags } : {}),
        ...(flatten ? { settings: { flattenCname: true } } : {}),
      },
    });
  }
  return { ...keyed(read), skipped };
}

/**
 * The records under their keys. Records of one type and name are one set in DNS (RFC 2181): a value written twice
 * is one record, and the set's TTL is the lowest given, as dnspython and BIND read it.
 */
function keyed(read: { line: number; record: ZoneFileRecord }[]): Omit<ZoneFile, "skipped"> {
  const groups = new Map<string, { line: number; record: ZoneFileRecord }[]>();
  for (const r of read) {
    const base = `${r.record.type}:${r.record.name}`;
    const group = groups.get(base) ?? [];
    if (!group.some((g) => valueOf(g.record) === valueOf(r.record))) group.push(r);
    groups.set(base, group);
    const ttl = Math.min(...group.map((g) => g.record.ttl), r.record.ttl);
    for (const g of group) g.record.ttl = ttl;
  }
  cnameAlone(groups);
  const records: ZoneFile["records"] = {};
  const lines: ZoneFile["lines"] = {};
  for (const [base, group] of groups) {
    for (const { line, record } of group) {
      const key = keyOf(base, group.length === 1 ? undefined : valueOf(record));
      const checked = SetRecord.safeParse(record, { error: explainIssue });
      if (!checked.success) {
        const issue = checked.error.issues[0];
        throw new ZoneFileError(line, `the ${record.type} record ${record.name} (key ${key}): ${issue.message}`, "Correct the line");
      }
      // As the set will hold it: content and data in the service's spelling (hex lowercase, IPv6 canonical, ...).
      const { proxied, ...normal } = checked.data;
      records[key] = { ...(normal as ZoneFileRecord), ...(proxied ? { proxied } : {}) };
      lines[key] = line;
    }
  }
  return { records, lines };
}

/** A name with a CNAME holds nothing else (RFC 1034 3.6.2), and one CNAME at most, as BIND and dnspython refuse. */
function cnameAlone(groups: Map<string, { line: number; record: ZoneFileRecord }[]>): void {
  const byName = new Map<string, { line: number; record: ZoneFileRecord }[]>();
  for (const group of groups.values()) for (const r of group) byName.set(r.record.name, [...(byName.get(r.record.name) ?? []), r]);
  for (const [name, all] of byName) {
    const cnames = all.filter((r) => r.record.type === "CNAME");
    if (!cnames.length) continue;
    const other = all.find((r) => r !== cnames[0]);
    if (!other) continue;
    const [first, second] = [cnames[0], other].sort((a, b) => a.line - b.line);
    throw new ZoneFileError(
      second.line,
      `${name} has a CNAME (line ${cnames[0].line}) and ${other.record.type === "CNAME" ? "another CNAME" : aRecord(other.record.type)} (line ${other.line}), and a name with a CNAME holds nothing else`,
      `Keep one of lines ${first.line} and ${second.line}, or give one of them another name`,
    );
  }
}

/** A record's key within the set's limit of 128 characters: a long name or value is cut and a hash keeps it unique. */
function keyOf(base: string, value: string | undefined): string {
  const key = value === undefined ? base : `${base}:${slug(value)}`;
  return key.length <= 128 ? key : `${base.slice(0, 100)}:h${hash(key)}`;
}

const hash = (s: string) => createHash("sha256").update(s).digest("hex").slice(0, 10);
/**
 * A value as a key's last part: itself when it is short and plain (an address, a host); else its first words, readable
 * (`v-spf1-include-_spf.example.net-...`), and a short hash that keeps two values of one name apart. Keys of earlier
 * releases (a hash alone) move to these with nothing sent: a set pairs a key that goes with one that comes by value.
 */
const slug = (value: string) => {
  const v = value.trim().replace(/ /g, "-");
  if (v.length <= 48 && /^[A-Za-z0-9._:@*-]+$/.test(v)) return v;
  const words = value
    .replace(/[^A-Za-z0-9._@*]+/g, "-")
    .replace(/^-+/, "")
    .slice(0, 32)
    .replace(/-+$/, "");
  return words ? `${words}-${hash(value).slice(0, 6)}` : `h${hash(value)}`;
};

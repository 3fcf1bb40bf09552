/**
 * The record set's compact form: what the engine carries for a DnsRecordSet of the TypeScript classes (inputs,
 * outputs, state) is one text of a line per record, sorted by key, instead of a map of objects. The engine carries a
 * map of N objects as protobuf Structs at every step (about 16 s per no-op preview for 10,000 records on 2 cores);
 * one string costs it almost nothing, and its display renders a changed multi-line string as a line diff with
 * three lines of context, so a preview and the pull-request comment show exactly the changed records.
 *
 *     www-a A www 300 203.0.113.10
 *     spf TXT @ 300 "v=spf1 -all"
 *     sip SRV _sip._tcp 300 {"priority":10,"weight":5,"port":5060,"target":"sip.example.com"}
 *     apex CNAME @ - example.net {"proxied":true}
 *
 * A line: key, type, name, ttl (`-` when not given), the value, then the other fields as a JSON object when there
 * are any (`proxied: false`, the default, is left out). The value is the content bare when it is one word (an
 * address, a host name), as it is when it is zone-file text (a TXT's `"v=DMARC1; p=reject"`: a reviewer reads the
 * line as a zone file says it, with no escaping), else `=` and a JSON string; data is a JSON object. A record that
 * does not fit (bad input, kept as given so that check names its problem) is `key = <the record as JSON>`; a key
 * outside the key alphabet is a JSON string.
 * The first line, `@records v2`, makes the text neither JSON nor YAML: the display then diffs it line by line
 * instead of decoding it. Outputs end with `@ids` and a line per record, its key and id (an id of 32 hex digits as
 * `~` and 22 base64url characters: a third less state), so a record's line in a refresh's diff reads as in the
 * program; state holds every record once in the inputs and once in the outputs. The class gives ids back as the
 * service spells them. Texts of 0.12 and older (`@records v1`: JSON strings, ids inside the lines) are still read.
 *
 * The typed map stays the program's API (the class encodes and decodes); the handler works on maps, and answers in
 * the form it was asked in: the plugin door's schema keeps maps.
 */
import { isUnknown } from "../../check";

export const HEADER = "@records v2";
/** Outputs end with the records' ids, a line each after this one (`www-a ~AbC...`): a record's line reads as in the inputs. */
export const IDS = "@ids";
/** The first form (0.2 to 0.12), still read: JSON strings for values, ids inside the records' lines. */
export const HEADER_V1 = "@records v1";
export const HEADER_V1_WITH_IDS = "@records v1 with ids";
/** A content that is zone-file text (a TXT's quoted strings, `"v=spf1 -all"` or `"part one" "part two"`): written as it is. */
const QUOTED = /^"(?:[^"\\\n]|\\.)*"(?: "(?:[^"\\\n]|\\.)*")*$/;
const KEY = /^[A-Za-z0-9][A-Za-z0-9._:@*-]*$/;
const WORD = /^[^\s"{}]+$/;
/** A content written bare, without quotes (an address, a host name): one word that cannot be taken for JSON. */
const BARE = /^[^\s"{}\\=-][^\s"{}\\]*$/;
/** An id of 32 hex digits (the service's), written as 22 base64url characters after `~`: a third less state. */
const HEX_ID = /^[0-9a-f]{32}$/;

type Bag = Record<string, unknown>;
/** The fields a line writes in its own places; any other is in the line's trailing JSON. */
const LINE_FIELDS = new Set(["type", "name", "ttl", "content", "data"]);

const keyToken = (key: string) => (KEY.test(key) ? key : JSON.stringify(key));

/**
 * Keys in natural order (host-2 before host-10), the same on every machine: keys are runs of digits and runs of
 * other characters; runs of digits compare as numbers, other runs (and the same number written with other leading
 * zeros, 007 and 7) as text. Without allocating: a set's 10,000 keys are sorted in every program run and every check.
 */
export function byKey(a: string, b: string): number {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const ea = runEnd(a, i);
    const eb = runEnd(b, j);
    const text = compareText(a, i, ea, b, j, eb);
    if (text !== 0) {
      const numbers = isDigit(a.charCodeAt(i)) && isDigit(b.charCodeAt(j)) ? compareNumbers(a, i, ea, b, j, eb) : 0;
      return numbers || text;
    }
    i = ea;
    j = eb;
  }
  // Every run alike so far: the key with runs left comes after.
  return (i < a.length ? 1 : 0) - (j < b.length ? 1 : 0);
}

const isDigit = (c: number) => c >= 48 && c <= 57;

/** Where the run (of digits, or of other characters) that starts at `from` ends. */
function runEnd(s: string, from: number): number {
  const digits = isDigit(s.charCodeAt(from));
  let end = from + 1;
  while (end < s.length && isDigit(s.charCodeAt(end)) === digits) end++;
  return end;
}

/** `a.slice(i, ea)` against `b.slice(j, eb)` as JavaScript compares strings: -1, 0 or 1. */
function compareText(a: string, i: number, ea: number, b: string, j: number, eb: number): number {
  for (; i < ea && j < eb; i++, j++) {
    const d = a.charCodeAt(i) - b.charCodeAt(j);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return i < ea ? 1 : j < eb ? -1 : 0;
}

/** Two runs of digits as numbers of any size: -1, 0 or 1. */
function compareNumbers(a: string, i: number, ea: number, b: string, j: number, eb: number): number {
  while (i < ea - 1 && a.charCodeAt(i) === 48) i++;
  while (j < eb - 1 && b.charCodeAt(j) === 48) j++;
  if (ea - i !== eb - j) return ea - i < eb - j ? -1 : 1;
  return compareText(a, i, ea, b, j, eb);
}

const shortId = (id: string) => (HEX_ID.test(id) ? `~${Buffer.from(id, "hex").toString("base64url")}` : JSON.stringify(id));
const longId = (id: string) => (id.startsWith("~") ? Buffer.from(id.slice(1), "base64url").toString("hex") : id);

function line(key: string, rec: unknown): string {
  return `${keyToken(key)} ${fields(rec)}`;
}

/** A record's line after its key (and id). */
function fields(rec: unknown): string {
  const r = rec as Bag;
  const simple =
    !!r &&
    typeof r === "object" &&
    !Array.isArray(r) &&
    typeof r.type === "string" &&
    /^[A-Z0-9]+$/.test(r.type) &&
    typeof r.name === "string" &&
    WORD.test(r.name) &&
    (r.ttl === undefined || (typeof r.ttl === "number" && Number.isInteger(r.ttl) && r.ttl >= 0)) &&
    ((typeof r.content === "string" && r.data === undefined) ||
      (r.content === undefined && !!r.data && typeof r.data === "object" && !Array.isArray(r.data)));
  if (!simple) return `= ${JSON.stringify(rec ?? null)}`;
  const { type, name, ttl, content, data } = r;
  // `proxied: false` is every record's default, as the service holds it: left out, and put back when read.
  let extras: Bag | undefined;
  for (const k in r) {
    if (LINE_FIELDS.has(k) || r[k] === undefined || (k === "proxied" && r[k] === false)) continue;
    (extras ??= {})[k] = r[k];
  }
  // A zone-file user reads a TXT as the zone file writes it; another text with spaces is JSON after `=`.
  const value =
    typeof content !== "string"
      ? JSON.stringify(data)
      : BARE.test(content) || QUOTED.test(content)
        ? content
        : `=${JSON.stringify(content)}`;
  return `${type} ${name} ${ttl ?? "-"} ${value}${extras ? ` ${JSON.stringify(extras)}` : ""}`;
}

/** The records as the engine carries them; with `ids` (outputs), each record's id after its key. */
export function recordsToText(records: Record<string, unknown>, ids?: Record<string, string>): string {
  const keys = Object.keys(records).sort(byKey);
  const lines = [HEADER, ...keys.map((k) => line(k, records[k]))];
  if (ids) lines.push(IDS, ...keys.map((k) => `${keyToken(k)} ${shortId(ids[k] ?? "")}`));
  return lines.join("\n");
}

/** Where the JSON value at the start of `s` ends (a string or an object), or -1. */
function jsonEnd(s: string): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') {
        inString = false;
        if (depth === 0) return i + 1;
      }
    } else if (c === '"') inString = true;
    else if (c === "{") depth++;
    else if (c === "}" && --depth === 0) return i + 1;
  }
  return -1;
}

/** Where the zone-file strings at the start of `s` end (`"a" "b"`, escapes kept), or -1. */
function quotedEnd(s: string): number {
  let i = 0;
  for (;;) {
    if (s[i] !== '"') return -1;
    for (i++; i < s.length && s[i] !== '"'; i++) if (s[i] === "\\") i++;
    if (i >= s.length) return -1;
    i++;
    if (s[i] !== " " || s[i + 1] !== '"') return i;
    i++;
  }
}

/** Splits off one token: a JSON string when it starts with a quote, else up to the next space. */
function token(s: string): [string, string] {
  if (s.startsWith('"')) {
    const end = jsonEnd(s);
    return [JSON.parse(s.slice(0, end)) as string, s.slice(end + 1)];
  }
  const at = s.indexOf(" ");
  return at < 0 ? [s, ""] : [s.slice(0, at), s.slice(at + 1)];
}

export class RecordsTextError extends Error {}

/** The records back from their text; a line that cannot be read is an error naming it. */
export function recordsFromText(text: string): Record<string, unknown> {
  return recordsAndIds(text).records;
}

/**
 * The texts the provider read last, and what they read as: one check reads the program's text, then its own
 * checked text (the same records) for the preview's DNS rules; diff and update read the same two. Each call gets
 * maps of its own; the records in them are shared, and none of the provider's readers changes a record.
 */
const lastRead: { text: string; read: { records: Record<string, unknown>; ids?: Record<string, string> } }[] = [];

function readShared(text: string): { records: Record<string, unknown>; ids?: Record<string, string> } {
  let hit = lastRead.find((r) => r.text === text);
  if (!hit) {
    hit = { text, read: recordsAndIds(text) };
    lastRead.unshift(hit);
    lastRead.length = Math.min(lastRead.length, 2);
  }
  const { records, ids } = hit.read;
  return ids ? { records: { ...records }, ids: { ...ids } } : { records: { ...records } };
}

/** The records and, from an outputs' text, their ids: new objects at every call (the program's own maps). */
export function recordsAndIds(text: string): { records: Record<string, unknown>; ids?: Record<string, string> } {
  const lines = text.split("\n");
  const v1 = lines[0] === HEADER_V1 || lines[0] === HEADER_V1_WITH_IDS;
  if (lines[0] !== HEADER && !v1)
    throw new RecordsTextError(`records: not a record set's text (it starts with ${JSON.stringify(lines[0].slice(0, 40))}, not ${HEADER})`);
  const withIds = lines[0] === HEADER_V1_WITH_IDS;
  const out: Record<string, unknown> = {};
  const ids: Record<string, string> = {};
  const idsAt = v1 ? -1 : lines.indexOf(IDS);
  if (idsAt > 0) {
    for (const l of lines.splice(idsAt).slice(1)) {
      const [key, id] = token(l);
      ids[key] = id.startsWith('"') ? (JSON.parse(id) as string) : longId(id);
    }
  }
  for (const [i, l] of lines.slice(1).entries()) {
    try {
      const [key, afterKey] = token(l);
      let rest = afterKey;
      if (withIds) {
        const [id, more] = token(afterKey);
        ids[key] = afterKey.startsWith('"') ? id : longId(id); // quoted: an id as the service spells it
        rest = more;
      }
      if (rest.startsWith("= ")) {
        out[key] = JSON.parse(rest.slice(2));
        continue;
      }
      const [type, a] = token(rest);
      const [name, b] = token(a);
      const [ttl, raw] = token(b);
      // v2: a value is bare, zone-file strings (kept as they are), `=` and a JSON string, or a JSON object (data).
      const json = !v1 && raw.startsWith('="');
      const c = json ? raw.slice(1) : raw;
      const quoted = !v1 && !json && c.startsWith('"');
      const bare = !c.startsWith('"') && !c.startsWith("{");
      const end = bare ? (c.includes(" ") ? c.indexOf(" ") : c.length) : quoted ? quotedEnd(c) : jsonEnd(c);
      if (end < 0) throw new Error("unterminated value");
      const value = bare || quoted ? c.slice(0, end) : JSON.parse(c.slice(0, end));
      // Built field by field in the order the fields are written: 10,000 records make no objects besides their own.
      const rec: Bag = { type, name };
      if (ttl !== "-") rec.ttl = Number(ttl);
      if (typeof value === "string") rec.content = value;
      else rec.data = value;
      rec.proxied = false;
      if (c.length > end) Object.assign(rec, JSON.parse(c.slice(end + 1)) as Bag);
      out[key] = rec;
    } catch (e) {
      if (e instanceof RecordsTextError) throw e;
      throw new RecordsTextError(`records: line ${i + 2} of the record set's text cannot be read: ${JSON.stringify(l.slice(0, 80))}`);
    }
  }
  return withIds || idsAt > 0 ? { records: out, ids } : { records: out };
}

/**
 * An outputs' text without its ids, as the inputs' text of the same records would read: a no-op diff is then two
 * texts compared, with no record parsed. (Different texts are not yet a change: the full diff decides.)
 */
export function withoutIds(text: string): string | undefined {
  if (text.startsWith(`${HEADER}\n`) || text === HEADER) {
    const at = text.indexOf(`\n${IDS}\n`);
    return at < 0 ? (text.endsWith(`\n${IDS}`) ? text.slice(0, -IDS.length - 1) : undefined) : text.slice(0, at);
  }
  // A state of 0.12 or older: its text as this release writes it (read once; the next up writes the new form).
  const lines = text.split("\n");
  if (lines[0] !== HEADER_V1_WITH_IDS) return undefined;
  try {
    return recordsToText(recordsAndIds(text).records);
  } catch {
    return undefined;
  }
}

/** Whether a bag carries the compact form (a known text). */
export const isCompact = (bag: Bag | undefined): boolean =>
  typeof bag?.records === "string" && !isUnknown(bag.records) && (bag.records.startsWith(HEADER) || bag.records.startsWith(HEADER_V1)); // other text: a wrong type

/** A bag's records and ids as maps, whichever form it came in. */
export function expanded<T extends Bag | undefined>(bag: T): T {
  if (!bag || !isCompact(bag)) return bag;
  const { records, ids } = readShared(bag.records as string);
  return { ...bag, records, ...(ids ? { ids } : {}) };
}

/** A bag's records as text, with its ids in the same lines (outputs): `ids` then is not a property of its own. */
export function compacted<T extends Bag | undefined>(bag: T): T {
  if (!bag) return bag;
  const r = bag.records;
  if (!r || typeof r !== "object" || Array.isArray(r) || isUnknown(r)) return bag;
  const { ids, ...rest } = bag;
  const withIds = ids && typeof ids === "object" ? (ids as Record<string, string>) : undefined;
  return { ...rest, records: recordsToText(r as Bag, withIds) } as unknown as T;
}

/**
 * A DNS record between the program and the service, for a DnsRecord and a DnsRecordSet's records alike: the body
 * sent, the answer read back (in the program's spelling where the two are equivalent), the comparison field by
 * field, and the fields a PATCH needs. One mapping, so a field the record gains is a field the set's records gain.
 */
import { STACK_TAG, stackOfTags } from "../../owner";
import type * as wire from "../wire";
import type { ZoneRef } from "../zones";
import type { SetRecord } from "../dns-record-set/schema";
import { isDataType, normalizeData, sameData } from "./data";
import { fullName, normalizeContent, normalizeName, PRIORITY_TYPES, sameContent, sameValue } from "./normalize";
import type { DnsRecordInputs } from "./schema";

type Bag = Record<string, any>;

export const FIELDS = ["name", "content", "data", "ttl", "proxied", "priority", "comment", "tags", "settings"] as const;

/** The record's settings as the program spells them, and as the service does. */
const SETTING_KEYS = { ipv4Only: "ipv4_only", ipv6Only: "ipv6_only", flattenCname: "flatten_cname" } as const;
type Settings = { ipv4Only?: boolean; ipv6Only?: boolean; flattenCname?: boolean };

/** A record's tags without the owner's label, in a stable order (names compare without case). */
export const userTags = (tags: readonly string[] | null | undefined) =>
  (tags ?? []).filter((t) => !t.toLowerCase().startsWith(`${STACK_TAG}:`));
export const tagKey = (tags: readonly string[] | null | undefined) =>
  JSON.stringify(
    userTags(tags)
      .map((t) => t.replace(/^[^:]*/, (n) => n.toLowerCase()))
      .sort(),
  );

/** The declared settings, as the service reports them (a setting the service leaves out is false). */
function settingsOut(declared: Settings, rec: { settings?: Record<string, unknown> | null }): Settings {
  return Object.fromEntries(Object.keys(declared).map((k) => [k, rec.settings?.[SETTING_KEYS[k as keyof Settings]] === true]));
}
/** The settings the program declares, in the service's spelling. */
const settingsBody = (declared: Settings) =>
  Object.fromEntries(
    Object.entries(declared)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [SETTING_KEYS[k as keyof Settings], v]),
  );

/** Field by field, does the wanted value (`news`) match what the record is (`olds`, outputs)? */
export function sameField(zone: string, wanted: Bag) {
  return (k: string, current: any, want: any): boolean => {
    switch (k) {
      case "name":
        return fullName(String(want), zone) === fullName(String(current), zone);
      case "content":
        // A structured type's content is the service's rendering of its data: compared through data.
        return isDataType(wanted.type) || sameContent(wanted.type, String(current), String(want));
      case "data":
        return !isDataType(wanted.type) || sameData(wanted.type, current, want);
      case "ttl":
        return wanted.proxied === true || (want ?? 1) === current; // a proxied record always reports ttl 1
      case "comment":
        // Unset, the comment is the service's to keep (another tool's, the dashboard's): `""` clears it.
        return want === undefined || (want ?? "") === (current ?? "");
      // Tags and settings are compared where the program gives them; unset, they are the service's to keep.
      // State written before the program gave them holds none: declared now, they are sent once (read, merge, write).
      case "tags":
        return want === undefined || (current !== undefined && tagKey(want) === tagKey(current));
      case "settings":
        return (
          want === undefined ||
          Object.entries(want as Settings).every(
            ([key, v]) => v === undefined || (current as Settings | undefined)?.[key as keyof Settings] === v,
          )
        );
      default:
        return want === current;
    }
  };
}

export function body(r: DnsRecordInputs, zone: ZoneRef, keys: readonly string[] = [...FIELDS, "type"]): wire.DnsRecordBody {
  const all: wire.DnsRecordBody = {
    type: r.type,
    name: fullName(r.name, zone.name),
    ...(isDataType(r.type) ? { data: r.data as wire.DnsRecordBody["data"] } : { content: r.content }),
    ttl: r.ttl,
    proxied: r.proxied,
    ...(PRIORITY_TYPES.includes(r.type) ? { priority: r.priority } : {}),
    comment: r.comment ?? null,
    ...(r.tags !== undefined ? { tags: r.tags } : {}),
    ...(r.settings !== undefined ? { settings: settingsBody(r.settings) } : {}),
  };
  return Object.fromEntries(Object.entries(all).filter(([k]) => keys.includes(k))) as wire.DnsRecordBody;
}

/**
 * The record as the service holds it, as a set's record (every field a program may give), in the program's own
 * spelling where the two are equivalent. A structured type's value is its data: its content, the service's
 * rendering of it, is left out (contentOut gives it). Tags and settings only where the program gives them (unset,
 * they are the service's to keep).
 */
export function recordAnswer(wanted: Partial<SetRecord> | undefined, zone: ZoneRef, rec: wire.DnsRecord): SetRecord {
  const sameName = typeof wanted?.name === "string" && fullName(wanted.name, zone.name) === rec.name.toLowerCase();
  return {
    type: rec.type as SetRecord["type"],
    name: normalizeName(sameName ? wanted.name! : rec.name),
    ...(isDataType(rec.type) ? dataOut(rec) : { content: contentOut(wanted, rec) }),
    ttl: rec.ttl,
    proxied: rec.proxied ?? false,
    ...(PRIORITY_TYPES.includes(rec.type) && rec.priority !== undefined ? { priority: rec.priority } : {}),
    ...(rec.comment ? { comment: rec.comment } : {}),
    ...(wanted?.tags !== undefined ? { tags: tagKey(wanted.tags) === tagKey(rec.tags) ? wanted.tags : userTags(rec.tags) } : {}),
    ...(wanted?.settings !== undefined ? { settings: settingsOut(wanted.settings, rec) } : {}),
  };
}

/** The record's content, in the program's spelling where it means the same. */
export function contentOut(wanted: { content?: unknown } | undefined, rec: wire.DnsRecord): string {
  const same = typeof wanted?.content === "string" && sameContent(rec.type, wanted.content, rec.content);
  return normalizeContent(rec.type, same ? (wanted!.content as string) : rec.content);
}

/** A structured record's data as the service holds it, in the spelling comparisons use. */
function dataOut(rec: wire.DnsRecord): { data?: Record<string, number | string> } {
  return isDataType(rec.type) && rec.data ? { data: normalizeData(rec.type, rec.data) } : {};
}

/** The fields of the body `b` that the record `x` does not already hold, as a PATCH body. */
export function differing(x: wire.DnsRecord, b: wire.DnsRecordBody): wire.DnsRecordBody {
  const out: wire.DnsRecordBody = {};
  if (b.name !== undefined && b.name.toLowerCase() !== x.name.toLowerCase()) out.name = b.name;
  if (!sameValue(x, b)) {
    if (b.data !== undefined) out.data = b.data;
    if (b.content !== undefined) out.content = b.content;
    if (b.priority !== undefined) out.priority = b.priority;
  }
  if (b.proxied !== undefined && b.proxied !== (x.proxied ?? false)) out.proxied = b.proxied;
  if (b.ttl !== undefined && !b.proxied && b.ttl !== x.ttl) out.ttl = b.ttl; // a proxied record reports ttl 1
  if (b.comment !== undefined && b.comment !== null && (b.comment || null) !== (x.comment || null)) out.comment = b.comment; // unset: kept
  if (b.tags !== undefined && tagKey(b.tags) !== tagKey(x.tags))
    out.tags = stackOfTags(x.tags) ? [...b.tags, ...(x.tags ?? []).filter((t) => !userTags([t]).length)] : b.tags;
  if (b.settings !== undefined && Object.entries(b.settings).some(([k, v]) => (x.settings?.[k as keyof typeof x.settings] ?? false) !== v))
    out.settings = { ...(x.settings ?? {}), ...b.settings };
  return out;
}

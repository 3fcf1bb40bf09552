/**
 * What an up of a record set sends: which keys to add, remove, change in place or replace, and which records only
 * moved to another key (nothing sent).
 */
import { changedKeys } from "../../handler";
import { FIELDS, sameField } from "../dns-record/mapping";
import { fullName, valueOf } from "../dns-record/normalize";
import type { SetRecord } from "./schema";

export type Records = Record<string, SetRecord>;

const nameKey = (zoneName: string, r: SetRecord) => `${r.type} ${fullName(r.name, zoneName)}`;

/**
 * Which keys to add, remove, change in place, or replace (a new type), and which are unchanged. Records of one type
 * and name are matched by value before key: a key that goes and a key that comes for the same type and name are one
 * record under a new key (`moved`: nothing sent when the value is the same, one PATCH when it is not), so inserting a
 * line of a zone file is one add and renumbering keys sends nothing.
 */
export function plan(zoneName: string, current: Records, ids: Record<string, string>, wanted: Records) {
  let added = Object.keys(wanted).filter((k) => !ids[k]);
  let removed = Object.keys(ids).filter((k) => !(k in wanted));
  const moved: [string, string][] = [];
  // The keys that go, by type and name: a set re-keyed whole (10,000 records) pairs in linear time.
  const going = new Map<string, string[]>();
  for (const k of removed)
    if (current[k]) going.set(nameKey(zoneName, current[k]), [...(going.get(nameKey(zoneName, current[k])) ?? []), k]);
  for (const identical of [true, false]) {
    for (const to of added) {
      const group = going.get(nameKey(zoneName, wanted[to]));
      const at = group?.findIndex((k) => !identical || valueOf(current[k]) === valueOf(wanted[to])) ?? -1;
      if (at < 0) continue;
      moved.push([group![at], to]);
      group!.splice(at, 1);
    }
    const taken = new Set(moved.map(([, to]) => to));
    added = added.filter((k) => !taken.has(k));
  }
  const paired = new Set(moved.map(([from]) => from));
  removed = removed.filter((k) => !paired.has(k));
  const replaced: string[] = [];
  const changed: [string, string[]][] = [];
  const source = new Map(moved.map(([from, to]) => [to, from]));
  for (const k of Object.keys(wanted)) {
    const was = source.get(k) ?? k;
    if (!ids[was]) continue;
    if (current[was]?.type !== wanted[k].type) replaced.push(k);
    else {
      const fields = changedKeys([...FIELDS], current[was], wanted[k], sameField(zoneName, wanted[k]));
      if (fields.length) changed.push([k, fields]);
    }
  }
  const unchanged = Object.keys(wanted).length - added.length - replaced.length - changed.length;
  return { added, removed, replaced, changed, moved, unchanged };
}

/**
 * `ops.edge.DnsRecordSet`: check / diff / create / read / update / delete of many records as one resource. Every
 * guarantee of the single DnsRecord holds per record (validation naming the key, normalisation, adoption, no
 * duplicate after a lost answer); up sends only the records that change, in parallel under the account's
 * allowance; refresh is one listing of the zone. A partial failure ends as a partial create or update: the state
 * then holds exactly the records that exist, so the next up finishes the rest and nothing is orphaned.
 * id: `<zoneId>/set-<random>` (the service keeps no object for the set itself).
 */
import { randomUUID } from "node:crypto";
import { isUnknown, checkWith, plannedObject, withoutProvider } from "../../check";
import { changedKeys, createByKey, deleteUnlessGone, PartialCreateError, unlessGone, type Bag, type Handler } from "../../handler";
import { AlreadyExistsError } from "../../http/errors";
import { log, notice, warn } from "../../log";
import { leftToAnother, withStackTag } from "../../owner";
import { labelled, labels, ownerOf, recordClaim, recordOwnedBy, recordStanding } from "../dns-record/owner";
import type * as wire from "../wire";
import { adopting, edge, recordsTakeTags, resolveZone, type ZoneRef, zoneKnownAtPreview } from "../zones";
import { programZoneInputs, zoneChanged, zoneOutputs } from "../zone-ref";
import { cnameConflict, holdFromState, takeOver } from "../dns-record/handler";
import { body, FIELDS, recordAnswer, sameField } from "../dns-record/mapping";
import { adoptedInRun, claim, isClaimed, markAdopted } from "../../claims";
import { createResumed } from "../../create-journal";
import { fullName, sameValue, valueOf } from "../dns-record/normalize";
import { DnsRecordSetInputs, SetRecord, type DnsRecordSetOutputs } from "./schema";
import { applyInBatches, each, type Done, type Failure, type Op } from "./batch";
import { compacted, expanded, isCompact, withoutIds } from "./text";
import { countDeletes } from "./guard";
import { newSetKey, reviewPlan } from "./review";
import { dnsRules } from "../dns-rules";

/** The largest page the service gives of a zone's records: 10,000 records are two requests. */
const PAGE = 5000;

type Records = Record<string, SetRecord>;

function outputs(wanted: Bag, zone: ZoneRef, records: Records, ids: Record<string, string>): DnsRecordSetOutputs {
  return {
    ...zoneOutputs(wanted, zone),
    records,
    ids,
    adopt: wanted.adopt ?? false,
    ...(wanted.authoritative === true ? { authoritative: true } : {}),
    ...(Array.isArray(wanted.ignore) ? { ignore: wanted.ignore } : {}),
  };
}

/** A delete of a record the set does not declare (authoritative): its key, which no record key can be (a space). */
const strayOp = (rec: wire.DnsRecord): Op => ({ kind: "delete", key: `undeclared ${rec.type} ${rec.name} (${rec.id})`, id: rec.id });
const isStray = (key: string) => key.startsWith("undeclared ");
/** Whether `authoritative` or `ignore` differ between the state and the program (unset is off, as before them). */
const authorityChanged = (olds: Bag, news: Bag) =>
  (olds.authoritative === true) !== (news.authoritative === true) ||
  JSON.stringify(olds.ignore ?? null) !== JSON.stringify(news.ignore ?? null);

/** The zone's records by type and full name, and their ids, from one listing. */
async function listing(zone: ZoneRef): Promise<{ byName: Map<string, wire.DnsRecord[]>; ids: Set<string>; all: wire.DnsRecord[] }> {
  const byName = new Map<string, wire.DnsRecord[]>();
  const ids = new Set<string>();
  const all: wire.DnsRecord[] = [];
  for await (const rec of edge().dnsRecords(zone.id, {}, PAGE)) {
    const k = `${rec.type} ${rec.name.toLowerCase()}`;
    byName.set(k, [...(byName.get(k) ?? []), rec]);
    ids.add(rec.id);
    all.push(rec);
  }
  return { byName, ids, all };
}

/**
 * The records to make: those with an identical record already in the zone one at a time (taken over with `adopt`,
 * else refused with 81058 naming the key), the rest as posts, in batches where the service takes them.
 */
async function makeAll(
  keys: string[],
  wanted: Records,
  zone: ZoneRef,
  existing: Map<string, wire.DnsRecord[]>,
  adopt: boolean,
  before: Op[] = [],
) {
  const posts: Op[] = [];
  const taken: string[] = [];
  for (const key of keys) {
    const b = body(wanted[key] as never, zone);
    // Identical records there: refused by name without adopt, or taken over (one no other resource holds) with it.
    if ((existing.get(`${b.type} ${b.name}`) ?? []).some((x) => sameValue(x, b) && (!adopt || !isClaimed(recordClaim(zone.id, x.id)))))
      taken.push(key);
    else posts.push({ kind: "post", key, body: labelled(b, zone) });
  }
  const made: Done[] = [];
  const failures = await each(
    taken,
    async (key) => void made.push({ op: { kind: "post", key, body: {} }, rec: await makeOne(key, wanted[key], zone, existing, adopt) }),
    (k) => k,
  );
  return { made, failures, posts: [...before, ...posts] };
}

const nameKey = (zoneName: string, r: SetRecord) => `${r.type} ${fullName(r.name, zoneName)}`;

/**
 * Which keys to add, remove, change in place, or replace (a new type), and which are unchanged. Records of one type
 * and name are matched by value before key: a key that goes and a key that comes for the same type and name are one
 * record under a new key (`moved`: nothing sent when the value is the same, one PATCH when it is not), so inserting a
 * line of a zone file is one add and renumbering keys sends nothing.
 */
function plan(zoneName: string, current: Records, ids: Record<string, string>, wanted: Records) {
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

/** One record made, or taken over when an identical one is there and the program (or recovery) adopts. */
async function makeOne(
  key: string,
  rec: SetRecord,
  zone: ZoneRef,
  existing: Map<string, wire.DnsRecord[]>,
  adopt: boolean,
): Promise<wire.DnsRecord> {
  const b = body(rec as never, zone);
  // Never one that another resource of this run holds (claims.ts): that one's key is made as its own record.
  const identical = (existing.get(`${b.type} ${b.name}`) ?? []).find(
    (x) => sameValue(x, b) && (!adopt || !isClaimed(recordClaim(zone.id, x.id))),
  );
  // Another stack's (its tag) is never taken; this stack's own is, even without adopt (./dns-record/owner.ts).
  const whose = identical && recordStanding(identical);
  if (whose === "theirs")
    throw recordOwnedBy(`records.${key}: the ${b.type} record ${b.name}`, zone.name, identical!.id, ownerOf(identical!)!);
  // Made by an earlier create of this set that never reached the state (create-journal.ts): this set's too.
  const takes = adopt || whose === "mine" || createResumed() !== undefined;
  if (identical && (!takes || claim(recordClaim(zone.id, identical.id)))) {
    if (!takes) {
      throw new AlreadyExistsError({
        service: "edge",
        code: 81058,
        message: `records.${key}: the ${b.type} record ${b.name} ${identical.content} already exists in zone ${zone.name} (id ${identical.id})`,
        remedy:
          "Set `adopt: true` on this DnsRecordSet to take it over, or remove the key. After an interrupted up, run the recovery up with `pulumi config set ops:edgeAdoptExisting true` (docs/reliability.md)",
      });
    }
    markAdopted(recordClaim(zone.id, identical.id));
    return takeOver(zone, b, identical, `${b.type} record ${b.name} (records.${key})`);
  }
  try {
    return await createByKey({
      what: `${b.type} record ${b.name} (records.${key})`,
      adopt: false,
      // A lost answer is settled by looking for the identical record: found, it is ours; absent, sent again.
      find: async () => (await Array.fromAsync(edge().dnsRecords(zone.id, { type: b.type, name: b.name }))).find((x) => sameValue(x, b)),
      create: () => edge().createDnsRecord(zone.id, labelled(b, zone)),
      update: async (x) => x,
      resumable: false, // settled above, labels weighed first
    });
  } catch (e) {
    // Refused beside a record of another type: a CNAME conflict, which adopting cannot fix; say so.
    if (!(e instanceof AlreadyExistsError)) throw e;
    const others = await Array.fromAsync(edge().dnsRecords(zone.id, { name: b.name }));
    if (others.some((x) => sameValue(x, b))) throw e;
    const err = cnameConflict(b, others, zone.name, e);
    throw Object.assign(err, { message: `records.${key}: ${err.message}` });
  }
}

/** A change by itself: the path of a service without batches, and of a batch the service refused. */
const single =
  (zone: ZoneRef, wanted: Records, existing: Map<string, wire.DnsRecord[]>, adopt: boolean) =>
  async (op: Op): Promise<wire.DnsRecord | undefined> => {
    if (op.kind === "delete") return void (await deleteUnlessGone(() => edge().deleteDnsRecord(zone.id, op.id)));
    if (op.kind === "patch") return edge().patchDnsRecord(zone.id, op.id, op.body);
    return makeOne(op.key, wanted[op.key], zone, existing, adopt);
  };

function failureMessage(what: string, failures: Failure[], total: number): string {
  const shown = failures
    .slice(0, 5)
    .map((f) => `${isStray(f.key) ? f.key : `records.${f.key}`}: ${(f.error as Error).message ?? String(f.error)}`)
    .join("; ");
  return `edge: ${failures.length} of ${total} records could not be ${what}${failures.length > 5 ? " (the first 5)" : ""}: ${shown}`;
}

/** The known records checked, the ones with values unknown until apply passed through as they are. */
function checkSet(news: Bag) {
  const given = withoutProvider(news);
  const records = given.records;
  if (!records || typeof records !== "object" || Array.isArray(records)) return checkWith(DnsRecordSetInputs, news);
  if (isUnknown(given.zoneName) || isUnknown(given.zoneId)) {
    // The zone unknown until apply: each record as the check will make it (a saved plan holds the apply to it).
    const r = checkWith(DnsRecordSetInputs, news);
    if (r.failures.length) return r;
    const planned = Object.fromEntries(Object.entries(records as Bag).map(([k, v]) => [k, plannedRecordOf(v)]));
    return { inputs: { ...r.inputs, records: planned }, failures: [] };
  }
  const pending: Bag = {};
  const known: Bag = {};
  // A record with a value unknown until apply keeps it so, with the rest as check will make it (defaults included):
  // what a saved plan holds the apply to.
  for (const [key, r] of Object.entries(records as Bag)) {
    if (!isUnknown(r)) known[key] = r;
    else pending[key] = plannedRecordOf(r);
  }
  const checked = checkWith(DnsRecordSetInputs, { ...given, records: known });
  if (checked.failures.length) return { inputs: given, failures: checked.failures };
  return { inputs: { ...checked.inputs, records: { ...(checked.inputs.records as Bag), ...pending } }, failures: [] };
}

/**
 * The keys among `entries` ([key, record id]) whose record another stack's tag is on: read where the zone's records
 * take tags (one listing of the zone), none elsewhere (nothing could have labelled them).
 */
async function takenByOthers(zone: ZoneRef, entries: [string, string][]): Promise<string[]> {
  if (!entries.length) return [];
  const found = await unlessGone(() => resolveZone({ zoneId: zone.id }));
  if (!found || !recordsTakeTags(found)) return [];
  const byId = new Map([...(await listing(found)).byName.values()].flat().map((x) => [x.id, x]));
  return entries.filter(([, id]) => leftToAnother(ownerOf(byId.get(id) ?? {}))).map(([key]) => key);
}

/** One record of a set as its check will make it: parsed when known, else its known fields (plannedObject). */
function plannedRecordOf(r: unknown): unknown {
  if (!r || typeof r !== "object" || Array.isArray(r)) return r;
  if (isUnknown(r)) return plannedObject(SetRecord, r as Bag);
  const parsed = SetRecord.safeParse(r);
  return parsed.success ? parsed.data : r;
}

/** The set on maps: the records and ids as the program's API types them. */
const onMaps: Handler<DnsRecordSetInputs, DnsRecordSetOutputs> = {
  async check(_olds, news) {
    return checkSet(news);
  },

  async diff(id, olds, news) {
    const wanted = withoutProvider(news);
    const o = olds as DnsRecordSetOutputs;
    holdFromState(o.zoneId, Object.values(o.ids ?? {})); // in state: never another's to adopt
    if (zoneChanged(wanted, o)) return { changes: true, replaces: [wanted.zoneId ? "zoneId" : "zoneName"], deleteBeforeReplace: true };
    if (isUnknown(wanted.records)) return { changes: true };
    const p = plan(o.zoneName, o.records, o.ids, wanted.records as Records);
    // Beyond its own keys (authoritative removals), and the rails on large changes: before anything is sent.
    const removing = await reviewPlan(
      { id: o.zoneId, name: o.zoneName },
      wanted as DnsRecordSetInputs,
      o.ids ?? {},
      { updates: p.changed.length, deletes: p.removed.length + p.replaced.length },
      id,
    );
    const changes = p.added.length + p.removed.length + p.replaced.length + p.changed.length + removing.length;
    const rekeyed = p.moved.filter(([, to]) => !p.changed.some(([k]) => k === to)).length;
    if (changes + rekeyed) {
      log(
        `edge: record set in ${o.zoneName}: ${p.added.length} to add, ${p.changed.length} to change, ${p.replaced.length} to replace, ${p.removed.length} to remove, ${p.unchanged} unchanged` +
          `${rekeyed ? ` (${rekeyed} under a new key, nothing sent for them)` : ""}` +
          (changes - removing.length
            ? ` (${[...p.added.map((k) => `+${k}`), ...p.changed.map(([k]) => `~${k}`), ...p.replaced.map((k) => `+-${k}`), ...p.removed.map((k) => `-${k}`)].slice(0, 20).join(" ")}${changes - removing.length > 20 ? " ..." : ""})`
            : "") +
          `${removing.length ? `, and ${removing.length} undeclared to delete` : ""}`,
      );
    }
    // Authority switched on or off, or its ignore changed: the outputs say it, with nothing else to send.
    return { changes: changes + rekeyed > 0 || authorityChanged(o, wanted) };
  },

  async create(raw) {
    const r = raw as DnsRecordSetInputs;
    const zone = await resolveZone(r);
    const id = `${zone.id}/set-${randomUUID()}`;
    const { byName: existing, ids: before, all } = await listing(zone);
    const records: Records = {};
    const ids: Record<string, string> = {};
    const keys = Object.keys(r.records);
    // Authoritative: the records of its names (or zone) it does not declare go first, as the preview listed them.
    const removing = r.authoritative === true ? await reviewPlan(zone, r, {}, { updates: 0, deletes: 0 }, newSetKey(zone.id), all) : [];
    const { made, failures, posts } = await makeAll(keys, r.records, zone, existing, adopting(r), removing.map(strayOp));
    const sent = await applyInBatches(zone, posts, single(zone, r.records, existing, adopting(r)), before);
    failures.push(...sent.failures);
    for (const { op, rec } of [...made, ...sent.done.filter((d) => d.op.kind !== "delete")]) {
      records[op.key] = recordAnswer(r.records[op.key], zone, rec!);
      ids[op.key] = rec!.id;
      claim(recordClaim(zone.id, rec!.id)); // this set's: no adopting resource of the run takes it
    }
    if (failures.length) {
      const message = failureMessage("made", failures, keys.length);
      // Nothing made: nothing to keep. Some made: the engine keeps them in state, and the next up makes the rest.
      if (!Object.keys(ids).length) throw failures.length === 1 ? failures[0].error : new Error(message);
      throw new PartialCreateError(message, id, outputs(r, zone, records, ids));
    }
    return { id, outs: outputs(r, zone, records, ids) };
  },

  async read(id, props) {
    const o = props as DnsRecordSetOutputs;
    const zone = o.zoneName ? { id: o.zoneId, name: o.zoneName } : await resolveZone({ zoneId: o.zoneId });
    const byId = new Map<string, wire.DnsRecord>();
    for await (const rec of edge().dnsRecords(zone.id, {}, PAGE)) byId.set(rec.id, rec);
    const records: Records = {};
    const ids: Record<string, string> = {};
    let drifted = false;
    for (const [key, recordId] of Object.entries(o.ids ?? {})) {
      const rec = byId.get(recordId);
      if (!rec) {
        drifted = true; // deleted out of band: the next up makes it again
        continue;
      }
      records[key] = recordAnswer(o.records?.[key], zone, rec);
      ids[key] = recordId;
      drifted ||= JSON.stringify(records[key]) !== JSON.stringify(o.records?.[key]);
    }
    const outs = outputs(o, zone, records, ids);
    if (!drifted) return { id, props: outs };
    const { ids: _i, ...inputs } = outs;
    return { id, props: outs, inputs: programZoneInputs(inputs) };
  },

  async update(id, olds, news) {
    const o = olds as DnsRecordSetOutputs;
    const r = withoutProvider(news) as DnsRecordSetInputs;
    const records: Records = { ...o.records };
    const ids = { ...o.ids };
    const p = plan(o.zoneName, o.records, o.ids, r.records);
    // Records to make: the zone's plan is looked up (once a run) to know whether they carry the owner's tag.
    const zone: ZoneRef =
      p.added.length || p.replaced.length
        ? { ...(await resolveZone({ zoneId: o.zoneId })), name: o.zoneName }
        : { id: o.zoneId, name: o.zoneName };
    // A record under a new key (matched by type, name and value) keeps its id: bookkeeping only.
    for (const [from, to] of p.moved) {
      ids[to] = ids[from];
      records[to] = records[from];
      delete ids[from];
      delete records[from];
    }
    // One ordered list of changes: removals (and the old record of a new type) first, as a new record may need the
    // name an old one holds; then the changes in place; then the new records.
    const authoritative = r.authoritative === true;
    const {
      byName: existing,
      ids: before,
      all,
    } = p.added.length || p.replaced.length || authoritative ? await listing(zone) : { byName: new Map(), ids: new Set<string>(), all: [] };
    // A removed record another resource's create took over in this run (moved to another set or a DnsRecord) stays
    // on the service and leaves this set.
    const given = p.removed.filter((key) => adoptedInRun(recordClaim(zone.id, ids[key])));
    for (const key of given) {
      notice(`edge: records.${key} (${ids[key]}) was taken over by another resource of this run: not deleted`);
      delete ids[key];
      delete records[key];
    }
    // A record another stack took over (its tag, where the zone's records take tags) is left to it, not deleted.
    const toDelete = [...p.removed.filter((key) => !given.includes(key)), ...p.replaced];
    for (const key of await takenByOthers(
      zone,
      toDelete.map((key) => [key, ids[key]]),
    )) {
      warn(`edge: records.${key} (${ids[key]}) belongs to another stack now (its tag): left to it, not deleted`);
      toDelete.splice(toDelete.indexOf(key), 1);
      delete ids[key];
      delete records[key];
    }
    // Authoritative: the records of its names (or zone) it does not declare, as the zone holds them now.
    const removing = authoritative
      ? await reviewPlan(zone, r, o.ids ?? {}, { updates: p.changed.length, deletes: toDelete.length }, id, all)
      : [];
    if (!authoritative && toDelete.length) countDeletes(toDelete.length, `the DnsRecordSet in zone ${zone.name}`);
    const deletes: Op[] = [...toDelete.map((key): Op => ({ kind: "delete", key, id: ids[key] })), ...removing.map(strayOp)];
    // Tags restored keep the owner's label beside them where the zone's records carry it (its plan, looked up once).
    const labelling =
      p.changed.some(([, fields]) => fields.includes("tags")) &&
      labels(zone.plan !== undefined ? zone : { ...(await resolveZone({ zoneId: o.zoneId })), name: o.zoneName });
    // Settings changed: each such record is read first, and the settings the program does not give keep their values.
    const settingsNow = new Map<string, wire.DnsRecordBody["settings"]>();
    for (const [key] of p.changed.filter(([, fields]) => fields.includes("settings")))
      settingsNow.set(key, (await edge().getDnsRecord(zone.id, ids[key])).settings ?? {});
    const patches: Op[] = p.changed.map(([key, fields]) => {
      if (fields.includes("proxied") && !r.records[key].proxied && !fields.includes("ttl")) fields.push("ttl"); // leaving the proxy
      const b = body(r.records[key] as never, zone, fields);
      if (b.tags && labelling) b.tags = withStackTag(b.tags);
      if (b.settings) b.settings = { ...settingsNow.get(key), ...b.settings };
      return { kind: "patch", key, id: ids[key], body: b };
    });
    const { made, failures, posts } = await makeAll([...p.added, ...p.replaced], r.records, zone, existing, adopting(r), [
      ...deletes,
      ...patches,
    ]);
    const sent = await applyInBatches(zone, posts, single(zone, r.records, existing, adopting(r)), before);
    failures.push(...sent.failures);
    for (const { op } of sent.done.filter((d) => d.op.kind === "delete")) {
      delete records[op.key];
      delete ids[op.key];
    }
    for (const { op, rec } of [...made, ...sent.done.filter((d) => d.op.kind !== "delete")]) {
      records[op.key] = recordAnswer(r.records[op.key], zone, rec!);
      ids[op.key] = rec!.id;
      if (op.kind === "post") claim(recordClaim(zone.id, rec!.id)); // this set's: no adopting resource of the run takes it
    }
    const outs = outputs(r, zone, records, ids);
    const total = p.added.length + p.removed.length + p.replaced.length + p.changed.length + removing.length;
    if (failures.length) throw new PartialCreateError(failureMessage("changed", failures, total), id, outs);
    return { outs };
  },

  async delete(_id, props) {
    const o = props as DnsRecordSetOutputs;
    const zone = { id: o.zoneId, name: o.zoneName };
    // A record another resource's create took over in this run (records moved out of the set) is left to it, and so
    // is one another stack took over (its tag, where the zone's records take tags: one listing of the zone).
    const others = await takenByOthers(zone, Object.entries(o.ids ?? {}));
    if (others.length)
      warn(
        `edge: ${others.length} record${others.length > 1 ? "s" : ""} of this set belong${others.length > 1 ? "" : "s"} to another stack now (their tag), so this destroy leaves them: ${others
          .slice(0, 5)
          .map((k) => `records.${k}`)
          .join(", ")}${others.length > 5 ? " ..." : ""}`,
      );
    const left = new Set(others.map((key) => o.ids[key]));
    const entries = Object.entries(o.ids ?? {}).filter(([, id]) => !adoptedInRun(recordClaim(zone.id, id)) && !left.has(id));
    countDeletes(entries.length, `the DnsRecordSet in zone ${zone.name} (deleted)`);
    const { failures } = await applyInBatches(
      zone,
      entries.map(([key, id]) => ({ kind: "delete", key, id })),
      single(zone, {}, new Map(), false),
      new Set(),
    );
    if (failures.length) throw new Error(failureMessage("deleted", failures, entries.length));
  },
};

/**
 * The handler the doors call: asked with the compact form (text.ts: the TypeScript classes send the records as one
 * text), it works on maps and answers in text; asked with maps (the plugin door's schema), in maps. State written
 * before the compact form (maps) is rewritten in it by an update that sends nothing.
 */
// Untyped: the engine carries the records as text (text.ts); the handler on maps above is the typed one.
export const dnsRecordSet: Handler = {
  // A CNAME beside another record of the program (no request), or beside one on the service (a read).
  preview: (ctx) => dnsRules(ctx.type, ctx.inputs, ctx.olds, ctx.reads),
  knownAtPreview: zoneKnownAtPreview,
  async check(olds, news) {
    if (!isCompact(news)) return onMaps.check(olds, news);
    let records: Bag;
    try {
      records = expanded(news);
    } catch (e) {
      return { inputs: news, failures: [{ property: "records", reason: `${(e as Error).message}: pass the records as a map` }] };
    }
    const r = await onMaps.check(olds, records);
    return r.failures.length ? { inputs: news, failures: r.failures } : { inputs: compacted(r.inputs), failures: [] };
  },

  async diff(id, olds, news) {
    if (isCompact(olds)) holdFromState(olds.zoneId, Object.values(expanded(olds).ids ?? {}) as string[]); // in state: never another's to adopt
    // The common case, nothing changed: the texts agree line for line once the outputs' ids are set aside.
    if (
      isCompact(olds) &&
      isCompact(news) &&
      news.authoritative !== true &&
      !authorityChanged(olds, news) &&
      !zoneChanged(withoutProvider(news), olds as DnsRecordSetOutputs) &&
      withoutIds(olds.records as string) === news.records
    ) {
      await reviewPlan(
        { id: olds.zoneId as string, name: olds.zoneName as string },
        { records: {} },
        (expanded(olds).ids ?? {}) as Record<string, string>,
        { updates: 0, deletes: 0 },
        id,
      );
      return { changes: false };
    }
    const d = await onMaps.diff(id, expanded(olds), expanded(news));
    const fromMaps = isCompact(news) && !isCompact(olds) && !!olds.records;
    return fromMaps ? { ...d, changes: true } : d;
  },

  async create(inputs) {
    const r = await answerIn(inputs, () => onMaps.create(expanded(inputs) as DnsRecordSetInputs));
    return isCompact(inputs) ? { ...r, outs: compacted(r.outs) } : r;
  },

  async read(id, props) {
    const r = await onMaps.read(id, expanded(props));
    return isCompact(props) ? { ...r, props: compacted(r.props), ...(r.inputs ? { inputs: compacted(r.inputs) } : {}) } : r;
  },

  async update(id, olds, news) {
    const r = await answerIn(news, () => onMaps.update(id, expanded(olds), expanded(news) as DnsRecordSetInputs));
    return isCompact(news) ? { ...r, outs: compacted(r.outs) } : r;
  },

  async delete(id, props) {
    await onMaps.delete(id, expanded(props));
  },
};

/** A partial create or update keeps what exists in state: in the form the call came in. */
async function answerIn<T>(asked: Bag, f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (e) {
    if (e instanceof PartialCreateError && isCompact(asked)) throw new PartialCreateError(e.message, e.id, compacted(e.properties));
    throw e;
  }
}

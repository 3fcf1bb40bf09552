/**
 * DnsRecordSet's handler on maps, the records and their ids as the program's API types them (handler.ts turns the
 * compact text the TypeScript classes send into these maps and back).
 */
import { randomUUID } from "node:crypto";
import { isUnknown, withoutProvider } from "../../check";
import { PartialCreateError, type Bag, type Handler } from "../../handler";
import { log, notice, warn } from "../../log";
import { withStackTag } from "../../owner";
import { labels, recordClaim } from "../dns-record/owner";
import type * as wire from "../wire";
import { adopting, edge, resolveZone, type ZoneRef } from "../zones";
import { programZoneInputs, zoneChanged, zoneOutputs } from "../zone-ref";
import { holdFromState } from "../dns-record/handler";
import { body, recordAnswer } from "../dns-record/mapping";
import { adoptedInRun, claim } from "../../claims";
import { DnsRecordSetInputs, type DnsRecordSetOutputs } from "./schema";
import { applyInBatches, type Op } from "./batch";
import { countDeletes } from "./guard";
import { newSetKey, reviewPlan } from "./review";
import { type Records, plan } from "./plan";
import { failureMessage, listing, makeAll, PAGE, single, strayOp, takenByOthers } from "./apply";
import { checkSet } from "./set-check";

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

/** Whether `authoritative` or `ignore` differ between the state and the program (unset is off, as before them). */
export const authorityChanged = (olds: Bag, news: Bag) =>
  (olds.authoritative === true) !== (news.authoritative === true) ||
  JSON.stringify(olds.ignore ?? null) !== JSON.stringify(news.ignore ?? null);

/** The set on maps: the records and ids as the program's API types them. */
export const onMaps: Handler<DnsRecordSetInputs, DnsRecordSetOutputs> = {
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

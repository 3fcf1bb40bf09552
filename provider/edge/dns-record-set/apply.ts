/**
 * A record set's changes on the service: the zone's listing, the records made (or taken over, where the program
 * adopts an identical one), one change at a time where no batch is taken, and what a partial failure says.
 */
import { createByKey, deleteUnlessGone, unlessGone } from "../../handler";
import { AlreadyExistsError } from "../../http/errors";
import { leftToAnother } from "../../owner";
import { labelled, ownerOf, recordClaim, recordOwnedBy, recordStanding } from "../dns-record/owner";
import type * as wire from "../wire";
import { edge, recordsTakeTags, resolveZone, type ZoneRef } from "../zones";
import { cnameConflict, takeOver } from "../dns-record/handler";
import { body } from "../dns-record/mapping";
import { claim, isClaimed, markAdopted } from "../../claims";
import { createResumed } from "../../create-journal";
import { sameValue } from "../dns-record/normalize";
import { SetRecord } from "./schema";
import { each, type Done, type Failure, type Op } from "./batch";
import { type Records } from "./plan";

/** The largest page the service gives of a zone's records: 10,000 records are two requests. */
export const PAGE = 5000;

/** A delete of a record the set does not declare (authoritative): its key, which no record key can be (a space). */
export const strayOp = (rec: wire.DnsRecord): Op => ({ kind: "delete", key: `undeclared ${rec.type} ${rec.name} (${rec.id})`, id: rec.id });
const isStray = (key: string) => key.startsWith("undeclared ");
/** The zone's records by type and full name, and their ids, from one listing. */
export async function listing(zone: ZoneRef): Promise<{ byName: Map<string, wire.DnsRecord[]>; ids: Set<string>; all: wire.DnsRecord[] }> {
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
export async function makeAll(
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
export const single =
  (zone: ZoneRef, wanted: Records, existing: Map<string, wire.DnsRecord[]>, adopt: boolean) =>
  async (op: Op): Promise<wire.DnsRecord | undefined> => {
    if (op.kind === "delete") return void (await deleteUnlessGone(() => edge().deleteDnsRecord(zone.id, op.id)));
    if (op.kind === "patch") return edge().patchDnsRecord(zone.id, op.id, op.body);
    return makeOne(op.key, wanted[op.key], zone, existing, adopt);
  };

export function failureMessage(what: string, failures: Failure[], total: number): string {
  const shown = failures
    .slice(0, 5)
    .map((f) => `${isStray(f.key) ? f.key : `records.${f.key}`}: ${(f.error as Error).message ?? String(f.error)}`)
    .join("; ");
  return `edge: ${failures.length} of ${total} records could not be ${what}${failures.length > 5 ? " (the first 5)" : ""}: ${shown}`;
}

/**
 * The keys among `entries` ([key, record id]) whose record another stack's tag is on: read where the zone's records
 * take tags (one listing of the zone), none elsewhere (nothing could have labelled them).
 */
export async function takenByOthers(zone: ZoneRef, entries: [string, string][]): Promise<string[]> {
  if (!entries.length) return [];
  const found = await unlessGone(() => resolveZone({ zoneId: zone.id }));
  if (!found || !recordsTakeTags(found)) return [];
  const byId = new Map([...(await listing(found)).byName.values()].flat().map((x) => [x.id, x]));
  return entries.filter(([, id]) => leftToAnother(ownerOf(byId.get(id) ?? {}))).map(([key]) => key);
}

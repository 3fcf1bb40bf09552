/**
 * What a set's plan does to its zone beyond its own keys, weighed before anything is sent (in diff for a set in
 * state, in check for a new one: both run at preview): the records an authoritative set removes, each listed; the
 * large-change rail and ops:maxDeletes (guard.ts); and, for a set that is not authoritative, how many records of the
 * zone no resource of the stack holds (authority.ts), said so that what is outside the code is seen (a listing of the
 * zone a run, with the preview checks on and progress lines not quieted).
 *
 * An up never deletes more than its run's preview side listed: the engine runs a set's diff (a new set's check) in
 * the same process before its update (create), and only the records that listing named are deleted — one that
 * appeared since, or a record of a resource whose own check or diff came between, is left for the next run to list.
 */
import { GENERAL_SETTINGS, readFlag } from "../../config";
import { onForget } from "../../forgetting";
import { log, notice, quiet } from "../../log";
import { currentOwner } from "../../owner";
import type * as wire from "../wire";
import type { ZoneRef } from "../zones";
import { describe, sortRecords, strayOf, strays, wholeZone, zoneListing } from "./authority";
import { countDeletes, largeChange, mayBeLarge } from "./guard";

/** The inputs the review reads. */
export interface Reviewed {
  records: Record<string, { type: string; name: string; content?: string; data?: Record<string, unknown>; priority?: number }>;
  authoritative?: boolean;
  ignore?: string[];
  maxChangePercent?: number;
  allowLargeChange?: boolean;
}

/** The most records a preview names one by one; the rest are counted. */
const SHOWN = 200;

/** The records each set's diff (a new set's check) listed for deletion in this run, by set: its id, or newSetKey. */
const listed = new Map<string, Set<string>>();
onForget(() => listed.clear());

/** A new set's key between its check and its create: its zone and the resource the call serves. */
export function newSetKey(zoneId: string): string {
  const owner = currentOwner();
  return `new ${zoneId} ${owner ? `${owner.stack}/${owner.resource}` : ""}`;
}

/**
 * Weighs a plan of `updates` in place and `deletes` of the set's own records; returns the records the set removes
 * beyond its own (none unless authoritative). Throws the large-change or ops:maxDeletes failure.
 */
export async function reviewPlan(
  zone: ZoneRef,
  wanted: Reviewed,
  ids: Record<string, string>,
  counts: { updates: number; deletes: number },
  key: string,
  listing?: wire.DnsRecord[],
): Promise<wire.DnsRecord[]> {
  const authoritative = wanted.authoritative === true;
  const zoneRecords = () => (listing ? Promise.resolve(listing) : zoneListing(zone.id));
  let removing = authoritative ? strays(await zoneRecords(), zone, { records: wanted.records, ids, ignore: wanted.ignore }) : [];
  if (!listing) listed.set(key, new Set(removing.map((r) => r.id)));
  else if (removing.length) {
    // The apply side: only what this run's preview side listed.
    const allowed = listed.get(key) ?? new Set<string>();
    const unlisted = removing.filter((r) => !allowed.has(r.id));
    removing = removing.filter((r) => allowed.has(r.id));
    if (unlisted.length)
      notice(
        `edge: authoritative DnsRecordSet in zone ${zone.name}: ${unlisted.length} record${unlisted.length === 1 ? "" : "s"} it does not declare ${listed.has(key) ? "appeared since this run's preview listed its deletes" : "went unlisted (this run's preview checks were off, or its inputs unknown)"}: left for the next run to list (${unlisted
          .slice(0, 5)
          .map((r) => describe(strayOf(r, zone.name)))
          .join("; ")}${unlisted.length > 5 ? "; ..." : ""})`,
      );
  }
  const deletes = counts.deletes + removing.length;
  if (mayBeLarge(counts.updates, deletes, Object.keys(ids).length, wanted.maxChangePercent)) {
    const problem = largeChange(zone.name, (await zoneRecords()).length, counts.updates, deletes, wanted);
    if (problem) throw problem;
  }
  if (deletes) countDeletes(deletes, `the DnsRecordSet in zone ${zone.name}`);
  if (authoritative && !listing && wholeZone(zone, wanted))
    notice(
      `edge: DnsRecordSet is authoritative for the whole zone ${zone.name} (it declares the apex and gives ignore): every record it does not declare is deleted but what ignore${wanted.ignore?.length ? ` (${wanted.ignore.join(", ")})` : ""} matches`,
    );
  if (removing.length) {
    const lines = removing.slice(0, SHOWN).map((r) => `  - ${describe(strayOf(r, zone.name))} (id ${r.id})`);
    notice(
      `edge: authoritative DnsRecordSet in zone ${zone.name} deletes ${removing.length} record${removing.length === 1 ? "" : "s"} it does not declare:\n${lines.join("\n")}${removing.length > SHOWN ? `\n  ... and ${removing.length - SHOWN} more` : ""}`,
    );
  } else if (!authoritative && !listing && readFlag(GENERAL_SETTINGS.previewChecks) && !quiet()) {
    const { unmanaged, apart } = sortRecords(await zoneRecords(), zone, new Set(Object.values(ids)));
    if (unmanaged.length)
      log(
        `edge: zone ${zone.name} holds ${unmanaged.length} record${unmanaged.length === 1 ? "" : "s"} that no resource of this stack checked so far in this run holds${apart.length ? ` (and ${apart.length} the service keeps itself)` : ""}: edge.getUnmanagedRecords lists them; \`authoritative: true\` on a set deletes those at its names`,
      );
  }
  return removing;
}

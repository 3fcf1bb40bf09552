/**
 * What a set's plan does to its zone beyond its own keys, weighed before anything is sent (in diff for a set in
 * state, in check for a new one: both run at preview): the records an authoritative set removes, each listed; the
 * large-change rail and ops:maxDeletes (guard.ts); and, for a set that is not authoritative, how many records of the
 * zone no resource of the stack holds (authority.ts), said so that what is outside the code is seen.
 */
import { GENERAL_SETTINGS, readFlag } from "../../config";
import { log, notice } from "../../log";
import type * as wire from "../wire";
import type { ZoneRef } from "../zones";
import { describe, sortRecords, strayOf, strays, zoneListing } from "./authority";
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

/**
 * Weighs a plan of `updates` in place and `deletes` of the set's own records; returns the records the set removes
 * beyond its own (none unless authoritative). Throws the large-change or ops:maxDeletes failure.
 */
export async function reviewPlan(zone: ZoneRef, wanted: Reviewed, ids: Record<string, string>, counts: { updates: number; deletes: number }, listing?: wire.DnsRecord[]): Promise<wire.DnsRecord[]> {
  const authoritative = wanted.authoritative === true;
  const zoneRecords = () => (listing ? Promise.resolve(listing) : zoneListing(zone.id));
  const removing = authoritative ? strays(await zoneRecords(), zone, { records: wanted.records, ids, ignore: wanted.ignore }) : [];
  const deletes = counts.deletes + removing.length;
  if (mayBeLarge(counts.updates, deletes, Object.keys(ids).length, wanted.maxChangePercent)) {
    const problem = largeChange(zone.name, (await zoneRecords()).length, counts.updates, deletes, wanted);
    if (problem) throw problem;
  }
  if (deletes) countDeletes(deletes, `the DnsRecordSet in zone ${zone.name}`);
  if (removing.length) {
    const lines = removing.slice(0, SHOWN).map((r) => `  - ${describe(strayOf(r, zone.name))} (id ${r.id})`);
    notice(`edge: authoritative DnsRecordSet in zone ${zone.name} deletes ${removing.length} record${removing.length === 1 ? "" : "s"} it does not declare:\n${lines.join("\n")}${removing.length > SHOWN ? `\n  ... and ${removing.length - SHOWN} more` : ""}`);
  } else if (!authoritative && !listing && readFlag(GENERAL_SETTINGS.previewChecks)) {
    const { unmanaged, apart } = sortRecords(await zoneRecords(), zone, new Set(Object.values(ids)));
    if (unmanaged.length) log(`edge: zone ${zone.name} holds ${unmanaged.length} record${unmanaged.length === 1 ? "" : "s"} that no resource of this stack holds so far in this run${apart.length ? ` (and ${apart.length} the service keeps itself)` : ""}: edge.getUnmanagedRecords lists them; \`authoritative: true\` on a set deletes those at its names`);
  }
  return removing;
}

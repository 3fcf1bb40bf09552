/**
 * Whose a record is: the owner's label rides in its tags (`pulumi-ops-stack:<project>/<stack>`) where the zone's plan
 * takes tags (paid plans; Free's quota is 0). Written on the records a stack makes, and on one it takes over when
 * that takeover writes anyway (or takes it from another stack); an adoption that finds the record as the program
 * says writes nothing, so an unlabelled record stays unlabelled. Read by adoption (another stack's record is refused
 * naming it, this stack's own is taken back with no switch) and by destroy (another stack's record is left).
 */
import { AlreadyExistsError } from "../../http/errors";
import { currentOwner, stackOfTags, standing, withStackTag } from "../../owner";
import type * as wire from "../wire";
import { edgeClaim, recordsTakeTags, type ZoneRef } from "../zones";

/** The stack a record's tags name as its owner, if any. */
export const ownerOf = (x: { tags?: string[] | null }) => stackOfTags(x.tags);

/** Whose the record is, for a create that would take it (owner.ts `standing`). */
export const recordStanding = (x: { tags?: string[] | null }) => standing(ownerOf(x));

/** Whether this run writes the owner's label on the zone's records: its plan takes tags, and the owner is known. */
export const labels = (zone: ZoneRef) => recordsTakeTags(zone) && currentOwner() !== undefined;

/** The body of a new record: with this stack's tag where the zone's records take tags. */
export function labelled(b: wire.DnsRecordBody, zone: ZoneRef): wire.DnsRecordBody {
  return labels(zone) ? { ...b, tags: withStackTag(b.tags) } : b;
}

/** A record another stack labelled as its own: refused with that stack's name, at preview and up. */
export function recordOwnedBy(what: string, zoneName: string, id: string, stack: string): AlreadyExistsError {
  return new AlreadyExistsError({
    service: "edge",
    message: `${what} in zone ${zoneName} (id ${id}) belongs to stack ${stack} (its tag pulumi-ops-stack)`,
    remedy: `Remove it from stack ${stack} first, or leave it out of this program; to take it over from that stack anyway, set ops:adoptFromStack to ${stack} for one run (with adopt: true)`,
  });
}

/** The claim key of a record (claims.ts): one resource of a run holds it. */
export const recordClaim = (zoneId: string, recordId: string) => edgeClaim("dns", `${zoneId}/${recordId}`);

/**
 * The ids of the DNS records this program's DnsRecordSets and DnsRecords hold, as they become known: what
 * `getUnmanagedRecords` leaves out when it is not given `managedIds` (issue 57), so a stack's own records are never
 * listed as unmanaged on a Free zone, where nothing on the service says whose a record is. The program's process
 * only: the functions run there on this door. Kept on `globalThis`, as a program may load two copies of the package.
 */
import * as pulumi from "@pulumi/pulumi";

const KEY = Symbol.for("pulumi-ops.program-record-ids");
/** Each a thunk: a set's ids are read out of its records' text only when a function asks (most programs never do). */
type Registry = (() => pulumi.Output<string[] | undefined>)[];
const registry = (): Registry => ((globalThis as Record<symbol, Registry>)[KEY] ??= []);

/** A record resource's ids, noted when it is declared. */
export function noteRecordIds(ids: () => pulumi.Output<string[] | undefined>): void {
  registry().push(ids);
}

/**
 * The ids known so far of the records declared before this call: each resource's once made or read (a preview knows
 * those of resources that do not change; a changed one's ids are known only at the up).
 */
export async function programRecordIds(): Promise<string[]> {
  // Output.promise(true): the value as far as the engine knows it, unknowns included, never waiting on a preview.
  const lists = await Promise.all(
    registry().map((ids) => (ids() as unknown as { promise(withUnknowns: boolean): Promise<unknown> }).promise(true)),
  );
  return lists.flatMap((l) => (Array.isArray(l) ? l.filter((id): id is string => typeof id === "string") : []));
}

/** The same ids as one output: known once every declared set's and record's are (the getXOutput form's default). */
export function programRecordIdsOutput(): pulumi.Output<string[]> {
  return pulumi.all(registry().map((ids) => ids())).apply((lists) => lists.flatMap((l) => l ?? []));
}

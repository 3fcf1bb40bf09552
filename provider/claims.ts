/**
 * One object, one owner, within a run: the engine serves every resource of a run from one provider process, so the
 * objects this process's creates have made or adopted are noted here (claims), and so are the objects resources in
 * state hold, as their diffs name them (holds). An adopting resource never takes a claimed or held object: two
 * records of one type and name (two MX, a round-robin A pair) each adopt the record with their own value, or make
 * their own, and the second never takes the record the first just made. The engine diffs and creates in the
 * program's order, so a hold protects only from creates that come after the diff: for the rest, a delete never
 * removes an object another resource's create adopted in this run (a resource renamed without an alias, records
 * moved into a set: the new one adopts, the old one's delete leaves the object to it).
 *
 * Keys are the service's own ids, prefixed by whatever scopes them (an account, a zone).
 */
const claimed = new Set<string>();
const held = new Set<string>();
const adopted = new Set<string>();

/** Notes `key` as made or adopted by a create of this run; false when another resource already claims or holds it. */
export function claim(key: string): boolean {
  if (claimed.has(key) || held.has(key)) return false;
  claimed.add(key);
  return true;
}

/** Notes objects a resource holds already (made before, in the stack's state): never adopted by another. */
export function hold(...keys: string[]): void {
  for (const k of keys) held.add(k);
}

/** Whether a resource of this run claims or holds `key`. */
export function isClaimed(key: string): boolean {
  return claimed.has(key) || held.has(key);
}

/** Notes `key` as taken over (adopted, not made) by a create of this run. */
export function markAdopted(key: string): void {
  adopted.add(key);
}

/**
 * Whether a create of this run took `key` over: the delete of the resource that had it (renamed, or moved into a
 * set) must leave it to its new owner. (Made in this run is not enough: a resource never deletes what another made
 * in the same run, and a process that creates and deletes one resource — a test — must still delete it.)
 */
export function adoptedInRun(key: string): boolean {
  return adopted.has(key);
}

/** Forgets every claim and hold (a new command starts with none; tests that share a process need the same). */
export function forgetClaims(): void {
  claimed.clear();
  held.clear();
  adopted.clear();
}

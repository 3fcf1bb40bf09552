/**
 * One object, one owner, within a run: the engine serves every resource of a run from one provider process, so the
 * objects this process has made, adopted, or seen held in state (a diff's id) are noted here, and an adopting
 * resource never takes one of them. Two records of one type and name (two MX, a round-robin A pair) each adopt
 * the record with their own content, or make their own: the second never takes the record the first just made.
 *
 * Keys are the service's own ids, prefixed by whatever scopes them (an account, a zone).
 */
const held = new Set<string>();

/** Notes `key` as held by a resource of this run; false when it already was (another resource has it). */
export function claim(key: string): boolean {
  if (held.has(key)) return false;
  held.add(key);
  return true;
}

/** Notes objects a resource holds already (made before, in the stack's state): never adopted by another. */
export function hold(...keys: string[]): void {
  for (const k of keys) held.add(k);
}

export function isClaimed(key: string): boolean {
  return held.has(key);
}

/** Forgets every claim (a new command starts with none; tests that share a process need the same). */
export function forgetClaims(): void {
  held.clear();
}

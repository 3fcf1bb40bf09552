/**
 * Refresh reads of a zone's rules (page rules, and the rules of each entry point ruleset) served from one listing per
 * zone and kind per run: the list endpoints the spec shows, one request for all the rules of a zone instead of one per rule.
 * A rule missing from the listing is gone. Each pulumi command has its own provider process, and a listing serves
 * only for a short while, so nothing is stale across runs.
 *
 * It imports nothing of the edge client's (which forgets listings after each rule write): the caller names the
 * listing's scope (zones.ts's edgeScope, one per account).
 */
const LISTING_MS = 30_000;

const listings = new Map<string, { at: number; byId: Promise<Map<string, { id: string }>> }>();

/** The rule `id` of `zoneId` from the run's listing of that kind in `scope` (made by `list` at the first read). */
export async function listedRule<T extends { id: string }>(
  scope: string,
  kind: string,
  zoneId: string,
  id: string,
  list: () => Promise<T[]> | AsyncIterable<T>,
): Promise<T | undefined> {
  const key = `${scope} ${kind} ${zoneId}`; // per account, as a listing is what that token sees
  let cached = listings.get(key);
  if (!cached || Date.now() - cached.at >= LISTING_MS) {
    const byId = (async () => {
      const all = new Map<string, T>();
      const listed = list();
      if (Symbol.asyncIterator in listed) for await (const r of listed) all.set(r.id, r);
      else for (const r of await listed) all.set(r.id, r);
      return all;
    })();
    byId.catch(() => listings.delete(key));
    cached = { at: Date.now(), byId };
    listings.set(key, cached);
  }
  return (await cached.byId).get(id) as T | undefined;
}

/**
 * Forgets the listings: of one kind and zone after this run changed a rule there (the listing would be stale), or
 * all of them (a new run starts with none; tests that share a process need the same).
 */
export function forgetRuleListings(kind?: string, zoneId?: string): void {
  if (!kind || !zoneId) return listings.clear();
  // Of every scope (another account's listing of the zone is read again too, which costs one request at most).
  const part = ` ${kind} ${zoneId}`; // a ruleset listing's key adds its phase after the zone
  for (const key of listings.keys()) if (key.endsWith(part) || key.includes(`${part} `)) listings.delete(key);
}

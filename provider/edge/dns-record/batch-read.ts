/**
 * Refresh reads batched by zone: reads that arrive together (a refresh reads every record at once) are served by
 * listing the zone page by page — about N / page-size requests instead of N — and the listing serves the rest of
 * the run's reads for a short while. A record missing from the listing is asked for by id before it is reported
 * gone. Each pulumi command has its own provider process, so nothing is ever stale across runs.
 */
import { unlessGone } from "../../handler";
import type * as wire from "../wire";
import { edge, edgeScope } from "../zones";

/** Below this many reads of one zone at once, single GETs are cheaper than listing the zone. */
const MIN_BATCH = 4;
const WINDOW_MS = 15;
const PAGE = 5000;
/** How long one listing serves the reads of a run (a refresh of thousands of records fits well inside it). */
const LISTING_MS = 30_000;

const listings = new Map<string, { at: number; records: Promise<Map<string, wire.DnsRecord>> }>();

/** Listings and batches are per account and zone: `<scope> <zoneId>`. */
const keyOf = (zoneId: string) => `${edgeScope()} ${zoneId}`;

function listing(zoneId: string, create: boolean): Promise<Map<string, wire.DnsRecord>> | undefined {
  const key = keyOf(zoneId);
  const cached = listings.get(key);
  if (cached && Date.now() - cached.at < LISTING_MS) return cached.records;
  if (!create) return undefined;
  const records = (async () => {
    const byId = new Map<string, wire.DnsRecord>();
    for await (const r of edge().dnsRecords(zoneId, {}, PAGE)) byId.set(r.id, r);
    return byId;
  })();
  records.catch(() => listings.delete(key));
  listings.set(key, { at: Date.now(), records });
  return records;
}

const readOne = (zoneId: string, id: string) => unlessGone(() => edge().getDnsRecord(zoneId, id));

/** The record from the listing; one missing from it (made since, or gone) is asked for by id. */
const fromListing = (byId: Map<string, wire.DnsRecord>, zoneId: string, id: string) =>
  byId.has(id) ? Promise.resolve(byId.get(id)) : readOne(zoneId, id);

interface Pending {
  id: string;
  resolve: (r: wire.DnsRecord | undefined) => void;
  reject: (e: unknown) => void;
}

const waiting = new Map<string, Pending[]>();

export function readRecord(zoneId: string, id: string): Promise<wire.DnsRecord | undefined> {
  // Once the zone is listed, a read is served at once: the engine sends reads a few at a time (--parallel), and a
  // batching window per wave would add up to seconds over a thousand records.
  const listed = listing(zoneId, false);
  if (listed) return listed.then((byId) => fromListing(byId, zoneId, id));
  return new Promise((resolve, reject) => {
    const key = keyOf(zoneId);
    const list = waiting.get(key) ?? [];
    list.push({ id, resolve, reject });
    waiting.set(key, list);
    if (list.length === 1) setTimeout(() => void flush(zoneId), WINDOW_MS); // keeps this read's account
  });
}

async function flush(zoneId: string): Promise<void> {
  const key = keyOf(zoneId);
  const batch = waiting.get(key) ?? [];
  waiting.delete(key);
  const single = (p: Pending) => readOne(zoneId, p.id).then(p.resolve, p.reject);
  const records = listing(zoneId, batch.length >= MIN_BATCH);
  if (!records) {
    await Promise.all(batch.map(single));
    return;
  }
  try {
    const byId = await records;
    await Promise.all(batch.map((p) => fromListing(byId, zoneId, p.id).then(p.resolve, p.reject)));
  } catch (e) {
    batch.forEach((p) => p.reject(e));
  }
}

/** Forgets the listings (a new run starts with none; tests that share a process need the same). */
export function forgetListings(): void {
  listings.clear();
}

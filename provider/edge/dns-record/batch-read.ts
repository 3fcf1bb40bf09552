/**
 * Refresh reads batched by zone: reads that arrive together (a refresh reads every record at once) are served by
 * listing the zone page by page — about N / page-size requests instead of N. A record missing from the listing is
 * asked for by id before it is reported gone. The listing lives only as long as the batch, so nothing is stale
 * across runs (each run has its own provider process) or even across the phases of one.
 */
import { unlessGone } from "../../handler";
import type * as wire from "../wire";
import { edge } from "../zones";

/** Below this many reads of one zone at once, single GETs are cheaper than listing the zone. */
const MIN_BATCH = 4;
const WINDOW_MS = 15;
const PAGE = 5000;

interface Pending {
  id: string;
  resolve: (r: wire.DnsRecord | undefined) => void;
  reject: (e: unknown) => void;
}

const waiting = new Map<string, Pending[]>();

export function readRecord(zoneId: string, id: string): Promise<wire.DnsRecord | undefined> {
  return new Promise((resolve, reject) => {
    const list = waiting.get(zoneId) ?? [];
    list.push({ id, resolve, reject });
    waiting.set(zoneId, list);
    if (list.length === 1) setTimeout(() => void flush(zoneId), WINDOW_MS);
  });
}

async function flush(zoneId: string): Promise<void> {
  const batch = waiting.get(zoneId) ?? [];
  waiting.delete(zoneId);
  const single = (p: Pending) => unlessGone(() => edge().getDnsRecord(zoneId, p.id)).then(p.resolve, p.reject);
  if (batch.length < MIN_BATCH) {
    await Promise.all(batch.map(single));
    return;
  }
  try {
    const byId = new Map<string, wire.DnsRecord>();
    for await (const r of edge().dnsRecords(zoneId, {}, PAGE)) byId.set(r.id, r);
    await Promise.all(batch.map((p) => (byId.has(p.id) ? p.resolve(byId.get(p.id)) : single(p))));
  } catch (e) {
    batch.forEach((p) => p.reject(e));
  }
}

/**
 * A record set's changes sent through the service's batch endpoint (`POST /zones/{id}/dns_records/batch`): up to
 * `ops:edgeBatchSize` changes a request (the zone plan's limit: 200 free, 3,500 paid), one request against the
 * allowance instead of one per record — 10,000 records are 50 requests, not 42 minutes of allowance.
 *
 * A batch is all or nothing, and the service runs its deletes, patches, then posts: batches go one after another in
 * the order the changes are given (deletes first), so a record never waits for a name a later batch frees.
 * - A refused batch (one change the service will not take) applied nothing: its changes go again as single
 *   requests, so each record gets its own answer and the good ones are made, as without batches.
 * - A lost answer (dropped connection, timeout, 5xx) is never sent again blindly: the zone is listed once and each
 *   change is looked for (a post by its identical record, a delete by its absence); what the service applied is
 *   kept, and only what it did not is sent again.
 * - A service without the endpoint (no such route) gets single requests for the rest of the run.
 */
import { outcomeUnknown } from "../../handler";
import { ApiError, AuthError, RateLimitError } from "../../http/errors";
import { warn } from "../../log";
import type * as wire from "../wire";
import { sameValue } from "../dns-record/normalize";
import { edge, type ZoneRef } from "../zones";

/** Requests in flight at once for single requests (the engine's own default parallelism). */
const PARALLEL = 8;
/** Times one batch is sent when its answer is lost and the zone shows it was not applied. */
const ATTEMPTS = 3;
/** The largest page the service gives of a zone's records. */
const PAGE = 5000;

export type Op =
  | { kind: "delete"; key: string; id: string }
  | { kind: "patch"; key: string; id: string; body: wire.DnsRecordBody }
  | { kind: "post"; key: string; body: wire.DnsRecordBody };
/** A change the service applied, with the record it answered (none for a delete). */
export type Done = { op: Op; rec?: wire.DnsRecord };
export type Failure = { key: string; error: unknown };

/** Runs `f` on every item, PARALLEL at a time; returns the failures (the others succeeded). */
export async function each<T>(items: T[], f: (item: T) => Promise<void>, keyOf: (item: T) => string): Promise<Failure[]> {
  const failures: Failure[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(PARALLEL, items.length) }, async () => {
      while (next < items.length) {
        const item = items[next++];
        await f(item).catch((error: unknown) => failures.push({ key: keyOf(item), error }));
      }
    }),
  );
  return failures;
}

function request(ops: Op[]): wire.DnsBatch {
  const batch: Required<Pick<wire.DnsBatch, "deletes" | "patches" | "posts">> = { deletes: [], patches: [], posts: [] };
  for (const op of ops) {
    if (op.kind === "delete") batch.deletes.push({ id: op.id });
    else if (op.kind === "patch") batch.patches.push({ id: op.id, ...op.body });
    else batch.posts.push(op.body);
  }
  return Object.fromEntries(Object.entries(batch).filter(([, v]) => v.length));
}

/** The answer's records matched to the changes sent: each group answers in the order it was sent. */
function answered(ops: Op[], result: Exclude<Awaited<ReturnType<ReturnType<typeof edge>["batchDnsRecords"]>>, undefined>): Done[] {
  const at = { delete: 0, patch: 0, post: 0 };
  const group = { delete: result.deletes ?? [], patch: result.patches ?? [], post: result.posts ?? [] };
  return ops.map((op) => ({ op, rec: op.kind === "delete" ? undefined : group[op.kind][at[op.kind]++] }));
}

/**
 * After a lost answer: which of the changes the zone shows applied. A post is applied when a record identical to
 * it is there that was not there before; a delete when the record is gone. A batch is all or nothing, so a patch
 * counts as applied when anything else of its batch did; a batch of patches alone is simply sent again (a patch
 * repeated changes nothing).
 */
async function settle(zone: ZoneRef, ops: Op[], before: Set<string>): Promise<{ applied: Done[]; pending: Op[] }> {
  const now = new Map<string, wire.DnsRecord>();
  for await (const rec of edge().dnsRecords(zone.id, {}, PAGE)) now.set(rec.id, rec);
  const claimed = new Set<string>();
  const found = new Map<Op, wire.DnsRecord | null>();
  for (const op of ops) {
    if (op.kind === "delete" && !now.has(op.id)) found.set(op, null);
    if (op.kind === "post") {
      const made = [...now.values()].find((r) => !before.has(r.id) && !claimed.has(r.id) && sameValue(r, op.body as never));
      if (made) {
        found.set(op, made);
        claimed.add(made.id);
      }
    }
  }
  const batchApplied = found.size > 0;
  const applied: Done[] = [];
  const pending: Op[] = [];
  for (const op of ops) {
    if (found.has(op)) applied.push({ op, rec: found.get(op) ?? undefined });
    else if (op.kind === "patch" && batchApplied && now.has(op.id)) applied.push({ op, rec: now.get(op.id) });
    else pending.push(op);
  }
  return { applied, pending };
}

/**
 * Applies `ops` in batches of the client's size, in order; `single` applies one change by itself (the path of a
 * service without batches, and of a refused batch). Returns what was applied and what failed, per key.
 */
export async function applyInBatches(
  zone: ZoneRef,
  ops: Op[],
  single: (op: Op) => Promise<wire.DnsRecord | undefined>,
  known: Set<string>,
): Promise<{ done: Done[]; failures: Failure[] }> {
  const client = edge();
  const done: Done[] = [];
  const failures: Failure[] = [];
  const alone: Op[] = [];
  for (let start = 0; start < ops.length; start += client.batchSize || ops.length) {
    let pending = ops.slice(start, start + (client.batchSize || ops.length));
    for (let attempt = 1; pending.length && client.batches; attempt++) {
      try {
        const result = await client.batchDnsRecords(zone.id, request(pending));
        if (!result) break; // no batches on this service: single requests
        done.push(...answered(pending, result));
        pending = [];
      } catch (e) {
        if (outcomeUnknown(e)) {
          const { applied, pending: rest } = await settle(zone, pending, known);
          if (applied.length)
            warn(
              `edge: the answer to a batch of ${pending.length} changes in ${zone.name} was lost; the service had applied ${applied.length === pending.length ? "it" : `${applied.length} of them`}, kept`,
            );
          done.push(...applied);
          pending = rest;
          if (pending.length && attempt >= ATTEMPTS) {
            failures.push(...pending.map((op) => ({ key: op.key, error: e })));
            pending = [];
          }
          continue;
        }
        // Refused for the credential or the allowance: single requests would meet the same answer.
        if (e instanceof AuthError || e instanceof RateLimitError || !(e instanceof ApiError) || !e.status || e.status >= 500) {
          failures.push(...pending.map((op) => ({ key: op.key, error: e })));
          pending = [];
        }
        break; // one change refused, nothing applied: single requests tell each record's own answer
      }
    }
    alone.push(...pending);
  }
  if (alone.length) {
    // Deletes first (a new record may need the name an old one holds); a new record whose old one stayed is not made.
    const deletes = alone.filter((op) => op.kind === "delete");
    const others = alone.filter((op) => op.kind !== "delete");
    const run = (list: Op[]) =>
      each(
        list,
        async (op) => void done.push({ op, rec: await single(op) }),
        (op) => op.key,
      );
    const failed = await run(deletes);
    failures.push(...failed);
    const kept = new Set(failed.map((f) => f.key));
    failures.push(...(await run(others.filter((op) => !(op.kind === "post" && kept.has(op.key))))));
  }
  return { done, failures };
}

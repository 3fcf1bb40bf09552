/**
 * Queues as the service keeps them (API reference, "Queues"; the official `cloudflare` SDKs' `queues`): made by name
 * (`POST .../queues` with `queue_name`; a name the account holds already is refused with 11009, a malformed one with
 * 11003), read and deleted by id (one a Worker still sends to is refused with 11005), and
 * the messages a producer Worker sends, taken by a pull consumer (`POST .../queues/{id}/messages/pull`). A Worker's
 * queue binding names the queue (`queue_name`); an upload naming one the account lacks is refused with 11000.
 */
import type { Request } from "../kit";
import { fail } from "./dns";
import type { EdgeRoute } from "./access";
import type { EdgeEmulator } from "./server";

export interface StoredQueue {
  queue_id: string;
  queue_name: string;
  created_on: string;
  modified_on: string;
  /** What producers sent, oldest first, until a pull takes it. */
  messages: { id: string; body: unknown; timestamp_ms: number; attempts: number }[];
}

/** The queue named `name`, if the account has it. */
export const queueNamed = (emu: EdgeEmulator, name: string): StoredQueue | undefined =>
  [...emu.queues.values()].find((q) => q.queue_name === name);

/** What a queue binding's `env` property does in a Worker: `send` and `sendBatch` put messages on the queue. */
export function producer(emu: EdgeEmulator, name: string) {
  const put = (body: unknown) => {
    const q = queueNamed(emu, name) ?? fail(404, 11000, `Queue ${name} does not exist`);
    q.messages.push({ id: emu.nextId(), body, timestamp_ms: emu.now(), attempts: 0 });
  };
  return {
    send: async (body: unknown) => put(body),
    sendBatch: async (batch: Iterable<{ body: unknown }>) => {
      for (const m of batch) put(m.body);
    },
  };
}

export function registerQueueRoutes(emu: EdgeEmulator, r: EdgeRoute): void {
  const base = "/accounts/:account/queues";
  const view = (q: StoredQueue) => ({
    queue_id: q.queue_id,
    queue_name: q.queue_name,
    created_on: q.created_on,
    modified_on: q.modified_on,
    producers: [...emu.scripts.entries()]
      .filter(([, s]) => s.bindings.some((b) => b.type === "queue" && b.queue_name === q.queue_name))
      .map(([script]) => ({ type: "worker", script })),
    producers_total_count: [...emu.scripts.values()].filter((s) =>
      s.bindings.some((b) => b.type === "queue" && b.queue_name === q.queue_name),
    ).length,
    consumers: [],
    consumers_total_count: 0,
    settings: { delivery_delay: 0, delivery_paused: false, message_retention_period: 345600 },
  });
  const queue = (req: Request): StoredQueue => {
    emu.account(req);
    return emu.queues.get(req.params.id) ?? fail(404, 11000, "Queue does not exist");
  };

  r("GET", base, "queues:read", (req) => {
    emu.account(req);
    return emu.page(req, [...emu.queues.values()].map(view), { perPage: 100, min: 1, max: 1000 });
  });
  r("POST", base, "queues:edit", (req) => {
    emu.account(req);
    const name = JSON.parse(req.rawBody || "{}").queue_name;
    if (typeof name !== "string" || !/^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/.test(name))
      fail(400, 11003, "queue_name must be 1 to 63 lowercase letters, digits and -, not starting or ending with -");
    if (queueNamed(emu, name)) fail(409, 11009, `Queue name '${name}' is already taken. Please use a different name and try again.`);
    const now = emu.timestamp();
    const q: StoredQueue = { queue_id: emu.nextId(), queue_name: name, created_on: now, modified_on: now, messages: [] };
    emu.queues.set(q.queue_id, q);
    return emu.ok(view(q));
  });
  r("GET", `${base}/:id`, "queues:read", (req) => emu.ok(view(queue(req))));
  r("DELETE", `${base}/:id`, "queues:edit", (req) => {
    const q = queue(req);
    const producer = [...emu.scripts.entries()].find(([, s]) =>
      s.bindings.some((b) => b.type === "queue" && b.queue_name === q.queue_name),
    );
    if (producer) fail(400, 11005, `Queue ${q.queue_name} is in use by the Worker ${producer[0]}: remove its binding first`);
    emu.queues.delete(q.queue_id);
    return emu.ok(null);
  });
  // A pull consumer's read: up to batch_size messages, each leased to the caller (the lease is not modelled: a
  // message pulled is gone).
  r("POST", `${base}/:id/messages/pull`, "queues:read", (req) => {
    const q = queue(req);
    const size = Number(JSON.parse(req.rawBody || "{}").batch_size ?? 5);
    const taken = q.messages.splice(0, Math.max(1, Math.min(100, size)));
    return emu.ok({
      message_backlog_count: q.messages.length,
      messages: taken.map((m) => ({
        id: m.id,
        body: typeof m.body === "string" ? m.body : JSON.stringify(m.body),
        attempts: m.attempts + 1,
        lease_id: `lease-${m.id}`,
        metadata: { "CF-Content-Type": typeof m.body === "string" ? "text" : "json" },
        timestamp_ms: m.timestamp_ms,
      })),
    });
  });
}

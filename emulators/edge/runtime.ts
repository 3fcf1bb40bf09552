/**
 * The edge serving a request, as a visitor sees it: the script a URL reaches (`servedBy`) run with its bindings as
 * the Workers runtime hands them in `env` — plain-text variables and secrets as strings, a KV namespace with `get`
 * and `put` (the runtime's KV API: `get` answers the text, or null), an R2 bucket with `get` (an object with
 * `text()`, or null) and `put`, a D1 database with `prepare(sql).bind(...).first()`, `.all()` and `.run()`, another
 * Worker (a service binding) with `fetch`, a queue with `send` and `sendBatch`, a Durable Object namespace as
 * durable-objects.ts runs it — and its answer returned. Module scripts only (`export default { fetch }`, a Durable
 * Object an exported class), imported as they were uploaded: the emulator runs what the tests and the demo deploy,
 * in its own process.
 */
import type { EdgeEmulator } from "./server";
import type { Binding } from "./workers";
import { servedBy } from "./worker-routes";
import { producer } from "./queues";
import { durableNamespace } from "./durable-objects";

type Module = Record<string, unknown> & {
  default?: { fetch?: (req: Request, env: unknown, ctx: unknown) => Promise<Response> | Response };
};

/** A module script as uploaded (Node keeps one module per text, so its classes stay the same between requests). */
async function moduleOf(body: string): Promise<Module> {
  return (await import(`data:text/javascript;base64,${Buffer.from(body).toString("base64")}`)) as Module;
}

/** The script `name`'s module and the `env` its bindings make. */
async function load(emu: EdgeEmulator, name: string) {
  const script = emu.scripts.get(name);
  if (!script) throw new Error(`no script ${name}`);
  if (script.format !== "module") throw new Error(`the emulator runs module scripts only (${name} is a service worker)`);
  const mod = await moduleOf(script.body);
  const classOf = (c: string) =>
    typeof mod[c] === "function" ? (mod[c] as new (state: unknown, env: unknown) => Record<string, unknown>) : undefined;
  return { mod, classOf, env: envOf(emu, name, script.bindings) };
}

/** A request run by the script `name`'s fetch handler (a service binding's `fetch`). */
async function fetchOf(emu: EdgeEmulator, name: string, input: string | Request, init?: RequestInit): Promise<Response> {
  const { mod, env } = await load(emu, name);
  if (typeof mod.default?.fetch !== "function") throw new Error(`the script ${name} has no fetch handler`);
  const req = input instanceof Request ? input : new Request(input.includes("://") ? input : `https://${input}`, init);
  return mod.default.fetch(req, env, { waitUntil: () => undefined, passThroughOnException: () => undefined });
}

export interface Served {
  status: number;
  body: string;
  /** The script that answered, and how the request reached it. */
  script?: string;
  via?: string;
}

/** The `env` a script gets from its bindings. A binding of a kind the emulator does not run is left out. */
function envOf(emu: EdgeEmulator, script: string, bindings: readonly Binding[]): Record<string, unknown> {
  const env: Record<string, unknown> = {};
  for (const b of bindings) {
    if (b.type === "service")
      env[b.name] = { fetch: (input: string | Request, init?: RequestInit) => fetchOf(emu, String(b.service), input, init) };
    if (b.type === "queue") env[b.name] = producer(emu, String(b.queue_name));
    if (b.type === "durable_object_namespace")
      env[b.name] = durableNamespace(emu, String(b.script_name ?? script), String(b.class_name), (host) => load(emu, host));
    if (b.type === "plain_text" || b.type === "secret_text") env[b.name] = b.text ?? "";
    if (b.type === "kv_namespace") {
      const ns = () => emu.namespaces.get(String(b.namespace_id));
      env[b.name] = {
        get: async (key: string, type?: string | { type?: string }) => {
          const value = ns()?.values.get(key);
          if (value === undefined) return null;
          return (typeof type === "string" ? type : type?.type) === "json" ? JSON.parse(value) : value;
        },
        put: async (key: string, value: string) => void ns()?.values.set(key, String(value)),
      };
    }
    if (b.type === "r2_bucket") {
      const bucket = () => emu.buckets.get(`${b.jurisdiction ?? "default"}/${b.bucket_name}`);
      env[b.name] = {
        get: async (key: string) => {
          const value = bucket()?.objects.get(key);
          if (value === undefined) return null;
          return { key, size: Buffer.byteLength(value), text: async () => value, json: async () => JSON.parse(value) };
        },
        put: async (key: string, value: string) => void bucket()?.objects.set(key, String(value)),
      };
    }
    if (b.type === "d1") {
      const db = () => emu.databases.get(String(b.id ?? b.database_id))?.db;
      env[b.name] = {
        prepare: (sql: string) => {
          const statement = (params: unknown[]) => ({
            bind: (...more: unknown[]) => statement([...params, ...more]),
            first: async (column?: string) => {
              const row =
                (db()
                  ?.prepare(sql)
                  .all(...params)[0] as Record<string, unknown> | undefined) ?? null;
              return column && row ? row[column] : row;
            },
            all: async () => ({
              success: true,
              results:
                db()
                  ?.prepare(sql)
                  .all(...params) ?? [],
              meta: {},
            }),
            run: async () => ({
              success: true,
              results: [],
              meta:
                (db()
                  ?.prepare(sql)
                  .run(...params),
                {}),
            }),
          });
          return statement([]);
        },
      };
    }
  }
  return env;
}

export async function serve(emu: EdgeEmulator, url: string, init: RequestInit = {}): Promise<Served> {
  const reached = servedBy(emu, url);
  const script = reached.script && emu.scripts.get(reached.script);
  if (!script) return { status: 404, body: "no script serves this URL", ...reached };
  if (script.format !== "module") return { status: 501, body: "the emulator runs module scripts only", ...reached };
  if (typeof (await moduleOf(script.body)).default?.fetch !== "function")
    return { status: 500, body: "the script has no fetch handler", ...reached };
  try {
    const res = await fetchOf(emu, reached.script!, url, init);
    return { status: res.status, body: await res.text(), ...reached };
  } catch (e) {
    // The runtime's answer to an uncaught exception (error 1101, "Worker threw exception").
    return { status: 500, body: `Worker threw exception: ${(e as Error).message}`, ...reached };
  }
}

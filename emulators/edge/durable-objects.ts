/**
 * Durable Object classes as the service keeps them: a script's classes exist only through its migrations (the
 * upload metadata's `migrations`, one step or `{old_tag, new_tag, steps}`; the script then carries `migration_tag`,
 * "the tag of the Durable Object migration that was most recently applied", in its list item and upload answer). An
 * upload whose `old_tag` is not the script's tag is refused with 10079; a step that makes a class already there, or
 * deletes or renames one that is not, with 10074; a binding to a class no migration made, with 10061. A class's
 * objects belong to its namespace, which a rename or a transfer keeps and a deletion (of the class or of its script)
 * deletes with their storage. At run time a binding is a namespace (`idFromName`, `newUniqueId`, `idFromString`,
 * `get`) whose stubs reach one instance of the class per id, made with its state (`state.storage`: `get`, `put`,
 * `delete`, `list`) and its script's `env`; an upload of the script makes its objects anew, their storage kept.
 */
import { createHash, randomBytes } from "node:crypto";
import { fail } from "./dns";
import type { EdgeEmulator } from "./server";
import type { Binding, StoredScript } from "./workers";

export interface DurableClass {
  name: string;
  /** The namespace its objects live in: kept by a rename or a transfer. */
  namespace_id: string;
  /** Made by `new_sqlite_classes` (SQLite-backed storage) rather than `new_classes`. */
  sqlite: boolean;
}

type Step = {
  new_classes?: string[];
  new_sqlite_classes?: string[];
  deleted_classes?: string[];
  renamed_classes?: { from?: string; to?: string }[];
  transferred_classes?: { from?: string; from_script?: string; to?: string }[];
};

const list = (v: unknown, what: string): string[] => {
  if (v === undefined) return [];
  if (!Array.isArray(v) || v.some((x) => typeof x !== "string" || !x))
    fail(400, 10021, `migrations: ${what} must be a list of class names`);
  return v as string[];
};

/** An upload's migrations, checked: the script's tag and classes after them, and what the upload then changes elsewhere. */
export interface Migrated {
  migration_tag?: string;
  durable_classes: DurableClass[];
  /** Classes taken from other scripts (`transferred_classes`), taken when the upload is stored. */
  transfers: { script: string; name: string }[];
  /** Namespaces of deleted classes: their objects go when the upload is stored. */
  deleted: string[];
}

/**
 * The script's tag and classes once an upload's migrations are applied (none sent: as they were), changing nothing
 * yet: the upload may still be refused. `scripts`: the account's scripts, for a class transferred from another.
 */
export function migrate(
  scripts: Map<string, StoredScript>,
  was: Pick<StoredScript, "migration_tag" | "durable_classes"> | undefined,
  migrations: unknown,
  newId: () => string,
): Migrated {
  const current: Migrated = {
    migration_tag: was?.migration_tag,
    durable_classes: [...(was?.durable_classes ?? [])],
    transfers: [],
    deleted: [],
  };
  if (migrations === undefined || migrations === null) return current;
  if (typeof migrations !== "object" || Array.isArray(migrations)) fail(400, 10021, "metadata.migrations must be an object");
  const m = migrations as Step & { old_tag?: string; new_tag?: string; steps?: Step[] };
  if ((m.old_tag ?? "") !== (current.migration_tag ?? ""))
    fail(400, 10079, `Migration tag precondition failed; current tag is '${current.migration_tag ?? ""}'`);
  if (m.steps !== undefined && !Array.isArray(m.steps)) fail(400, 10021, "metadata.migrations.steps must be a list");
  const classes = new Map(current.durable_classes.map((c) => [c.name, c]));
  const make = (name: string, sqlite: boolean, namespace_id = newId()) => {
    if (classes.has(name))
      fail(400, 10074, `Cannot apply new-class migration to class '${name}' that is already depended on by existing Durable Objects`);
    classes.set(name, { name, sqlite, namespace_id });
  };
  const transfers: Migrated["transfers"] = [];
  const deleted: string[] = [];
  const take = (name: string | undefined, kind: string) => {
    const c = (name && classes.get(name)) || fail(400, 10074, `Cannot apply ${kind} migration to class '${name}' which does not exist`);
    classes.delete(c.name);
    return c;
  };
  for (const step of m.steps ?? [m]) {
    for (const name of list(step.new_classes, "new_classes")) make(name, false);
    for (const name of list(step.new_sqlite_classes, "new_sqlite_classes")) make(name, true);
    for (const { from, to } of step.renamed_classes ?? []) {
      const c = take(from, "rename-class");
      make(String(to), c.sqlite, c.namespace_id);
    }
    for (const { from, from_script, to } of step.transferred_classes ?? []) {
      const source =
        scripts.get(String(from_script)) ?? fail(400, 10074, `Cannot transfer class '${from}': script '${from_script}' not found`);
      const c =
        source.durable_classes.find((x) => x.name === from) ??
        fail(400, 10074, `Cannot transfer class '${from}': '${from_script}' has none`);
      transfers.push({ script: String(from_script), name: c.name });
      make(String(to), c.sqlite, c.namespace_id);
    }
    for (const name of list(step.deleted_classes, "deleted_classes")) deleted.push(take(name, "delete-class").namespace_id);
  }
  return { migration_tag: m.new_tag ?? current.migration_tag, durable_classes: [...classes.values()], transfers, deleted };
}

/** What a stored upload changes besides its script: classes moved out of other scripts, deleted objects, and the
 * script's live objects, made anew on their next request with the code just uploaded. */
export function settle(emu: EdgeEmulator, m: Migrated): void {
  for (const t of m.transfers) {
    const source = emu.scripts.get(t.script);
    if (source) source.durable_classes = source.durable_classes.filter((c) => c.name !== t.name);
  }
  forget(emu, m.deleted, true);
  forget(
    emu,
    m.durable_classes.map((c) => c.namespace_id),
    false,
  );
}

/** The objects of these namespaces: their instances dropped, and with `storage` their storage too. */
export function forget(emu: EdgeEmulator, namespaces: readonly string[], storage: boolean): void {
  for (const [key, o] of emu.durableObjects)
    if (namespaces.some((n) => key.startsWith(`${n}/`))) {
      if (storage) emu.durableObjects.delete(key);
      else o.instance = undefined;
    }
}

/** A Durable Object binding's class must exist: made by this upload's script, or by the script it names. */
export function checkDurableBinding(scripts: Map<string, StoredScript>, own: DurableClass[], b: Binding): void {
  const classes = b.script_name === undefined ? own : (scripts.get(String(b.script_name))?.durable_classes ?? []);
  if (!classes.some((c) => c.name === b.class_name))
    fail(
      400,
      10061,
      `Cannot create binding for class '${b.class_name}' because it is not currently configured to implement Durable Objects. Ensure a --new-class migration has been applied to it.`,
    );
}

type Instance = Record<string, unknown> & { fetch?: (req: Request) => Promise<Response> | Response };
type Loaded = { classOf(name: string): (new (state: unknown, env: unknown) => Instance) | undefined; env: Record<string, unknown> };

/** What a Durable Object binding's `env` property is: the namespace of `className`, defined by the script `host`. */
export function durableNamespace(emu: EdgeEmulator, host: string, className: string, load: (script: string) => Promise<Loaded>) {
  const idOf = (hex: string, name?: string) => ({ name, toString: () => hex, equals: (o: { toString(): string }) => o.toString() === hex });
  const namespace = () =>
    emu.scripts.get(host)?.durable_classes?.find((c) => c.name === className)?.namespace_id ??
    fail(500, 10061, `the script ${host} has no Durable Object class ${className}`);
  const instance = async (hex: string): Promise<Instance> => {
    const key = `${namespace()}/${hex}`;
    const live = emu.durableObjects.get(key);
    if (live?.instance) return live.instance as Instance;
    const { classOf, env } = await load(host);
    const Cls = classOf(className) ?? fail(500, 10061, `the script ${host} exports no class ${className}`);
    const storage = live?.storage ?? new Map<string, unknown>();
    const state = {
      id: idOf(hex),
      storage: {
        get: async (k: string) => storage.get(k),
        put: async (k: string, v: unknown) => void storage.set(k, structuredClone(v)),
        delete: async (k: string) => storage.delete(k),
        list: async () => new Map([...storage.entries()].sort(([a], [b]) => a.localeCompare(b))),
      },
      blockConcurrencyWhile: async <T>(fn: () => Promise<T>) => fn(),
    };
    const made = new Cls(state, env);
    emu.durableObjects.set(key, { instance: made, storage });
    return made;
  };
  // A stub: `fetch` reaches the instance's fetch handler; any other property is an RPC method of the class.
  const stub = (hex: string) =>
    new Proxy(
      {},
      {
        get: (_t, prop) =>
          prop === "id"
            ? idOf(hex)
            : prop === "then"
              ? undefined
              : async (...args: unknown[]) => {
                  const o = await instance(hex);
                  if (prop === "fetch") {
                    const [input, init] = args as [string | Request, RequestInit | undefined];
                    return o.fetch!(input instanceof Request ? input : new Request(input, init));
                  }
                  const method = o[prop as string];
                  if (typeof method !== "function") throw new TypeError(`${className} has no method ${String(prop)}`);
                  return (method as (...a: unknown[]) => unknown).apply(o, args);
                },
      },
    );
  return {
    idFromName: (name: string) => idOf(createHash("sha256").update(`${namespace()}/${name}`).digest("hex"), name),
    idFromString: (hex: string) => idOf(hex),
    newUniqueId: () => idOf(randomBytes(32).toString("hex")),
    get: (id: { toString(): string }) => stub(id.toString()),
  };
}

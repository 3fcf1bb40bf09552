/**
 * Edge scripts as the service takes them today (developers.cloudflare.com/workers/configuration/multipart-upload-
 * metadata/): `PUT .../workers/scripts/{name}` with `multipart/form-data`, a `metadata` part (`main_module` for ES
 * modules, `body_part` for service-worker syntax; `compatibility_date`, `compatibility_flags`) and the parts it names;
 * a raw `application/javascript` body is service-worker syntax, where `export` is a syntax error (10021). Without a
 * compatibility date a script runs on 2021-11-02's semantics. Read back with `.../content/v2` (the parts, as
 * multipart, for a module) and `.../settings` (with the script's `tags`, which the metadata sets: "List of strings to
 * use as tags for this Worker", in the official SDKs' upload params).
 */
import { createHash } from "node:crypto";
import { type Reply, type Request } from "../kit";
import { fail } from "./dns";
import type { EdgeRoute } from "./access";
import type { EdgeEmulator } from "./server";
import { checkDurableBinding, forget, migrate, settle, type DurableClass, type Migrated } from "./durable-objects";
import { queueNamed } from "./queues";

export interface StoredScript {
  /** The main part's text (for tests and the demo: what runs). */
  body: string;
  format: "module" | "service-worker";
  main: string;
  parts: { name: string; type: string; text: string }[];
  compatibility_date: string;
  compatibility_flags: string[];
  /** The metadata's `tags` (free text): kept by an upload that sends none. */
  tags: string[];
  created_on: string;
  modified_on: string;
  /** Its bindings: plain-text variables and secrets among them (a secret's text is never read back). */
  bindings: Binding[];
  /** Its workers.dev endpoint and preview URLs (off for a new script). */
  subdomain: { enabled: boolean; previews_enabled: boolean };
  /** The last Durable Object migration applied, and the classes the migrations made (durable-objects.ts). */
  migration_tag?: string;
  durable_classes: DurableClass[];
}

export type Binding = { type: string; name: string; text?: string } & Record<string, unknown>;

const DEFAULT_DATE = "2021-11-02";
const MODULE_SYNTAX = /^\s*(export|import)\s|^\s*export\s+default\b/m;

function syntaxCheck(format: StoredScript["format"], text: string): void {
  if (format === "service-worker" && MODULE_SYNTAX.test(text)) {
    const token = /^\s*(export|import)\b/m.exec(text)?.[1] ?? "export";
    fail(400, 10021, `Uncaught SyntaxError: Unexpected token '${token}'`);
  }
}

async function multipart(req: Request): Promise<Map<string, { type: string; text: string }>> {
  const form = await new Response(req.rawBody, { headers: { "content-type": String(req.headers["content-type"]) } })
    .formData()
    .catch(() => fail(400, 10026, "could not parse the multipart body"));
  const parts = new Map<string, { type: string; text: string }>();
  // A part is found by its field name, or by its file name (the official SDK sends every file as a `files` field).
  for (const [name, value] of form as FormData) {
    if (typeof value === "string") parts.set(name, { type: "text/plain", text: value });
    else {
      const part = { type: value.type, text: await value.text() };
      parts.set(name, part);
      if (value.name) parts.set(value.name, part);
    }
  }
  return parts;
}

/** Per type, the field a binding to storage or a service needs (the upload metadata's names; a D1 one `id`). */
const TARGET: Record<string, string> = {
  kv_namespace: "namespace_id",
  r2_bucket: "bucket_name",
  d1: "id",
  service: "service",
  queue: "queue_name",
  durable_object_namespace: "class_name",
  analytics_engine: "dataset",
};

/**
 * The bindings of an upload's metadata: each a type and a unique name; plain and secret text carry `text`; a binding
 * to storage or a service names its target, which must exist (a KV namespace the account has: 10041 otherwise, as
 * the service answers; a Durable Object class of `classes`, the upload's script's once migrated, or of the script
 * the binding names).
 */
function bindingsOf(emu: EdgeEmulator, list: unknown, classes: DurableClass[]): Binding[] {
  if (list === undefined) return [];
  if (!Array.isArray(list)) fail(400, 10021, "metadata.bindings must be a list");
  const names = new Set<string>();
  return list.map((b: any) => {
    if (!b || typeof b.type !== "string" || typeof b.name !== "string" || !b.name) fail(400, 10021, "a binding needs a type and a name");
    if (names.has(b.name)) fail(400, 10021, `Binding name '${b.name}' is used more than once`);
    names.add(b.name);
    if ((b.type === "plain_text" || b.type === "secret_text") && typeof b.text !== "string")
      fail(400, 10021, `binding ${b.name}: a ${b.type} binding needs text`);
    const field = TARGET[b.type];
    const target = field === "id" ? (b.id ?? b.database_id) : field && b[field];
    if (field && (typeof target !== "string" || !target))
      fail(400, 10021, `binding ${b.name} of type ${b.type} must have a valid \`${field}\` specified`);
    if (b.type === "kv_namespace" && !emu.namespaces.has(target)) fail(400, 10041, `No KV namespace found with ID ${target}`);
    if (b.type === "r2_bucket" && !emu.buckets.has(`${b.jurisdiction ?? "default"}/${target}`))
      fail(400, 10085, `R2 bucket '${target}' not found`);
    if (b.type === "d1" && !emu.databases.has(target)) fail(400, 10181, `D1 database '${target}' not found`);
    if (b.type === "queue" && !queueNamed(emu, target)) fail(400, 11000, `Queue ${target} does not exist`);
    if (b.type === "service" && !emu.scripts.has(target))
      fail(400, 10143, `Could not resolve service binding '${b.name}'. Target script '${target}' not found.`);
    if (b.type === "durable_object_namespace") checkDurableBinding(emu.scripts, classes, b);
    return (b.type === "d1" ? { ...b, id: target, database_id: target } : { ...b }) as Binding;
  });
}

/** A binding as the settings read shows it: a secret's text is never shown. */
const bindingView = (b: Binding) => (b.type === "secret_text" ? { type: b.type, name: b.name } : { ...b });

export function registerWorkerRoutes(emu: EdgeEmulator, r: EdgeRoute): void {
  const account = (req: Request) => emu.account(req);
  const script = (req: Request) => emu.scripts.get(req.params.name) ?? fail(404, 10007, "workers.api.error.script_not_found");
  const view = (id: string) => {
    const s = emu.scripts.get(id)!;
    return {
      id,
      etag: createHash("sha256").update(s.body).digest("hex"),
      size: Buffer.byteLength(s.body),
      created_on: s.created_on,
      modified_on: s.modified_on,
      compatibility_date: s.compatibility_date,
      compatibility_flags: s.compatibility_flags,
      handlers: ["fetch"],
      has_modules: s.format === "module",
      ...(s.migration_tag ? { migration_tag: s.migration_tag } : {}),
    };
  };

  r("GET", "/accounts/:account/workers/scripts", "workers:edit", (req) => {
    account(req);
    return emu.ok([...emu.scripts.keys()].map(view));
  });
  r("PUT", "/accounts/:account/workers/scripts/:name", "workers:edit", async (req) => {
    account(req);
    if (!/^[a-z0-9][a-z0-9_-]{0,62}$/.test(req.params.name)) fail(400, 10016, "script name is invalid");
    const type = String(req.headers["content-type"] ?? "");
    let stored: Omit<StoredScript, "created_on" | "modified_on" | "tags" | "bindings" | "subdomain" | "durable_classes">;
    const was = emu.scripts.get(req.params.name);
    let migrated: Migrated = { migration_tag: was?.migration_tag, durable_classes: was?.durable_classes ?? [], transfers: [], deleted: [] };
    let tags: string[] | undefined;
    let bindingsSent: Binding[] = [];
    let keep: string[] | undefined;
    if (type.startsWith("multipart/form-data")) {
      const parts = await multipart(req);
      let metadata: any;
      try {
        metadata = JSON.parse(parts.get("metadata")?.text ?? "");
      } catch {
        fail(400, 10021, "the metadata part is missing or is not JSON");
      }
      const main = metadata.main_module ?? metadata.body_part;
      if (!main || (metadata.main_module && metadata.body_part))
        fail(400, 10021, "metadata must name exactly one of main_module (ES modules) and body_part (service worker)");
      const part = parts.get(main) ?? fail(400, 10021, `No such module "${main}": the metadata names a part that is not in the upload`);
      const format = metadata.main_module ? "module" : "service-worker";
      if (metadata.tags !== undefined && (!Array.isArray(metadata.tags) || metadata.tags.some((t: unknown) => typeof t !== "string")))
        fail(400, 10021, "metadata.tags must be a list of strings");
      tags = metadata.tags;
      migrated = migrate(emu.scripts, was, metadata.migrations, emu.nextId);
      bindingsSent = bindingsOf(emu, metadata.bindings, migrated.durable_classes);
      keep = metadata.keep_bindings;
      if (keep !== undefined && (!Array.isArray(keep) || keep.some((t: unknown) => typeof t !== "string")))
        fail(400, 10021, "metadata.keep_bindings must be a list of binding types");
      if (format === "module" && !/\bexport\s+default\b/.test(part.text))
        fail(400, 10021, "No event handlers were registered. This script does nothing.");
      syntaxCheck(format, part.text);
      const date = metadata.compatibility_date ?? DEFAULT_DATE;
      if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || date > new Date(emu.now()).toISOString().slice(0, 10))
        fail(400, 10021, `compatibility_date "${date}" is not a date the runtime supports`);
      stored = {
        body: part.text,
        format,
        main,
        parts: [...new Set(parts.values())]
          .filter((p) => p !== parts.get("metadata"))
          .map((p) => ({ name: [...parts.entries()].findLast(([, v]) => v === p)![0], type: p.type, text: p.text })),
        compatibility_date: date,
        compatibility_flags: Array.isArray(metadata.compatibility_flags) ? metadata.compatibility_flags : [],
      };
    } else if (type.startsWith("application/javascript")) {
      syntaxCheck("service-worker", req.rawBody);
      stored = {
        body: req.rawBody,
        format: "service-worker",
        main: "script",
        parts: [{ name: "script", type: "application/javascript", text: req.rawBody }],
        compatibility_date: DEFAULT_DATE,
        compatibility_flags: [],
      };
    } else {
      fail(415, 10008, "Content-Type must be multipart/form-data (or application/javascript for a service worker)");
    }
    const now = emu.timestamp();
    // The upload's bindings replace the script's, but for those of the types `keep_bindings` names (not sent again).
    const sentNames = new Map(bindingsSent.map((b) => [b.name, b.type]));
    const kept = (was?.bindings ?? []).filter((b) => keep?.includes(b.type) && !(sentNames.get(b.name) === b.type));
    // One name, one binding: a kept binding whose name an upload gives to another type is refused.
    const clash = kept.find((b) => sentNames.has(b.name));
    if (clash) fail(400, 10021, `Binding name '${clash.name}' is already in use by a ${clash.type} binding`);
    // A class a migration deletes while a kept binding still names it.
    for (const b of kept)
      if (b.type === "durable_object_namespace" && b.script_name === undefined)
        checkDurableBinding(emu.scripts, migrated.durable_classes, b);
    settle(emu, migrated);
    emu.scripts.set(req.params.name, {
      ...stored!,
      migration_tag: migrated.migration_tag,
      durable_classes: migrated.durable_classes,
      tags: tags ?? was?.tags ?? [],
      bindings: [...kept, ...bindingsSent],
      subdomain: was?.subdomain ?? { enabled: false, previews_enabled: false },
      created_on: was?.created_on ?? now,
      modified_on: now,
    });
    return emu.ok(view(req.params.name));
  });
  // The script's content: a module's parts as multipart (the entry point named by a header), a service worker's text.
  r("GET", "/accounts/:account/workers/scripts/:name/content/v2", "workers:edit", (req): Reply => {
    account(req);
    const s = script(req);
    if (s.format === "service-worker") return { status: 200, body: s.body, headers: { "content-type": "application/javascript" } };
    const boundary = `----emulator${createHash("md5").update(s.body).digest("hex").slice(0, 16)}`;
    const body =
      s.parts
        .map(
          (p) =>
            `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"; filename="${p.name}"\r\nContent-Type: ${p.type}\r\n\r\n${p.text}\r\n`,
        )
        .join("") + `--${boundary}--\r\n`;
    return { status: 200, body, headers: { "content-type": `multipart/form-data; boundary=${boundary}`, "cf-entrypoint": s.main } };
  });
  r("GET", "/accounts/:account/workers/scripts/:name/settings", "workers:edit", (req) => {
    account(req);
    const s = script(req);
    return emu.ok({
      compatibility_date: s.compatibility_date,
      compatibility_flags: s.compatibility_flags,
      bindings: s.bindings.map(bindingView),
      logpush: false,
      tags: s.tags,
      usage_model: "standard",
    });
  });
  // Secrets, changed without uploading the script again: a secret text binding by name.
  r("GET", "/accounts/:account/workers/scripts/:name/secrets", "workers:edit", (req) => {
    account(req);
    return emu.ok(
      script(req)
        .bindings.filter((b) => b.type === "secret_text")
        .map((b) => ({ name: b.name, type: b.type })),
    );
  });
  r("PUT", "/accounts/:account/workers/scripts/:name/secrets", "workers:edit", (req) => {
    account(req);
    const s = script(req);
    const body = JSON.parse(req.rawBody || "{}");
    if (typeof body.name !== "string" || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(body.name)) fail(400, 10053, "secret name is invalid");
    if (typeof body.text !== "string") fail(400, 10054, "secret text is required");
    if (body.type !== undefined && body.type !== "secret_text") fail(400, 10021, "type must be secret_text");
    const other = s.bindings.find((b) => b.name === body.name && b.type !== "secret_text");
    if (other) fail(400, 10053, `Binding name '${body.name}' already in use`);
    s.bindings = [...s.bindings.filter((b) => b.name !== body.name), { type: "secret_text", name: body.name, text: body.text }];
    return emu.ok({ name: body.name, type: "secret_text" });
  });
  r("GET", "/accounts/:account/workers/scripts/:name/secrets/:secret", "workers:edit", (req) => {
    account(req);
    const b =
      script(req).bindings.find((x) => x.type === "secret_text" && x.name === req.params.secret) ?? fail(404, 10056, "Secret not found");
    return emu.ok({ name: b.name, type: b.type });
  });
  r("DELETE", "/accounts/:account/workers/scripts/:name/secrets/:secret", "workers:edit", (req) => {
    account(req);
    const s = script(req);
    if (!s.bindings.some((x) => x.type === "secret_text" && x.name === req.params.secret)) fail(404, 10056, "Secret not found");
    s.bindings = s.bindings.filter((x) => !(x.type === "secret_text" && x.name === req.params.secret));
    return emu.ok(null);
  });
  // The older read of one script: its main part's raw text.
  r("GET", "/accounts/:account/workers/scripts/:name", "workers:edit", (req) => {
    account(req);
    return { status: 200, body: script(req).body, headers: { "content-type": "application/javascript" } };
  });
  r("DELETE", "/accounts/:account/workers/scripts/:name", "workers:edit", (req) => {
    account(req);
    const gone = emu.scripts.get(req.params.name) ?? fail(404, 10007, "workers.api.error.script_not_found");
    forget(
      emu,
      (gone.durable_classes ?? []).map((c) => c.namespace_id),
      true,
    ); // its Durable Objects, with their storage
    emu.scripts.delete(req.params.name);
    return emu.ok(null);
  });
}

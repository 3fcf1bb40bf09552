/**
 * What a WorkerScript sends: the upload (multipart: a `metadata` part with `main_module` for a module or `body_part`
 * for a service worker, the compatibility date and flags, the bindings it sends and keeps, the Durable Object
 * migrations the script has not applied yet, the script's part), its
 * secrets one by one, and its workers.dev endpoint.
 */
import * as path from "node:path";
import { deleteUnlessGone, type Bag } from "../../handler";
import { edge } from "../zones";
import type * as wire from "../wire";
import { formatOf } from "./schema";
import { BINDING_TYPES, toWire, type Binding } from "./bindings";

/** The module's part name: the source file's own name where it is a JavaScript file, else `worker.js`. */
const mainModule = (r: Bag) => (r.source && /\.m?js$/.test(r.source) ? path.basename(r.source) : "worker.js");

/**
 * The bindings an upload sends and keeps. The service replaces a script's bindings with an upload's, but for the
 * types `keep_bindings` names (binding types: there is no wildcard). So the plain-text variables are sent whole —
 * the program's, and those set elsewhere (read from the script's settings) — leaving out the ones this resource
 * managed and the program removed; so is every type of binding the program declares or declared (`bindings`: its
 * own, and the script's others of that type as they are); every other type the script has (secrets among them) is
 * kept as it is. `managedBefore`: the variables' names in state; `bindingsBefore`: the bindings' names in state.
 */
export function bindingsFor(
  r: Bag,
  current: readonly wire.WorkerBinding[],
  managedBefore: readonly string[] = [],
  bindingsBefore: readonly string[] = [],
): { bindings: wire.WorkerBinding[]; keep: string[] } {
  const vars = (r.vars ?? {}) as Record<string, string>;
  const mine = new Set([...Object.keys(vars), ...managedBefore]);
  const elsewhere = current
    .filter((b) => b.type === "plain_text" && !mine.has(b.name) && !(r.secrets && b.name in r.secrets))
    .map((b) => ({ type: "plain_text", name: b.name, text: b.text ?? "" }));
  const declared = ((r.bindings ?? []) as Binding[]).map(toWire);
  const ours = new Set([...declared.map((b) => b.name), ...bindingsBefore]);
  const sentTypes = new Set(
    [...declared.map((b) => b.type), ...current.filter((b) => ours.has(b.name)).map((b) => b.type)].filter((t) =>
      (BINDING_TYPES as readonly string[]).includes(t),
    ),
  );
  // The script's other bindings of a type sent whole: sent again as they were read, every field kept.
  const others = current.filter((b) => sentTypes.has(b.type) && !ours.has(b.name));
  const keep = [
    ...new Set([...current.map((b) => b.type).filter((t) => t !== "plain_text" && !sentTypes.has(t)), "secret_text", "secret_key"]),
  ];
  return {
    bindings: [...Object.entries(vars).map(([name, text]) => ({ type: "plain_text", name, text })), ...elsewhere, ...declared, ...others],
    keep,
  };
}

/** The multipart upload of a script, as the service documents it (FormData, serialized by Node's own fetch types). */
export async function upload(
  r: Bag,
  body: string,
  tags: string[] = [],
  binding: { bindings: wire.WorkerBinding[]; keep: string[] } = { bindings: [], keep: ["secret_text", "secret_key"] },
  migrations?: object,
): Promise<{ body: Buffer; contentType: string }> {
  const format = formatOf(r, body);
  const main = format === "module" ? mainModule(r) : "script";
  const metadata = {
    ...(format === "module" ? { main_module: main } : { body_part: main }),
    compatibility_date: r.compatibilityDate,
    ...(r.compatibilityFlags?.length ? { compatibility_flags: r.compatibilityFlags } : {}),
    ...(binding.bindings.length ? { bindings: binding.bindings } : {}),
    keep_bindings: binding.keep, // bindings made elsewhere (dashboard, wrangler) are kept, not dropped
    ...(migrations ? { migrations } : {}),
    ...(tags.length ? { tags } : {}),
  };
  const form = new FormData();
  form.append("metadata", new Blob([JSON.stringify(metadata)], { type: "application/json" }), "metadata.json");
  form.append(main, new Blob([body], { type: format === "module" ? "application/javascript+module" : "application/javascript" }), main);
  const res = new Response(form);
  return { body: Buffer.from(await res.arrayBuffer()), contentType: res.headers.get("content-type")! };
}

/**
 * The secrets the program gives, set through the secrets endpoint (no upload of the script), and those this
 * resource managed and the program removed, deleted; secrets set elsewhere are left. `all`: set every one (a new
 * script, a changed digest), else only the names missing on the script.
 */
export async function syncSecrets(r: Bag, all: boolean, present?: readonly string[]): Promise<void> {
  const secrets = (r.secrets ?? {}) as Record<string, string>;
  for (const [name, text] of Object.entries(secrets))
    if (all || !present?.includes(name)) await edge().putWorkerSecret(r.accountId, r.name, { name, text });
}

/** The secrets this resource managed and the program removed: deleted before an upload, which may reuse the name. */
export async function dropSecrets(r: Bag, managedBefore: readonly string[]): Promise<void> {
  for (const name of managedBefore)
    if (!(name in (r.secrets ?? {}))) await deleteUnlessGone(() => edge().deleteWorkerSecret(r.accountId, r.name, name));
}

/** The workers.dev endpoint and preview URLs, where the program says: set when they differ from the service's. */
export async function syncSubdomain(r: Bag): Promise<void> {
  if (r.workersDev === undefined && r.previewUrls === undefined) return;
  const current = await edge().getWorkerSubdomain(r.accountId, r.name);
  const enabled = r.workersDev ?? current.enabled;
  const previews = r.previewUrls ?? current.previews_enabled ?? false;
  if (enabled !== current.enabled || previews !== (current.previews_enabled ?? false))
    await edge().setWorkerSubdomain(r.accountId, r.name, { enabled, previews_enabled: previews });
}

/**
 * Workers KV namespaces as the service keeps them (API reference, "Workers KV Namespace"; the official `cloudflare`
 * SDKs' `kv.namespaces`): made by title (`POST .../storage/kv/namespaces`, one title per account: 400 with 10014 "a
 * namespace with this account ID and title already exists"), listed by page (`order` id or title, `direction`),
 * renamed in place (`PUT`, the id and the stored pairs unchanged), deleted with every pair they hold; a jurisdiction
 * is set only when made. Values are written and read raw at `.../values/{key}`.
 */
import { type Reply, type Request } from "../kit";
import { fail } from "./dns";
import type { EdgeRoute } from "./access";
import type { EdgeEmulator } from "./server";

export interface StoredNamespace {
  id: string;
  title: string;
  jurisdiction?: "eu" | "fedramp" | "us";
  /** Key -> value, as written. */
  values: Map<string, string>;
}

const JURISDICTIONS = ["eu", "fedramp", "us"];

export function registerStorageRoutes(emu: EdgeEmulator, r: EdgeRoute): void {
  const account = (req: Request) => emu.account(req);
  const view = (n: StoredNamespace) => ({
    id: n.id,
    title: n.title,
    supports_url_encoding: true,
    ...(n.jurisdiction ? { jurisdiction: n.jurisdiction } : {}),
  });
  const titleOf = (req: Request): string => {
    const body = JSON.parse(req.rawBody || "{}");
    const title = body.title;
    if (typeof title !== "string" || !title.trim()) fail(400, 10019, "title is required");
    if (title.length > 512) fail(400, 10019, "title must be at most 512 characters");
    return title;
  };
  const taken = (title: string, except?: string) => {
    if ([...emu.namespaces.values()].some((n) => n.title === title && n.id !== except))
      fail(400, 10014, "a namespace with this account ID and title already exists");
  };
  const namespace = (req: Request): StoredNamespace => {
    account(req);
    return emu.namespaces.get(req.params.id) ?? fail(404, 10013, "namespace not found");
  };
  const base = "/accounts/:account/storage/kv/namespaces";

  r("GET", base, "workers_kv:read", (req) => {
    account(req);
    const by = req.query.get("order") === "title" ? "title" : "id";
    const sorted = [...emu.namespaces.values()].sort((a, b) => a[by].localeCompare(b[by]));
    if (req.query.get("direction") === "desc") sorted.reverse();
    return emu.page(req, sorted.map(view), { perPage: 20, min: 5, max: 1000 });
  });
  r("POST", base, "workers_kv:edit", (req) => {
    account(req);
    const title = titleOf(req);
    taken(title);
    const jurisdiction = JSON.parse(req.rawBody || "{}").jurisdiction;
    if (jurisdiction !== undefined && !JURISDICTIONS.includes(jurisdiction))
      fail(400, 10019, `jurisdiction must be one of ${JURISDICTIONS.join(", ")}`);
    const n: StoredNamespace = { id: emu.nextId(), title, ...(jurisdiction ? { jurisdiction } : {}), values: new Map() };
    emu.namespaces.set(n.id, n);
    return emu.ok(view(n));
  });
  r("GET", `${base}/:id`, "workers_kv:read", (req) => emu.ok(view(namespace(req))));
  r("PUT", `${base}/:id`, "workers_kv:edit", (req) => {
    const n = namespace(req);
    const title = titleOf(req);
    taken(title, n.id);
    n.title = title;
    return emu.ok(view(n));
  });
  r("DELETE", `${base}/:id`, "workers_kv:edit", (req) => {
    emu.namespaces.delete(namespace(req).id);
    return emu.ok({});
  });
  r("PUT", `${base}/:id/values/:key`, "workers_kv:edit", (req) => {
    namespace(req).values.set(decodeURIComponent(req.params.key), req.rawBody);
    return emu.ok({});
  });
  r("GET", `${base}/:id/values/:key`, "workers_kv:read", (req): Reply => {
    const value = namespace(req).values.get(decodeURIComponent(req.params.key));
    if (value === undefined) fail(404, 10009, "get: 'key not found'");
    return { status: 200, body: value, headers: { "content-type": "application/octet-stream" } };
  });
}

/**
 * R2 buckets as the service keeps them (API reference, "R2 Buckets"; the official `cloudflare` SDKs' `r2.buckets`):
 * made by name (`POST .../r2/buckets` with `name`, `locationHint`, `storageClass`; a name the account holds already
 * is 409 with 10073, "Bucket name already exists"), each in a jurisdiction (`cf-r2-jurisdiction` on every call:
 * `default`, `eu`, `us`, `fedramp`, `fedramp-high`), read with its `location`, its default storage class
 * changed in place (`PATCH` with `cf-r2-storage-class`), deleted only when empty (409 with 10008). Objects are put and
 * read raw at `.../objects/{key}`.
 */
import { type Reply, type Request } from "../kit";
import { fail } from "./dns";
import type { EdgeRoute } from "./access";
import type { EdgeEmulator } from "./server";

export interface StoredBucket {
  name: string;
  jurisdiction: string;
  location: string;
  storage_class: "Standard" | "InfrequentAccess";
  creation_date: string;
  objects: Map<string, string>;
}

const LOCATIONS = ["apac", "eeur", "enam", "weur", "wnam", "oc"];
const CLASSES = ["Standard", "InfrequentAccess"];
const JURISDICTIONS = ["default", "eu", "us", "fedramp", "fedramp-high"];
const NAME = /^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/;

export function registerR2Routes(emu: EdgeEmulator, r: EdgeRoute): void {
  const account = (req: Request) => emu.account(req);
  const jurisdiction = (req: Request) => {
    const j = String(req.headers["cf-r2-jurisdiction"] ?? "default");
    if (!JURISDICTIONS.includes(j)) fail(400, 10040, `The jurisdiction '${j}' is not valid`);
    return j as StoredBucket["jurisdiction"];
  };
  const key = (j: string, name: string) => `${j}/${name}`;
  const view = (b: StoredBucket) => ({
    name: b.name,
    creation_date: b.creation_date,
    // As the official SDKs' schemas have it (the Python SDK validates it): lower case. A third party saw the live API
    // answer upper case; pulumi-ops compares it without case either way.
    location: b.location,
    storage_class: b.storage_class,
    jurisdiction: b.jurisdiction,
  });
  const bucket = (req: Request): StoredBucket => {
    account(req);
    return emu.buckets.get(key(jurisdiction(req), req.params.name)) ?? fail(404, 10006, "The specified bucket does not exist.");
  };
  const base = "/accounts/:account/r2/buckets";

  r("GET", base, "workers_r2:read", (req) => {
    account(req);
    const j = jurisdiction(req);
    const contains = req.query.get("name_contains") ?? "";
    const all = [...emu.buckets.values()].filter((b) => b.jurisdiction === j && b.name.includes(contains));
    return emu.ok({ buckets: all.sort((a, b) => a.name.localeCompare(b.name)).map(view) });
  });
  r("POST", base, "workers_r2:edit", (req) => {
    account(req);
    const j = jurisdiction(req);
    const body = JSON.parse(req.rawBody || "{}");
    if (typeof body.name !== "string" || !NAME.test(body.name))
      fail(400, 10005, "The specified bucket name is not valid: 3 to 63 lowercase letters, digits and hyphens");
    if (body.locationHint !== undefined && !LOCATIONS.includes(String(body.locationHint)))
      fail(400, 10043, `The location hint '${body.locationHint}' is not valid`);
    if (body.storageClass !== undefined && !CLASSES.includes(body.storageClass))
      fail(400, 10044, `The storage class '${body.storageClass}' is not valid`);
    if (emu.buckets.has(key(j, body.name))) fail(409, 10073, "Bucket name already exists");
    const b: StoredBucket = {
      name: body.name,
      jurisdiction: j,
      location: String(body.locationHint ?? "enam").toLowerCase(),
      storage_class: body.storageClass ?? "Standard",
      creation_date: emu.timestamp(),
      objects: new Map(),
    };
    emu.buckets.set(key(j, b.name), b);
    return emu.ok(view(b));
  });
  r("GET", `${base}/:name`, "workers_r2:read", (req) => emu.ok(view(bucket(req))));
  r("PATCH", `${base}/:name`, "workers_r2:edit", (req) => {
    const b = bucket(req);
    const cls = String(req.headers["cf-r2-storage-class"] ?? "");
    if (!CLASSES.includes(cls)) fail(400, 10044, `The storage class '${cls}' is not valid`);
    b.storage_class = cls as StoredBucket["storage_class"];
    return emu.ok(view(b));
  });
  r("DELETE", `${base}/:name`, "workers_r2:edit", (req) => {
    const b = bucket(req);
    if (b.objects.size) fail(409, 10008, `The bucket you tried to delete (${b.name}) is not empty (account ${emu.options.accountId})`);
    emu.buckets.delete(key(b.jurisdiction, b.name));
    return emu.ok({});
  });
  r("PUT", `${base}/:name/objects/:key`, "workers_r2:edit", (req) => {
    const b = bucket(req);
    const k = decodeURIComponent(req.params.key);
    b.objects.set(k, req.rawBody);
    return emu.ok({ key: k, size: String(Buffer.byteLength(req.rawBody)), storage_class: b.storage_class, uploaded: emu.timestamp() });
  });
  r("GET", `${base}/:name/objects/:key`, "workers_r2:read", (req): Reply => {
    const value = bucket(req).objects.get(decodeURIComponent(req.params.key));
    if (value === undefined) fail(404, 10007, "The specified key does not exist.");
    return { status: 200, body: value, headers: { "content-type": "application/octet-stream" } };
  });
}

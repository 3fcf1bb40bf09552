/**
 * A zone's DNS records as the service keeps them (`/zones/{id}/dns_records`): list (filtered by type, name and
 * content, paged), read, create, edit (PATCH merges, PUT replaces), delete, and the batch; a record's body validated
 * and normalised as the service does, with its codes and words.
 */
import { HttpError, parseJson, type Reply, type Request } from "../kit";
import { canonicalContent, CONTENT_TYPES, expandName, fail, isProhibited, proxiable, validateRecord, type StoredRecord } from "./dns";
import { DATA_SPECS, priorityFromData, renderContent, validateData } from "./record-data";
import type { EdgeRoute } from "./access";
import type { EdgeEmulator, Zone } from "./server";

const RECORD_TYPES = [...CONTENT_TYPES, ...Object.keys(DATA_SPECS)];

export function registerRecordRoutes(edge: EdgeEmulator, r: EdgeRoute): void {
  r("GET", "/zones/:zone/dns_records", "dns:read", (req) => {
    const z = edge.zone(req);
    const type = req.query.get("type");
    const name = (req.query.get("name") ?? req.query.get("name.exact"))?.toLowerCase().replace(/\.$/, "");
    const content = req.query.get("content");
    const all = [...z.records.values()].filter(
      (rec) => (!type || rec.type === type) && (!name || rec.name === name) && (!content || rec.content === content),
    );
    return edge.page(req, all, { perPage: 100, min: 5, max: 5000 });
  });
  r("GET", "/zones/:zone/dns_records/:id", "dns:read", (req) => edge.ok(recordOf(edge, req)));
  r("POST", "/zones/:zone/dns_records", "dns:edit", (req) => {
    const z = edge.zone(req);
    const body = parseJson(req) ?? fail(400, 9207, "Request body is invalid.");
    const now = edge.timestamp();
    const rec = buildRecord(edge, z, { ttl: 1, proxied: false, ...body }, { id: edge.nextId(), created_on: now });
    z.records.set(rec.id, rec);
    return edge.ok(rec);
  });
  const edit = (req: Request, merge: boolean): Reply => {
    const z = edge.zone(req);
    const old = recordOf(edge, req);
    const body = parseJson(req) ?? fail(400, 9207, "Request body is invalid.");
    const base = merge ? { ...old, comment: old.comment ?? undefined } : { ttl: 1, proxied: false };
    // A PATCH's settings are merged into the record's (a setting it does not name is kept).
    const settings = merge && body.settings && typeof body.settings === "object" ? { settings: { ...old.settings, ...body.settings } } : {};
    const rec = buildRecord(edge, z, { ...base, ...body, ...settings }, { id: old.id, created_on: old.created_on });
    z.records.set(rec.id, rec);
    return edge.ok(rec);
  };
  r("PATCH", "/zones/:zone/dns_records/:id", "dns:edit", (req) => edit(req, true));
  r("PUT", "/zones/:zone/dns_records/:id", "dns:edit", (req) => edit(req, false));
  r("DELETE", "/zones/:zone/dns_records/:id", "dns:edit", (req) => {
    const rec = recordOf(edge, req);
    edge.zone(req).records.delete(rec.id);
    return edge.ok({ id: rec.id });
  });

  // The service's batch (the official SDK's `dns.records.batch` and the service's documentation):
  // deletes, patches, puts, posts, run in that order in one transaction — any operation refused refuses the
  // whole batch, naming it, and nothing is applied. One request against the allowance, whatever it carries.
  r("POST", "/zones/:zone/dns_records/batch", "dns:edit", (req) => {
    if (!edge.options.batchLimit) fail(400, 7003, "No route for that URI");
    const z = edge.zone(req);
    const body = parseJson(req) ?? fail(400, 9207, "Request body is invalid.");
    const ops = { deletes: body.deletes ?? [], patches: body.patches ?? [], puts: body.puts ?? [], posts: body.posts ?? [] };
    if (Object.values(ops).some((o) => !Array.isArray(o))) fail(400, 9207, "Request body is invalid.");
    const count = Object.values(ops).reduce((n, o) => n + o.length, 0);
    // Not shown by the documentation: the code and words the service answers a batch over its plan's limit with.
    if (count > edge.options.batchLimit)
      fail(
        400,
        9207,
        `Request body is invalid: a batch carries at most ${edge.options.batchLimit} changes on this zone's plan (${count} sent).`,
      );
    // Applied in place with an undo log: a refused change takes back the ones before it (a copy of a zone of
    // 100,000 records per batch would cost more than the batch).
    const records = z.records;
    const undo: (() => void)[] = [];
    const put = (rec: StoredRecord) => {
      const before = records.get(rec.id);
      undo.push(() => (before ? records.set(before.id, before) : records.delete(rec.id)));
      records.set(rec.id, rec);
    };
    const result: Record<string, StoredRecord[]> = { deletes: [], patches: [], puts: [], posts: [] };
    const step = (kind: string, i: number, f: () => StoredRecord) => {
      try {
        result[kind].push(f());
      } catch (e) {
        for (const back of undo.reverse()) back();
        if (e instanceof HttpError) {
          const err = (e.reply.body as { errors: { code: number; message: string }[] }).errors[0];
          fail(e.reply.status, err.code, `${kind}[${i}]: ${err.message}`);
        }
        throw e;
      }
    };
    const old = (kind: string, i: number, id: unknown) =>
      records.get(String(id)) ?? fail(404, 81044, `${kind}[${i}]: Record does not exist.`);
    ops.deletes.forEach((d: any, i: number) =>
      step("deletes", i, () => {
        const rec = old("deletes", i, d?.id);
        undo.push(() => records.set(rec.id, rec));
        records.delete(rec.id);
        return rec;
      }),
    );
    const now = edge.timestamp();
    for (const kind of ["patches", "puts"] as const) {
      ops[kind].forEach((b: any, i: number) =>
        step(kind, i, () => {
          const was = old(kind, i, b?.id);
          const base = kind === "patches" ? { ...was, comment: was.comment ?? undefined } : { ttl: 1, proxied: false };
          const { id: _id, ...fields } = b;
          // A patch's settings are merged into the record's, as the single PATCH merges them.
          if (kind === "patches" && fields.settings && typeof fields.settings === "object")
            fields.settings = { ...was.settings, ...fields.settings };
          const rec = buildRecord(edge, z, { ...base, ...fields }, { id: was.id, created_on: was.created_on });
          put(rec);
          return rec;
        }),
      );
    }
    ops.posts.forEach((b: any, i: number) =>
      step("posts", i, () => {
        const rec = buildRecord(edge, z, { ttl: 1, proxied: false, ...b }, { id: edge.nextId(), created_on: now });
        put(rec);
        return rec;
      }),
    );
    if (req.entry)
      req.entry.changes = [
        ...result.deletes.map(() => "DELETE"),
        ...result.patches.map(() => "PATCH"),
        ...result.puts.map(() => "PUT"),
        ...result.posts.map(() => "POST"),
      ];
    return edge.ok(result);
  });
}

function recordOf(edge: EdgeEmulator, req: Request): StoredRecord {
  const rec = edge.zone(req).records.get(req.params.id);
  if (!rec) fail(404, 81044, "Record does not exist.");
  return rec!;
}

/** Validates and normalises a record body the way the service does, refusing an identical record with 81058. */
function buildRecord(edge: EdgeEmulator, z: Zone, body: any, fixed: { id: string; created_on: string }): StoredRecord {
  validateRecord(body, RECORD_TYPES);
  const type = String(body.type);
  const name = expandName(body.name, z.name);
  const structured = type in DATA_SPECS;
  // A structured record's value is its data; the service renders content from it (a PATCH may send either).
  const data = structured ? validateData(type, body.data) : undefined;
  const content = data ? renderContent(type, data) : canonicalContent(type, body.content);
  const priority = type === "MX" || type === "URI" ? body.priority : data ? priorityFromData(type, data) : undefined;
  // Since 2024-10-01 the root cause comes alone, no longer wrapped in 1004 "DNS Validation Error" (API deprecations).
  if (body.proxied && isProhibited(type, content))
    fail(400, 9041, "This DNS record cannot be proxied - click the cloud icon to turn it gray to proceed");
  for (const other of z.records.named(name)) {
    if (other.id === fixed.id || other.name !== name) continue;
    // A Worker's custom domain's record holds its name (users report the service's words and code).
    if (
      (other.meta.origin_worker_id || (other.meta.read_only && ["A", "AAAA", "CNAME"].includes(other.type))) &&
      ["A", "AAAA", "CNAME"].includes(type)
    )
      fail(400, 81062, "A DNS record managed by Workers already exists on that host");
    if (other.type === type && other.content.toLowerCase() === content.toLowerCase() && other.priority === priority) {
      fail(400, 81058, "An identical record already exists.");
    }
    // A name with a CNAME holds nothing else (RFC 1034): the codes and words of the real service.
    if (type === "CNAME") fail(400, 81053, "An A, AAAA, or CNAME record with that host already exists.");
    if (other.type === "CNAME") fail(400, 81054, "A CNAME record with that host already exists.");
  }
  // Tags: `name:value` pairs, a paid plan's (the quota is 0 on Free: "DNS record has 1 tags, exceeding the quota
  // of 0.", code 9300, as users report the service's answer; 20 a record on paid plans).
  // A repeated tag is kept once (users report the service drops duplicates: octodns-cloudflare PR 85).
  const tags = Array.isArray(body.tags) ? [...new Set(body.tags)] : (body.tags ?? []);
  if (!Array.isArray(tags) || tags.some((t: unknown) => typeof t !== "string")) fail(400, 9207, "Request body is invalid.");
  const plan = edge.plans.get(z.id) ?? "free";
  const quota = plan === "free" ? 0 : 20;
  if (tags.length > quota) fail(400, 9300, `DNS record has ${tags.length} tags, exceeding the quota of ${quota}.`);
  // The plan's limits (its plans table): comments of 100 characters on Free, 500 paid; a TTL under 60 on Enterprise only.
  if (plan === "free" && typeof body.comment === "string" && body.comment.length > 100)
    fail(400, 9102, "Comment must be a string of at most 100 characters on this zone's plan.");
  if (body.ttl !== 1 && !body.proxied && body.ttl < 60 && plan !== "enterprise")
    fail(400, 9021, "Invalid TTL. Must be between 60 and 86400 seconds, or 1 for Automatic.");
  const settings = body.settings ?? {};
  if (
    typeof settings !== "object" ||
    Array.isArray(settings) ||
    Object.entries(settings).some(([k, v]) => !["ipv4_only", "ipv6_only", "flatten_cname"].includes(k) || typeof v !== "boolean")
  )
    fail(400, 9207, "Request body is invalid.");
  const rec: StoredRecord = {
    id: fixed.id,
    zone_id: z.id,
    zone_name: z.name,
    name,
    type,
    content,
    ...(data ? { data } : {}),
    proxiable: proxiable(type),
    proxied: body.proxied,
    ttl: body.proxied ? 1 : body.ttl, // a proxied record is always automatic
    comment: body.comment ?? null,
    tags,
    settings: type === "CNAME" ? { flatten_cname: false, ...settings } : { ...settings },
    meta: { auto_added: false },
    created_on: fixed.created_on,
    modified_on: edge.timestamp(),
  };
  if (priority !== undefined) rec.priority = priority;
  return rec;
}

/**
 * A stateful emulator of the Cloudflare API v4, the edge network API (`{base_url}/client/v4`). Envelopes, error codes, HTTP
 * statuses, pagination and limits follow the service's documentation, and docs/service-today.md where it is silent.
 */
import { createHash } from "node:crypto";
import { Emulator, HttpError, idSequence, parseJson, type Reply, type Request } from "../kit";
import type { LatencyProfile } from "../latency";
import {
  canonicalContent,
  CONTENT_TYPES,
  expandName,
  fail,
  isProhibited,
  proxiable,
  RecordMap,
  validateRecord,
  type StoredRecord,
} from "./dns";
import { DATA_SPECS, priorityFromData, renderContent, validateData } from "./record-data";

const RECORD_TYPES = [...CONTENT_TYPES, ...Object.keys(DATA_SPECS)];
import { registerRuleRoutes, type RuleState } from "./rules";
import { registerRulesetRoutes, type Plan, type RulesetStore } from "./rulesets";
import { graphqlRoute } from "./graphql";
import { registerWorkerRoutes, type StoredScript } from "./workers";
import { registerWorkerReachRoutes, servedBy, type StoredDomain, type StoredRoute } from "./worker-routes";
import { acceptable, SETTINGS } from "./settings";

export const API = "/client/v4";

export type Permission =
  | "zone:read"
  | "dns:read"
  | "dns:edit"
  | "zone_settings:read"
  | "zone_settings:edit"
  | "page_rules:edit"
  | "firewall:edit"
  | "rate_limits:edit"
  | "workers:edit"
  | "analytics:read"
  | "page_rules:read"
  | "firewall:read"
  | "rate_limits:read"
  | "workers:read"
  // The per-product permissions of the other rule phases (Cache Rules, Single Redirect, Transform Rules, Origin
  // Rules, Config Rules, ...), one pair here.
  | "rules:read"
  | "rules:edit"
  // Zone / Workers Routes (a zone's routes; scripts, domains and subdomains are the account's Workers Scripts).
  | "workers_routes:read"
  | "workers_routes:edit"
  // Zone / Zone Edit: adding a zone to the account (POST /zones).
  | "zone:edit";

export const ALL_PERMISSIONS: Permission[] = [
  "zone:read",
  "dns:read",
  "dns:edit",
  "zone_settings:read",
  "zone_settings:edit",
  "page_rules:edit",
  "firewall:edit",
  "rate_limits:edit",
  "workers:edit",
  "analytics:read",
  "rules:edit",
  "workers_routes:edit",
  "zone:edit",
];
/** What a read-only token of a pipeline's pull-request job holds: every Read permission, no Edit. */
export const READ_PERMISSIONS: Permission[] = [
  "zone:read",
  "dns:read",
  "zone_settings:read",
  "page_rules:read",
  "firewall:read",
  "rate_limits:read",
  "workers:read",
  "analytics:read",
  "rules:read",
  "workers_routes:read",
];

export interface EdgeEmulatorOptions {
  port?: number;
  /** Zones present at start (and after reset). */
  zones?: string[];
  /** User API tokens: token -> permissions. They verify at `/user/tokens/verify`. */
  tokens?: Record<string, Permission[]>;
  /**
   * Account-owned API tokens (the kind the service recommends today; `cfat_...`): token -> permissions. They work on
   * every endpoint their permissions cover, but verify only at `/accounts/{account_id}/tokens/verify`: the user
   * endpoint answers them 401 with code 1000, as it answers an invalid token.
   */
  accountTokens?: Record<string, Permission[]>;
  /** Legacy global API key credentials (X-Auth-Email / X-Auth-Key). */
  legacyKeys?: { email: string; key: string }[];
  accountId?: string;
  /** The allowance per credential: 1200 requests per 300 seconds, as the real service. */
  rateLimit?: { requests: number; perSeconds: number };
  /** A per-request delay (latency.ts; REALISTIC_LATENCY is the real API's typical 50–250 ms). None by default. */
  latency?: LatencyProfile;
  /**
   * Answer only the endpoints the Cloudflare API v4 lists (400, code 7003 "No route for that URI" for the rest, as the service
   * answers a route it does not have): a test hook showing the provider needs nothing the document does not show
   * where the document shows a way. Off by default; EDGE_EMULATOR_STRICT=1 for a standalone emulator.
   */
  strict?: boolean;
  /** Each zone's plan by zone name (what its rate limiting rules may use); `free` when not named. */
  plans?: Record<string, Plan>;
  /**
   * Changes one `POST /zones/{id}/dns_records/batch` may carry: the zone plan's limit (200 on the free plan, as
   * here by default; 3,500 on paid plans). 0: the endpoint is refused, as by a service or proxy without it.
   */
  batchLimit?: number;
}

/** The endpoints of the Cloudflare API v4 the emulator serves, as method and path pattern. */
const DOCUMENTED: [string, RegExp][] = [
  ["GET", /^\/user\/tokens\/verify$/],
  ["GET", /^\/zones$/],
  ["GET", /^\/zones\/[^/]+\/settings\/ssl$/],
  ["PATCH", /^\/zones\/[^/]+\/settings\/[^/]+$/],
  ["GET", /^\/zones\/[^/]+\/dns_records$/],
  ["POST", /^\/zones\/[^/]+\/dns_records$/],
  ["PATCH", /^\/zones\/[^/]+\/dns_records\/[^/]+$/],
  ["DELETE", /^\/zones\/[^/]+\/dns_records\/[^/]+$/],
  ["GET", /^\/zones\/[^/]+\/pagerules$/],
  ["POST", /^\/zones\/[^/]+\/pagerules$/],
  ["GET", /^\/accounts\/[^/]+\/workers\/scripts$/],
  ["PUT", /^\/accounts\/[^/]+\/workers\/scripts\/[^/]+$/],
  ["GET", /^\/zones\/[^/]+\/firewall\/rules$/],
  ["POST", /^\/zones\/[^/]+\/firewall\/rules$/],
  ["POST", /^\/zones\/[^/]+\/rate_limits$/],
  ["GET", /^\/zones\/[^/]+\/analytics\/dashboard$/],
  ["GET", /^\/zones\/[^/]+\/security\/events$/],
  ["GET", /^\/zones\/[^/]+\/analytics\/colos$/],
];

export const DEMO_TOKEN = "edge-demo-token-0123456789";
/** An account-owned token of the demo account, with every permission. */
export const DEMO_ACCOUNT_TOKEN = "cfat_edge-demo-account-token-0123456789";
export const READONLY_TOKEN = "edge-readonly-token-0123456789";
export const DEMO_ACCOUNT = "0a1b2c3d4e5f60718293a4b5c6d7e8f9";

interface Zone {
  id: string;
  name: string;
  settings: Record<string, { value: unknown; modified_on: string | null }>;
  records: RecordMap;
  /** A zone added through POST /zones: pending until its name servers are the assigned ones, and when it was added. */
  added?: { type: string; on: string };
}

export class EdgeEmulator extends Emulator implements RuleState {
  readonly options: Required<Omit<EdgeEmulatorOptions, "latency">>;
  /** The rulesets engine's state (rulesets.ts): firewall custom rules and rate limiting rules. */
  rulesets!: RulesetStore & { reset(): void };
  /** Zone id -> plan. */
  plans = new Map<string, Plan>();
  zones = new Map<string, Zone>();
  scripts = new Map<string, StoredScript>();
  /** Zone id -> route id -> route. */
  workerRoutes = new Map<string, Map<string, StoredRoute>>();
  /** Custom domain id -> domain. */
  domains = new Map<string, StoredDomain>();
  nextId = idSequence("edge");
  private window = new Map<string, number[]>();

  constructor(options: EdgeEmulatorOptions = {}) {
    super("edge", options.port ?? 0);
    this.options = {
      port: options.port ?? 0,
      zones: options.zones ?? ["example.com", "example.org"],
      tokens: options.tokens ?? {
        [DEMO_TOKEN]: ALL_PERMISSIONS,
        [READONLY_TOKEN]: ["zone:read", "dns:read", "zone_settings:read", "analytics:read"],
      },
      accountTokens: options.accountTokens ?? { [DEMO_ACCOUNT_TOKEN]: ALL_PERMISSIONS },
      legacyKeys: options.legacyKeys ?? [{ email: "ops@example.com", key: "edge-legacy-global-key" }],
      accountId: options.accountId ?? DEMO_ACCOUNT,
      rateLimit: options.rateLimit ?? { requests: 1200, perSeconds: 300 },
      strict: options.strict ?? false,
      batchLimit: options.batchLimit ?? 200,
      plans: options.plans ?? {},
    };
    this.latency = options.latency;
    this.reset();
    this.registerRoutes();
  }

  reset(): void {
    this.nextId = idSequence("edge");
    this.zones.clear();
    this.scripts.clear();
    this.workerRoutes.clear();
    this.domains.clear();
    this.window.clear();
    this.resetRules?.();
    this.rulesets?.reset();
    this.plans.clear();
    for (const name of this.options.zones) this.addZone(name);
  }

  resetRules?: () => void;
  pageRulesOf?: (zoneId: string) => readonly unknown[];

  /** A script changed out of band, as in the dashboard's editor: its main part's text. */
  editScript(name: string, text: string): void {
    const s = this.scripts.get(name)!;
    s.body = text;
    for (const p of s.parts) if (p.name === s.main) p.text = text;
  }

  /**
   * The DNS record the service makes for a custom domain: read-only in the zone (its `meta.read_only`), named for
   * the Worker that serves it, removed with the domain. Its id.
   */
  addWorkerRecord(zoneId: string, hostname: string): string {
    const z = this.zones.get(zoneId)!;
    const now = this.timestamp();
    const rec: StoredRecord = {
      id: this.nextId(),
      zone_id: z.id,
      zone_name: z.name,
      name: hostname,
      type: "AAAA",
      content: "100::",
      proxiable: true,
      proxied: true,
      ttl: 1,
      comment: null,
      tags: [],
      settings: {},
      meta: { auto_added: false, read_only: true, origin_worker_id: hostname },
      created_on: now,
      modified_on: now,
    };
    z.records.set(rec.id, rec);
    return rec.id;
  }

  /** A bench hook: the allowance starts afresh, as if the requests so far were made more than a window ago. */
  forgetAllowance(): void {
    this.window.clear();
  }

  addZone(name: string): Zone {
    const settings: Zone["settings"] = {};
    for (const [id, spec] of Object.entries(SETTINGS)) settings[id] = { value: spec.initial, modified_on: null };
    const zone = { id: this.nextId(), name, settings, records: new RecordMap() };
    this.zones.set(zone.id, zone);
    this.plans.set(zone.id, this.options.plans[name] ?? "free");
    return zone;
  }

  timestamp(): string {
    return new Date(this.now()).toISOString();
  }

  ok(result: unknown, info?: Record<string, number>): Reply {
    return { status: 200, body: { success: true, errors: [], messages: [], result, ...(info ? { result_info: info } : {}) } };
  }

  /** One page of `items`; pages past the end answer an empty list, as the real service does. */
  page<T>(req: Request, items: T[], defaults: { perPage: number; min: number; max: number }): Reply {
    const page = Math.max(1, Number.parseInt(req.query.get("page") ?? "1", 10) || 1);
    const asked = Number.parseInt(req.query.get("per_page") ?? "", 10);
    const perPage = Number.isFinite(asked) ? Math.min(defaults.max, Math.max(defaults.min, asked)) : defaults.perPage;
    const slice = items.slice((page - 1) * perPage, page * perPage);
    return this.ok(slice, {
      page,
      per_page: perPage,
      count: slice.length,
      total_count: items.length,
      total_pages: Math.max(1, Math.ceil(items.length / perPage)),
    });
  }

  zone(req: Request): Zone {
    const z = this.zones.get(req.params.zone);
    if (!z) fail(404, 7003, "Could not route to /zones/" + req.params.zone + ", perhaps your object identifier is invalid?");
    return z!;
  }

  protected notFound(): Reply {
    return {
      status: 404,
      body: { success: false, errors: [{ code: 7000, message: "No route for that URI" }], messages: [], result: null },
    };
  }

  protected faultReply(status: number, retryAfter?: number): Reply {
    const code = status === 429 ? 971 : 10001;
    const message = status === 429 ? "Please wait and consider throttling your request speed" : "Internal service error";
    return {
      status,
      body: { success: false, errors: [{ code, message }], messages: [], result: null },
      headers: status === 429 ? { "retry-after": String(retryAfter ?? 1) } : {},
    };
  }

  /** Authentication (token or legacy key), then the per-credential allowance. */
  protected before(req: Request): Record<string, string> {
    const path = req.path.replace(/^\/client\/v4/, "");
    if (this.options.strict && !DOCUMENTED.some(([m, p]) => m === req.method && p.test(path))) fail(400, 7003, "No route for that URI");
    const who = this.authenticate(req);
    const { requests, perSeconds } = this.options.rateLimit;
    const now = this.now();
    const hits = (this.window.get(who) ?? []).filter((t) => t > now - perSeconds * 1000);
    this.window.set(who, hits);
    // The service's headers on every answer (changelog 2025-09-03, after the IETF draft): `Ratelimit` with what is
    // left (r) and the seconds until the window frees some (t), `Ratelimit-Policy` with the quota (q) per window (w).
    const reset = () => Math.max(1, Math.ceil(((hits[0] ?? now) + perSeconds * 1000 - now) / 1000));
    const policy = `"default";q=${requests};w=${perSeconds}`;
    if (hits.length >= requests) {
      const retryAfter = reset();
      throw new HttpError({
        status: 429,
        body: {
          success: false,
          errors: [{ code: 971, message: "Please wait and consider throttling your request speed" }],
          messages: [],
          result: null,
        },
        headers: { "retry-after": String(retryAfter), ratelimit: `"default";r=0;t=${retryAfter}`, "ratelimit-policy": policy },
      });
    }
    hits.push(now);
    return { ratelimit: `"default";r=${requests - hits.length};t=${reset()}`, "ratelimit-policy": policy };
  }

  private permissions = new Map<Request, Permission[]>();

  private authenticate(req: Request): string {
    const auth = req.headers.authorization;
    if (auth?.startsWith("Bearer ")) {
      const token = auth.slice(7).trim();
      const perms = this.options.tokens[token] ?? this.options.accountTokens[token];
      if (!perms && req.path.endsWith("/tokens/verify")) return `token:${token}`; // the verify answer says it
      if (!perms) fail(403, 10000, "Authentication error");
      this.permissions.set(req, perms);
      return `token:${token}`;
    }
    const email = req.headers["x-auth-email"];
    const key = req.headers["x-auth-key"];
    if (email || key) {
      if (!this.options.legacyKeys.some((c) => c.email === email && c.key === key)) fail(403, 10000, "Authentication error");
      this.permissions.set(req, ALL_PERMISSIONS);
      return `key:${email}`;
    }
    fail(400, 9106, "Missing X-Auth-Email header");
  }

  /** Refuses with 10000 unless the request's credential carries `perm`. */
  need(req: Request, perm: Permission): void {
    const perms = this.permissions.get(req) ?? [];
    this.permissions.delete(req);
    // As on the real service, a Read permission lets a token read what the Edit permission would let it change.
    const [area, level] = perm.split(":");
    const readable = req.method === "GET" && level === "edit" && perms.includes(`${area}:read` as Permission);
    // ... and an Edit permission includes the Read one.
    const editable = level === "read" && perms.includes(`${area}:edit` as Permission);
    if (!perms.includes(perm) && !readable && !editable) fail(403, 10000, `Authentication error`);
  }

  private registerRoutes(): void {
    const r = (m: string, p: string, perm: Permission, h: (req: Request) => Reply | Promise<Reply>) =>
      this.route(m, API + p, (req) => (this.need(req, perm), h(req)));

    // Each kind of token verifies only at its own endpoint; anything else is 401 with 1000 (the API reference of
    // both verify operations; an account-owned token on the user endpoint is "invalid", as wrangler documents).
    const verify = (req: Request, known: boolean) => {
      const token = req.headers.authorization?.slice(7).trim() ?? "";
      this.permissions.delete(req);
      if (!known) fail(401, 1000, "Invalid API Token");
      return this.ok({ id: this.nextIdFor(token), status: "active" }, undefined);
    };
    const bearer = (req: Request) => req.headers.authorization?.slice(7).trim() ?? "";
    this.route("GET", `${API}/user/tokens/verify`, (req) => verify(req, bearer(req) in this.options.tokens));
    this.route("GET", `${API}/accounts/:account/tokens/verify`, (req) =>
      verify(req, req.params.account === this.options.accountId && bearer(req) in this.options.accountTokens),
    );

    r("GET", "/zones", "zone:read", (req) => {
      const name = req.query.get("name")?.toLowerCase();
      const zones = [...this.zones.values()].filter((z) => !name || z.name === name).map((z) => this.zoneView(z));
      return this.page(req, zones, { perPage: 20, min: 5, max: 50 });
    });
    r("GET", "/zones/:zone", "zone:read", (req) => this.ok(this.zoneView(this.zone(req))));
    // Adding a zone (the API reference's "Create Zone"): `{name, account: {id}, type}`; the zone is `pending` on the
    // Free plan until the registrar names its assigned name servers. A zone the account has already: 1061.
    r("POST", "/zones", "zone:edit", (req) => {
      const body = parseJson(req) ?? {};
      const name = String(body.name ?? "")
        .toLowerCase()
        .replace(/\.$/, "");
      if (!/^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/.test(name))
        fail(400, 1097, `Invalid zone name: ${JSON.stringify(body.name ?? "")}`);
      if (body.account?.id !== undefined && body.account.id !== this.options.accountId)
        fail(403, 9109, "Unauthorized to access requested resource");
      const type = String(body.type ?? "full");
      if (!["full", "partial", "secondary", "internal"].includes(type)) fail(400, 1003, `Invalid zone type: ${type}`);
      if ([...this.zones.values()].some((z) => z.name === name)) fail(400, 1061, `${name} already exists`);
      const zone = this.addZone(name);
      zone.added = { type, on: this.timestamp() };
      return this.ok(this.zoneView(zone));
    });

    r("GET", "/zones/:zone/settings", "zone_settings:read", (req) => {
      const z = this.zone(req);
      return this.ok(Object.keys(SETTINGS).map((id) => this.settingView(z, id)));
    });
    r("GET", "/zones/:zone/settings/:setting", "zone_settings:read", (req) => {
      const z = this.zone(req);
      if (!SETTINGS[req.params.setting]) fail(400, 1006, "Unrecognized zone setting name");
      return this.ok(this.settingView(z, req.params.setting));
    });
    r("PATCH", "/zones/:zone/settings/:setting", "zone_settings:edit", (req) => {
      const z = this.zone(req);
      const id = req.params.setting;
      const spec = SETTINGS[id];
      if (!spec) fail(400, 1006, "Unrecognized zone setting name");
      if (spec.editable === false) fail(400, 1057, `Zone setting ${id} is not editable`);
      const body = parseJson(req);
      if (!body || !("value" in body) || !acceptable(spec, body.value)) {
        fail(400, 1007, `Invalid value for zone setting ${id}${spec.values ? `: must be one of ${spec.values.join(", ")}` : ""}`);
      }
      z.settings[id] = { value: body.value, modified_on: this.timestamp() };
      return this.ok(this.settingView(z, id));
    });

    r("GET", "/zones/:zone/dns_records", "dns:read", (req) => {
      const z = this.zone(req);
      const type = req.query.get("type");
      const name = (req.query.get("name") ?? req.query.get("name.exact"))?.toLowerCase().replace(/\.$/, "");
      const content = req.query.get("content");
      const all = [...z.records.values()].filter(
        (rec) => (!type || rec.type === type) && (!name || rec.name === name) && (!content || rec.content === content),
      );
      return this.page(req, all, { perPage: 100, min: 5, max: 5000 });
    });
    r("GET", "/zones/:zone/dns_records/:id", "dns:read", (req) => this.ok(this.record(req)));
    r("POST", "/zones/:zone/dns_records", "dns:edit", (req) => {
      const z = this.zone(req);
      const body = parseJson(req) ?? fail(400, 9207, "Request body is invalid.");
      const now = this.timestamp();
      const rec = this.buildRecord(z, { ttl: 1, proxied: false, ...body }, { id: this.nextId(), created_on: now });
      z.records.set(rec.id, rec);
      return this.ok(rec);
    });
    const edit = (req: Request, merge: boolean): Reply => {
      const z = this.zone(req);
      const old = this.record(req);
      const body = parseJson(req) ?? fail(400, 9207, "Request body is invalid.");
      const base = merge ? { ...old, comment: old.comment ?? undefined } : { ttl: 1, proxied: false };
      // A PATCH's settings are merged into the record's (a setting it does not name is kept).
      const settings =
        merge && body.settings && typeof body.settings === "object" ? { settings: { ...old.settings, ...body.settings } } : {};
      const rec = this.buildRecord(z, { ...base, ...body, ...settings }, { id: old.id, created_on: old.created_on });
      z.records.set(rec.id, rec);
      return this.ok(rec);
    };
    r("PATCH", "/zones/:zone/dns_records/:id", "dns:edit", (req) => edit(req, true));
    r("PUT", "/zones/:zone/dns_records/:id", "dns:edit", (req) => edit(req, false));
    r("DELETE", "/zones/:zone/dns_records/:id", "dns:edit", (req) => {
      const rec = this.record(req);
      this.zone(req).records.delete(rec.id);
      return this.ok({ id: rec.id });
    });

    // The service's batch (the official SDK's `dns.records.batch` and the service's documentation):
    // deletes, patches, puts, posts, run in that order in one transaction — any operation refused refuses the
    // whole batch, naming it, and nothing is applied. One request against the allowance, whatever it carries.
    r("POST", "/zones/:zone/dns_records/batch", "dns:edit", (req) => {
      if (!this.options.batchLimit) fail(400, 7003, "No route for that URI");
      const z = this.zone(req);
      const body = parseJson(req) ?? fail(400, 9207, "Request body is invalid.");
      const ops = { deletes: body.deletes ?? [], patches: body.patches ?? [], puts: body.puts ?? [], posts: body.posts ?? [] };
      if (Object.values(ops).some((o) => !Array.isArray(o))) fail(400, 9207, "Request body is invalid.");
      const count = Object.values(ops).reduce((n, o) => n + o.length, 0);
      // Not shown by the documentation: the code and words the service answers a batch over its plan's limit with.
      if (count > this.options.batchLimit)
        fail(
          400,
          9207,
          `Request body is invalid: a batch carries at most ${this.options.batchLimit} changes on this zone's plan (${count} sent).`,
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
      const now = this.timestamp();
      for (const kind of ["patches", "puts"] as const) {
        ops[kind].forEach((b: any, i: number) =>
          step(kind, i, () => {
            const was = old(kind, i, b?.id);
            const base = kind === "patches" ? { ...was, comment: was.comment ?? undefined } : { ttl: 1, proxied: false };
            const { id: _id, ...fields } = b;
            // A patch's settings are merged into the record's, as the single PATCH merges them.
            if (kind === "patches" && fields.settings && typeof fields.settings === "object")
              fields.settings = { ...was.settings, ...fields.settings };
            const rec = this.buildRecord(z, { ...base, ...fields }, { id: was.id, created_on: was.created_on });
            put(rec);
            return rec;
          }),
        );
      }
      ops.posts.forEach((b: any, i: number) =>
        step("posts", i, () => {
          const rec = this.buildRecord(z, { ttl: 1, proxied: false, ...b }, { id: this.nextId(), created_on: now });
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
      return this.ok(result);
    });

    registerRuleRoutes(this, r);
    r("POST", "/graphql", "analytics:read", graphqlRoute(this));
    registerWorkerRoutes(this, r);
    registerWorkerReachRoutes(this, r);
    this.rulesets = registerRulesetRoutes(
      this,
      (m, p, perm, h) => this.route(m, API + p, (req) => (this.need(req, perm(req)), h(req))),
      this.plans,
    );
  }

  private nextIdFor(token: string): string {
    return createHash("md5").update(`token:${token}`).digest("hex");
  }

  private record(req: Request): StoredRecord {
    const rec = this.zone(req).records.get(req.params.id);
    if (!rec) fail(404, 81044, "Record does not exist.");
    return rec!;
  }

  /** Validates and normalises a record body the way the service does, refusing an identical record with 81058. */
  private buildRecord(z: Zone, body: any, fixed: { id: string; created_on: string }): StoredRecord {
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
    const plan = this.plans.get(z.id) ?? "free";
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
      modified_on: this.timestamp(),
    };
    if (priority !== undefined) rec.priority = priority;
    return rec;
  }

  private zoneView(z: Zone) {
    return {
      id: z.id,
      name: z.name,
      status: z.added ? "pending" : "active",
      paused: false,
      type: z.added?.type ?? "full",
      name_servers: ["ada.ns.example.net", "bob.ns.example.net"],
      account: { id: this.options.accountId, name: "Demo account" },
      plan: planView(this.plans.get(z.id) ?? "free"),
      development_mode: 0,
      meta: {
        cdn_only: false,
        custom_certificate_quota: 0,
        dns_only: false,
        foundation_dns: false,
        page_rule_quota: 3,
        phishing_detected: false,
        step: 2,
      },
      owner: { id: null, name: null, type: "user" },
      original_name_servers: null,
      original_registrar: null,
      original_dnshost: null,
      activated_on: z.added ? null : "2024-01-01T00:00:00Z",
      created_on: z.added?.on ?? "2024-01-01T00:00:00Z",
      modified_on: z.added?.on ?? "2024-01-01T00:00:00Z",
    };
  }

  private settingView(z: Zone, id: string) {
    const s = z.settings[id];
    return { id, value: s.value, editable: SETTINGS[id].editable !== false, modified_on: s.modified_on };
  }

  /** Out-of-band edits for tests and the demo: they change state without counting as API calls. */
  protected testHook(op: string, _req: Request, body: any): Reply | undefined {
    if (op === "zones") {
      const z = this.addZone(String(body.name));
      if (body.plan) this.plans.set(z.id, body.plan);
      return { status: 200, body: { id: z.id, name: z.name } };
    }
    // A rule put in a zone's entry point ruleset by another tool, or by the service's own upgrade of a legacy rule.
    if (op === "ruleset-rule") {
      const zone = [...this.zones.values()].find((z) => z.name === body.zone) ?? fail(404, 7003, `no zone ${body.zone}`);
      return { status: 200, body: this.rulesets.seedRule(zone.id, String(body.phase), body.rule) };
    }
    // Which script a request reaches (a custom domain, a route, workers.dev), as a visitor would see it served.
    if (op === "serves") return { status: 200, body: servedBy(this, String(body.url)) };
    if (op === "plan") {
      const zone = [...this.zones.values()].find((z) => z.name === body.zone) ?? fail(404, 7003, `no zone ${body.zone}`);
      this.plans.set(zone.id, body.plan);
      return { status: 200, body: { zone: zone.name, plan: body.plan } };
    }
    return undefined;
  }
}

/** A zone's `plan` as the service shows it (legacy_id is what the rate limiting availability table goes by). */
function planView(plan: Plan) {
  const names: Record<Plan, string> = {
    free: "Free Website",
    pro: "Pro Website",
    business: "Business Website",
    enterprise: "Enterprise Website",
  };
  return { id: plan, name: names[plan], legacy_id: plan, is_subscribed: plan !== "free", can_subscribe: true };
}

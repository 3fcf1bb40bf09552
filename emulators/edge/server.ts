/**
 * A stateful emulator of the Cloudflare API v4, the edge network API (`{base_url}/client/v4`). Envelopes, error codes, HTTP
 * statuses, pagination and limits follow the service's documentation, and docs/service-today.md where it is silent.
 */
import { createHash } from "node:crypto";
import { Emulator, HttpError, idSequence, type Reply, type Request } from "../kit";
import { fail, RecordMap, type StoredRecord } from "./dns";
import { graphqlRoute } from "./graphql";
import { registerRecordRoutes } from "./records";
import { registerRuleRoutes, type RuleState } from "./rules";
import { registerRulesetRoutes, type Plan, type RulesetStore } from "./rulesets";
import { registerWorkerRoutes, type StoredScript } from "./workers";
import { registerWorkerReachRoutes, servedBy, type StoredDomain, type StoredRoute } from "./worker-routes";
import { registerZoneRoutes } from "./zones";
import { registerStorageRoutes, type StoredNamespace } from "./storage";
import { serve } from "./runtime";
import { registerR2Routes, type StoredBucket } from "./r2";
import { registerD1Routes, type StoredDatabase } from "./d1";
import { registerQueueRoutes, type StoredQueue } from "./queues";
import type { EdgeEmulatorOptions, Zone } from "./options";
import { SETTINGS } from "./settings";
import { ALL_PERMISSIONS, DEMO_ACCOUNT, DEMO_ACCOUNT_TOKEN, DEMO_TOKEN, DOCUMENTED, READONLY_TOKEN, type Permission } from "./access";

export { ALL_PERMISSIONS, DEMO_ACCOUNT, DEMO_ACCOUNT_TOKEN, DEMO_TOKEN, READ_PERMISSIONS, READONLY_TOKEN, type Permission } from "./access";

export const API = "/client/v4";

export type { EdgeEmulatorOptions, Zone } from "./options";

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
  /** Workers KV namespace id -> namespace (storage.ts). */
  namespaces = new Map<string, StoredNamespace>();
  /** `<jurisdiction>/<name>` -> R2 bucket (r2.ts); D1 uuid -> database (d1.ts). */
  buckets = new Map<string, StoredBucket>();
  databases = new Map<string, StoredDatabase>();
  /** Queue id -> queue (queues.ts); `<namespace>/<id>` -> a Durable Object: its instance, if live, and storage. */
  queues = new Map<string, StoredQueue>();
  durableObjects = new Map<string, { instance?: unknown; storage: Map<string, unknown> }>();
  /** D1's ids are uuids: made from the same sequence, so a run is repeatable. */
  nextUuid = () => this.nextId().replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, "$1-$2-$3-$4-$5");
  /** A visitor's request to `url`: the script it reaches, run with its bindings (runtime.ts), and its answer. */
  serve = (url: string, init?: RequestInit) => serve(this, url, init);
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
    this.namespaces.clear();
    this.buckets.clear();
    this.databases.clear();
    this.queues.clear();
    this.durableObjects.clear();
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

  /** An account path (`/accounts/{account}/...`) of another account than this emulator's: refused as the service does. */
  account(req: { params: Record<string, string> }): void {
    if (req.params.account !== this.options.accountId) fail(403, 10000, "Authentication error");
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

    registerZoneRoutes(this, r);
    registerRecordRoutes(this, r);

    registerRuleRoutes(this, r);
    r("POST", "/graphql", "analytics:read", graphqlRoute(this));
    registerWorkerRoutes(this, r);
    registerWorkerReachRoutes(this, r);
    registerStorageRoutes(this, r);
    registerR2Routes(this, r);
    registerD1Routes(this, r);
    registerQueueRoutes(this, r);
    this.rulesets = registerRulesetRoutes(
      this,
      (m, p, perm, h) => this.route(m, API + p, (req) => (this.need(req, perm(req)), h(req))),
      this.plans,
    );
  }

  private nextIdFor(token: string): string {
    return createHash("md5").update(`token:${token}`).digest("hex");
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

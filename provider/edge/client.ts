/**
 * The edge network API client: one class, every call through `call()`, which unwraps the envelope, validates the
 * result against the wire schema and turns failures into typed errors carrying the spec's remedy.
 */
import { z } from "zod";
import { HttpClient, type Method, type RequestOptions } from "../http/client";
import { AlreadyExistsError, ApiError, AuthError, NotFoundError, RateLimitError, ServerError, ValidationError } from "../http/errors";
import { limiterFor } from "../http/limiter";
import type { EdgeConfig } from "../config";
import * as wire from "./wire";
import { forgetRuleListings } from "./rule-listing";

/**
 * The service's codes today (its API reference and the deprecation notes; docs/service-today.md): 81057 "The record
 * already exists", 81058 "An identical record already exists", 81053/81054 a CNAME clash; 81044 is "The record does
 * not exist". Throttling is 429 with 971 (1015 is the visitor-facing edge error, and the sunset analytics' code).
 * A proxied record the proxy refuses: 9041 (and 9003/9004), since 2024-10-01 no longer wrapped in 1004.
 */
const ALREADY_EXISTS = [81053, 81054, 81057, 81058];
const RATE_LIMITED = [971, 10100];
const AUTH = [10000, 9106, 9103, 9109, 6003, 1000];
const NOT_PROXIABLE = [9003, 9004, 9041];
/** Endpoints the service retired: 1015 from the sunset analytics, 10020 from the read-only firewall rules API. */
const RETIRED = [1015, 10020];

const SET_TOKEN = "Set a valid API token: pulumi config set --secret ops:edgeApiToken <token> (or EDGE_API_TOKEN, or CLOUDFLARE_API_TOKEN)";

const REMEDY = {
  auth: "Verify the token (ops:edgeApiToken, EDGE_API_TOKEN or CLOUDFLARE_API_TOKEN) and regenerate it with the permission this call needs",
  exists: "Look it up by name and update it: set `adopt: true` on the resource to take over the existing object",
  prohibited: "Set proxied to false: a private address cannot be served through the proxy",
  rate: "Rate limited after every retry: lower ops:edgeRateLimit (requests per 5 minutes) or run with less --parallel",
};

export class EdgeClient {
  constructor(
    private readonly http: HttpClient,
    readonly accountId?: string,
    private readonly byToken = true,
    /** Changes per `dns_records/batch` request (ops:edgeBatchSize); 0: single requests only. */
    readonly batchSize = 0,
  ) {}

  static fromConfig(c: EdgeConfig): EdgeClient {
    const headers: Record<string, string> =
      c.auth.kind === "token" ? { authorization: `Bearer ${c.auth.token}` } : { "x-auth-key": c.auth.key, "x-auth-email": c.auth.email };
    const http = new HttpClient({
      service: "edge",
      baseUrl: `${c.baseUrl}/client/v4`,
      headers,
      timeoutMs: c.timeoutMs,
      maxRetries: c.maxRetries,
      // 95% of the allowance: other tools may share the same credential.
      limiter: limiterFor(`edge ${c.baseUrl}`, {
        requests: Math.max(1, Math.floor(c.rateLimit.requests * 0.95)),
        perSeconds: c.rateLimit.perSeconds,
      }),
    });
    const client = new EdgeClient(http, c.accountId, c.auth.kind === "token", c.batchSize);
    // An account-owned token (`cfat_…`, the service's token formats) verifies at its account: asked there first.
    if (c.auth.kind === "token" && c.auth.token.startsWith("cfat_")) client.accountTokenFirst = true;
    return client;
  }

  /** `explain`: an auth refusal is told apart (invalid token or missing permission) by verifying the token. */
  private async call<S extends z.ZodType>(method: Method, path: string, schema: S, options?: RequestOptions, explain = true) {
    // A rule this run changes makes the run's listing of its zone's rules of that kind stale (rule-listing.ts).
    const rules = method !== "GET" && /^\/zones\/([^/]+)\/(pagerules|rulesets)/.exec(path);
    if (rules) forgetRuleListings(rules[2], rules[1]);
    const res = await this.http.request(method, path, options);
    const parsed = wire.Envelope.safeParse(res.json);
    if (res.status >= 400 || !parsed.success || !parsed.data.success) {
      const err = toError(res.status, parsed.success ? parsed.data.errors : [], method, path, res.text);
      throw err instanceof AuthError && this.byToken && explain && !path.endsWith("/tokens/verify")
        ? await this.whyRefused(err, method, path)
        : err;
    }
    const result = schema.safeParse(parsed.data.result);
    if (!result.success) {
      throw new ApiError({
        service: "edge",
        status: res.status,
        method,
        path,
        message: `unexpected answer: ${result.error.issues[0]?.message}`,
      });
    }
    return { result: result.data as z.infer<S>, info: parsed.data.result_info };
  }

  /** Every item of a paginated list, page by page, stopping at a short or empty page. */
  private async *pages<S extends z.ZodType>(path: string, item: S, query: Record<string, string | undefined>, perPage: number) {
    for (let page = 1; ; page++) {
      const { result, info } = await this.call("GET", path, item.array(), { query: { ...query, page, per_page: perPage } });
      yield* result as z.infer<S>[];
      const pages = info?.total_pages;
      if ((result as unknown[]).length < perPage || (pages !== undefined && page >= pages)) return;
    }
  }

  /** Once verified invalid, a token stays so for the run; a valid one is verified again (it may be revoked). */
  private tokenInvalid = false;

  /**
   * 10000 means an invalid token or one without the needed permission: the token is verified (once per run) to
   * tell which, so the remedy is "set a valid token" or names the permission this call needs.
   */
  private async whyRefused(err: AuthError, method: string, path: string): Promise<AuthError> {
    this.tokenInvalid ||= await this.verifyToken().then(
      (t) => t.status !== "active",
      () => true,
    );
    const d = { service: "edge", status: err.status, code: err.code, message: err.apiMessage, method, path };
    if (this.tokenInvalid)
      return new AuthError({
        ...d,
        message: `${err.apiMessage}: the token is not valid (revoked, expired or mistyped)`,
        remedy: SET_TOKEN,
      });
    const permission = permissionFor(method, path);
    return new AuthError({
      ...d,
      message: `${err.apiMessage}: the token is valid but lacks the permission ${permission}`,
      remedy: `Give the token the permission "${permission}" in the account's API tokens (or use a token that has it)`,
    });
  }

  /** A `cfat_` token: an account-owned one, verified at its account before the user endpoint is tried. */
  accountTokenFirst = false;

  /** The kind of the configured token, once learnt: user tokens and account-owned tokens verify apart. */
  private tokenKind?: { kind: "user" } | { kind: "account"; accountId: string };

  /**
   * The token's status, from the endpoint of its kind. A user token verifies at `/user/tokens/verify`; an
   * account-owned token (the kind the service recommends today) is refused there with 401/1000, as an invalid token
   * is, and verifies at `/accounts/{account_id}/tokens/verify`. The account is ops:edgeAccountId, else the account
   * of the zones the token can see; a token that verifies at neither is invalid.
   */
  async verifyToken(): Promise<wire.TokenStatus & { kind: "user" | "account"; accountId?: string }> {
    if (this.accountTokenFirst && !this.tokenKind) {
      for (const accountId of await this.accountsToTry()) {
        const t = await this.call("GET", `/accounts/${accountId}/tokens/verify`, wire.TokenStatus).catch((e: unknown) => {
          if (e instanceof AuthError) return undefined;
          throw e;
        });
        if (t) {
          this.tokenKind = { kind: "account", accountId };
          return { ...t.result, kind: "account", accountId };
        }
      }
    }
    if (this.tokenKind?.kind === "account") {
      const accountId = this.tokenKind.accountId;
      return { ...(await this.call("GET", `/accounts/${accountId}/tokens/verify`, wire.TokenStatus)).result, kind: "account", accountId };
    }
    try {
      const t = (await this.call("GET", "/user/tokens/verify", wire.TokenStatus)).result;
      this.tokenKind = { kind: "user" };
      return { ...t, kind: "user" };
    } catch (e) {
      if (!(e instanceof AuthError) || this.tokenKind || this.accountTokenFirst) throw e; // (a cfat_ token was tried there first)
      const accounts = await this.accountsToTry();
      for (const accountId of accounts) {
        try {
          const t = (await this.call("GET", `/accounts/${accountId}/tokens/verify`, wire.TokenStatus)).result;
          this.tokenKind = { kind: "account", accountId };
          return { ...t, kind: "account", accountId };
        } catch (again) {
          if (!(again instanceof AuthError)) throw again;
        }
      }
      throw e;
    }
  }

  /** Where an account-owned token may verify: the configured account, else the accounts of the zones it sees. */
  private async accountsToTry(): Promise<string[]> {
    if (this.accountId) return [this.accountId];
    try {
      // Not explained (that would verify the token again, which is what asks this).
      const zones = await this.call("GET", "/zones", wire.Zone.array(), { query: { per_page: 50 } }, false);
      return [...new Set(zones.result.map((z) => z.account?.id).filter((id): id is string => !!id))];
    } catch (e) {
      if (e instanceof AuthError) return []; // it can see no zone: it is not a working token
      throw e;
    }
  }

  /** A preview's one read (preflight.ts): the token verified, or with the legacy key, one page of zones. */
  async verifyCredentials(): Promise<void> {
    if (!this.byToken) {
      for await (const _ of this.pages("/zones", wire.Zone, {}, 5)) break;
      return;
    }
    const invalid = (why: string) =>
      new AuthError({ service: "edge", status: 401, message: `the API token is not valid (${why})`, remedy: SET_TOKEN });
    const t = await this.verifyToken().catch((e: unknown) => {
      const status = e instanceof ApiError ? (e.status ?? 0) : 0;
      if (status >= 400 && status < 500 && status !== 429) throw invalid((e as ApiError).apiMessage);
      throw e;
    });
    if (t.status !== "active") throw invalid(`its status is ${t.status}`);
  }

  async listZones(filter: { name?: string } = {}): Promise<wire.Zone[]> {
    return Array.fromAsync(this.pages("/zones", wire.Zone, { name: filter.name }, 50));
  }

  /**
   * A zone by id. `GET /zones/{id}` is a faster path the API document does not list; where a server does not
   * have it (400 / 7003 "No route", 405), the documented zone list is searched instead.
   */
  async getZone(zoneId: string) {
    try {
      return (await this.call("GET", `/zones/${zoneId}`, wire.Zone)).result;
    } catch (e) {
      if (!noRoute(e)) throw e;
      const zone = (await this.listZones()).find((z) => z.id === zoneId);
      if (!zone)
        throw new NotFoundError({
          service: "edge",
          status: 404,
          message: `no zone with id ${zoneId} is visible to this token`,
          remedy: "Check zoneId, or give the token Zone read permission on it",
        });
      return zone;
    }
  }

  /** Every setting of the zone at once (the service marks this listing deprecated, and still answers it). */
  async listSettings(zoneId: string) {
    return (await this.call("GET", `/zones/${zoneId}/settings`, wire.ZoneSetting.array())).result;
  }
  async getSetting(zoneId: string, settingId: string) {
    return (await this.call("GET", `/zones/${zoneId}/settings/${settingId}`, wire.ZoneSetting)).result;
  }

  async patchSetting(zoneId: string, settingId: string, value: unknown) {
    return (await this.call("PATCH", `/zones/${zoneId}/settings/${settingId}`, wire.ZoneSetting, { json: { value } })).result;
  }

  dnsRecords(zoneId: string, filter: { type?: string; name?: string; content?: string } = {}, perPage = 1000) {
    return this.pages(`/zones/${zoneId}/dns_records`, wire.DnsRecord, filter, perPage);
  }

  /** The zone's records with only what tells their values (wire.DnsRecordValue): for reading a whole zone lightly. */
  dnsRecordValues(zoneId: string, perPage = 5000) {
    return this.pages(`/zones/${zoneId}/dns_records`, wire.DnsRecordValue, {}, perPage);
  }

  /** A record by id: `GET .../dns_records/{id}` where the server has it, else the documented record list. */
  async getDnsRecord(zoneId: string, id: string) {
    try {
      return (await this.call("GET", `/zones/${zoneId}/dns_records/${id}`, wire.DnsRecord)).result;
    } catch (e) {
      if (!noRoute(e)) throw e;
      for await (const rec of this.dnsRecords(zoneId, {}, 5000)) if (rec.id === id) return rec;
      throw new NotFoundError({ service: "edge", status: 404, code: 81044, message: `no DNS record ${id} in zone ${zoneId}` }); // 81044: "does not exist"
    }
  }

  async createDnsRecord(zoneId: string, body: wire.DnsRecordBody) {
    return (await this.call("POST", `/zones/${zoneId}/dns_records`, wire.DnsRecord, { json: body })).result;
  }

  async patchDnsRecord(zoneId: string, id: string, body: wire.DnsRecordBody) {
    return (await this.call("PATCH", `/zones/${zoneId}/dns_records/${id}`, wire.DnsRecord, { json: body })).result;
  }

  async deleteDnsRecord(zoneId: string, id: string) {
    await this.call("DELETE", `/zones/${zoneId}/dns_records/${id}`, wire.Deleted);
  }

  /** The service answered a batch with "no such route": the rest of the run sends single requests. */
  private batchRefused = false;

  /** Whether batches are worth trying: configured, and not refused by this service during the run. */
  get batches(): boolean {
    return this.batchSize > 0 && !this.batchRefused;
  }

  /**
   * One `dns_records/batch` request (all or nothing); `undefined` when the service has no such endpoint, which the
   * caller meets with single requests. A lost answer is the caller's to settle: it is never sent again here.
   */
  async batchDnsRecords(zoneId: string, ops: wire.DnsBatch): Promise<z.infer<typeof wire.DnsBatchResult> | undefined> {
    if (!this.batches) return undefined;
    try {
      return (await this.call("POST", `/zones/${zoneId}/dns_records/batch`, wire.DnsBatchResult, { json: ops })).result;
    } catch (e) {
      if (!noRoute(e)) throw e;
      this.batchRefused = true;
      return undefined;
    }
  }

  // Page rules: the list is not paginated. One rule's GET, PATCH and DELETE follow the real service.
  async listPageRules(zoneId: string) {
    return (await this.call("GET", `/zones/${zoneId}/pagerules`, wire.PageRule.array())).result;
  }
  async getPageRule(zoneId: string, id: string) {
    return (await this.call("GET", `/zones/${zoneId}/pagerules/${id}`, wire.PageRule)).result;
  }
  async createPageRule(zoneId: string, body: wire.PageRuleBody) {
    return (await this.call("POST", `/zones/${zoneId}/pagerules`, wire.PageRule, { json: body })).result;
  }
  async updatePageRule(zoneId: string, id: string, body: wire.PageRuleBody) {
    return (await this.call("PATCH", `/zones/${zoneId}/pagerules/${id}`, wire.PageRule, { json: body })).result;
  }
  async deletePageRule(zoneId: string, id: string) {
    await this.call("DELETE", `/zones/${zoneId}/pagerules/${id}`, wire.Deleted);
  }

  // The rulesets engine: a zone's entry point ruleset per phase, its rules added, patched and deleted one by one
  // (each rule endpoint answers the whole ruleset), so rules made by other tools are never touched.
  /** The zone's entry point ruleset of `phase`, or undefined when the zone has none yet (404). */
  async entrypoint(zoneId: string, phase: string): Promise<wire.Ruleset | undefined> {
    try {
      return (await this.call("GET", `/zones/${zoneId}/rulesets/phases/${phase}/entrypoint`, wire.Ruleset)).result;
    } catch (e) {
      if (e instanceof NotFoundError) return undefined;
      throw e;
    }
  }
  /** A zone's entry point ruleset for `phase`, made with its first rules (the documented way when there is none). */
  async createEntrypoint(zoneId: string, phase: string, rules: wire.RuleBody[]) {
    const body = { name: `${phase} entry point ruleset`, kind: "zone", phase, description: "", rules };
    return (await this.call("POST", `/zones/${zoneId}/rulesets`, wire.Ruleset, { json: body })).result;
  }
  /** One ruleset of the zone with its rules, by id (read before a rule's PATCH, which replaces its definition). */
  async ruleset(zoneId: string, rulesetId: string): Promise<wire.Ruleset> {
    return (await this.call("GET", `/zones/${zoneId}/rulesets/${rulesetId}`, wire.Ruleset)).result;
  }
  async addRule(zoneId: string, rulesetId: string, rule: wire.RuleBody) {
    return (await this.call("POST", `/zones/${zoneId}/rulesets/${rulesetId}/rules`, wire.Ruleset, { json: rule })).result;
  }
  async patchRule(zoneId: string, rulesetId: string, ruleId: string, rule: wire.RuleBody) {
    return (await this.call("PATCH", `/zones/${zoneId}/rulesets/${rulesetId}/rules/${ruleId}`, wire.Ruleset, { json: rule })).result;
  }
  async deleteRule(zoneId: string, rulesetId: string, ruleId: string) {
    return (await this.call("DELETE", `/zones/${zoneId}/rulesets/${rulesetId}/rules/${ruleId}`, wire.Ruleset)).result;
  }

  // Edge scripts, account-scoped: uploaded as multipart (a `metadata` part and the parts it names); read back
  // with `content/v2` (a module's parts as multipart) and `settings` (its compatibility date and flags).
  async listWorkerScripts(accountId: string) {
    return (await this.call("GET", `/accounts/${accountId}/workers/scripts`, wire.WorkerScript.array())).result;
  }
  async putWorkerScript(accountId: string, name: string, upload: { body: Buffer; contentType: string }) {
    return (
      await this.call("PUT", `/accounts/${accountId}/workers/scripts/${name}`, wire.WorkerScript, {
        body: upload.body,
        contentType: upload.contentType,
        idempotent: true,
      })
    ).result;
  }
  /** The deployed script's main part (by the `CF-Entrypoint` header of a multipart answer), or undefined when none. */
  async getWorkerScript(accountId: string, name: string): Promise<string | undefined> {
    const path = `/accounts/${accountId}/workers/scripts/${name}/content/v2`;
    const res = await this.http.request("GET", path, { expect: "text" }); // the script, not JSON
    if (res.status === 404) return undefined;
    if (res.status >= 400) {
      const env = wire.Envelope.safeParse(res.json);
      throw toError(res.status, env.success ? env.data.errors : [], "GET", path, res.text);
    }
    const type = String(res.headers["content-type"] ?? "");
    if (!type.startsWith("multipart/")) return res.text;
    const form = await new Response(res.text, { headers: { "content-type": type } }).formData();
    const entry = String(res.headers["cf-entrypoint"] ?? "");
    const part = (entry && form.get(entry)) || [...form.values()][0];
    return typeof part === "string" ? part : part ? await part.text() : undefined;
  }
  async getWorkerScriptSettings(accountId: string, name: string) {
    return (await this.call("GET", `/accounts/${accountId}/workers/scripts/${name}/settings`, wire.WorkerScriptSettings)).result;
  }
  async deleteWorkerScript(accountId: string, name: string) {
    await this.call("DELETE", `/accounts/${accountId}/workers/scripts/${name}`, wire.Deleted.or(z.null()));
  }
  // A script's secrets (secret text bindings), set and removed without uploading the script again.
  async listWorkerSecrets(accountId: string, name: string) {
    return (await this.call("GET", `/accounts/${accountId}/workers/scripts/${name}/secrets`, wire.WorkerSecret.array())).result;
  }
  async putWorkerSecret(accountId: string, name: string, secret: { name: string; text: string }) {
    return (
      await this.call("PUT", `/accounts/${accountId}/workers/scripts/${name}/secrets`, wire.WorkerSecret, {
        json: { ...secret, type: "secret_text" },
        idempotent: true,
      })
    ).result;
  }
  async deleteWorkerSecret(accountId: string, name: string, secret: string) {
    await this.call("DELETE", `/accounts/${accountId}/workers/scripts/${name}/secrets/${encodeURIComponent(secret)}`, z.unknown());
  }
  // Its workers.dev endpoint and preview URLs.
  async getWorkerSubdomain(accountId: string, name: string) {
    return (await this.call("GET", `/accounts/${accountId}/workers/scripts/${name}/subdomain`, wire.WorkerSubdomain)).result;
  }
  async setWorkerSubdomain(accountId: string, name: string, body: { enabled: boolean; previews_enabled: boolean }) {
    return (
      await this.call("POST", `/accounts/${accountId}/workers/scripts/${name}/subdomain`, wire.WorkerSubdomain, {
        json: body,
        idempotent: true,
      })
    ).result;
  }

  // Routes: a zone's URL patterns and the script each runs.
  async listWorkerRoutes(zoneId: string) {
    return (await this.call("GET", `/zones/${zoneId}/workers/routes`, wire.WorkerRoute.array())).result;
  }
  async getWorkerRoute(zoneId: string, id: string) {
    return (await this.call("GET", `/zones/${zoneId}/workers/routes/${id}`, wire.WorkerRoute)).result;
  }
  async createWorkerRoute(zoneId: string, body: { pattern: string; script?: string }) {
    return (await this.call("POST", `/zones/${zoneId}/workers/routes`, wire.WorkerRoute, { json: body })).result;
  }
  async updateWorkerRoute(zoneId: string, id: string, body: { pattern: string; script?: string }) {
    return (await this.call("PUT", `/zones/${zoneId}/workers/routes/${id}`, wire.WorkerRoute, { json: body, idempotent: true })).result;
  }
  async deleteWorkerRoute(zoneId: string, id: string) {
    await this.call("DELETE", `/zones/${zoneId}/workers/routes/${id}`, z.unknown());
  }

  // Custom domains: host names the account's scripts serve.
  async listWorkerDomains(accountId: string, filter: { hostname?: string; zone_id?: string; service?: string } = {}) {
    return (await this.call("GET", `/accounts/${accountId}/workers/domains`, wire.WorkerDomain.array(), { query: filter })).result;
  }
  async getWorkerDomain(accountId: string, id: string) {
    return (await this.call("GET", `/accounts/${accountId}/workers/domains/${id}`, wire.WorkerDomain)).result;
  }
  async attachWorkerDomain(accountId: string, body: { hostname: string; service: string; zone_id: string; environment?: string }) {
    return (await this.call("PUT", `/accounts/${accountId}/workers/domains`, wire.WorkerDomain, { json: body, idempotent: true })).result;
  }
  async detachWorkerDomain(accountId: string, id: string) {
    // The service answers an empty body on success.
    const path = `/accounts/${accountId}/workers/domains/${id}`;
    const res = await this.http.request("DELETE", path, { expect: "text" });
    if (res.status >= 400) {
      const env = wire.Envelope.safeParse(res.json);
      throw toError(res.status, env.success ? env.data.errors : [], "DELETE", path, res.text);
    }
  }

  /**
   * One GraphQL query (the analytics API, `POST /graphql`): its answer is `{data, errors}`, not the REST envelope,
   * and a refused query is still HTTP 200 with `errors`. `data` is validated against `schema`.
   */
  async graphql<S extends z.ZodType>(query: string, variables: Record<string, unknown>, schema: S): Promise<z.infer<S>> {
    const res = await this.http.request("POST", "/graphql", { json: { query, variables }, idempotent: true });
    const answer = wire.GraphqlAnswer.safeParse(res.json);
    if (res.status >= 400 || !answer.success) {
      const env = wire.Envelope.safeParse(res.json);
      throw toError(res.status, env.success ? env.data.errors : [], "POST", "/graphql", res.text);
    }
    if (answer.data.errors?.length) {
      const message = answer.data.errors.map((e) => e.message).join("; ");
      const d = { service: "edge", status: res.status, method: "POST", path: "/graphql", message };
      if (/not authori[sz]ed|permission|authentication/i.test(message))
        throw new AuthError({ ...d, remedy: `Give the token the permission "Zone / Analytics / Read"` });
      throw new ValidationError(d);
    }
    const data = schema.safeParse(answer.data.data);
    if (!data.success)
      throw new ApiError({
        service: "edge",
        status: res.status,
        method: "POST",
        path: "/graphql",
        message: `unexpected answer: ${data.error.issues[0]?.message}`,
      });
    return data.data as z.infer<S>;
  }
}

/** The token permission a call needs, as the account's API token page names it. */
export function permissionFor(method: string, path: string): string {
  const edit = method === "GET" ? "Read" : "Edit";
  if (path.startsWith("/accounts/") && path.includes("/workers/")) return `Account / Workers Scripts / ${edit}`;
  if (/\/workers\/routes/.test(path)) return `Zone / Workers Routes / ${edit}`;
  if (/\/dns_records/.test(path)) return `Zone / DNS / ${edit}`;
  if (/\/settings/.test(path)) return `Zone / Zone Settings / ${edit}`;
  if (/\/pagerules/.test(path)) return `Zone / Page Rules / ${edit}`;
  if (/\/firewall\/|\/rate_limits|\/rulesets/.test(path)) return `Zone / Zone WAF / ${edit}`;
  if (/\/analytics|\/security\/events/.test(path)) return "Zone / Analytics / Read";
  return `Zone / Zone / ${edit}`;
}

function toError(status: number, errors: wire.EdgeErrorItem[], method: string, path: string, text: string): ApiError {
  const first = errors.find((e) => e.code !== undefined) ?? errors[0];
  const code = first?.code;
  const message = errors.length
    ? errors.map((e) => e.message || `code ${e.code ?? "unknown"}`).join("; ")
    : text.slice(0, 200) || "no error detail";
  const d = { service: "edge", status, code, message, method, path };
  const has = (codes: number[]) => errors.some((e) => e.code !== undefined && codes.includes(e.code));
  if (status === 429 || has(RATE_LIMITED)) return new RateLimitError({ ...d, remedy: REMEDY.rate });
  // 10020 is also the workers routes' "A route with the same pattern already exists": retired only on firewall paths.
  if (/\/workers\/routes/.test(path) && has([10020]))
    return new AlreadyExistsError({
      ...d,
      remedy: "Set `adopt: true` on the WorkerRoute to take over the route with this pattern, or choose another pattern",
    });
  if (status === 410 || has(RETIRED.filter((c) => c !== 10020 || /\/(firewall|filters)/.test(path))))
    return new ValidationError({
      ...d,
      remedy:
        "The service retired this endpoint: upgrade pulumi-ops, whose resources use the endpoints that replaced it (docs/service-today.md)",
    });
  if (has(ALREADY_EXISTS) && status !== 404) return new AlreadyExistsError({ ...d, remedy: REMEDY.exists });
  if (status === 401 || status === 403 || has(AUTH)) return new AuthError({ ...d, remedy: REMEDY.auth });
  // The Workers endpoints' "not found" codes (a script, a route, a custom domain, a secret), whatever the status.
  if (status === 404 || (/\/workers\//.test(path) && has([10007, 10009, 100114, 10056]))) return new NotFoundError(d);
  if (has(NOT_PROXIABLE)) return new ValidationError({ ...d, remedy: REMEDY.prohibited });
  if (status >= 500) return new ServerError({ ...d, remedy: "The service failed; run the command again later" });
  return new ValidationError(d);
}

/** The server has no such route (a faster path it does not offer): 400 with code 7003, or 405. */
function noRoute(e: unknown): boolean {
  return e instanceof ApiError && !(e instanceof AuthError) && ((e.status === 400 && e.code === 7003) || e.status === 405);
}

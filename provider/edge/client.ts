/**
 * The edge network API client: its endpoints (zones and settings, DNS records, page rules and rulesets, Workers
 * scripts, routes and domains, the analytics' GraphQL; Workers storage in storage-api.ts), each through EdgeApi's
 * one `call()` (api.ts), which validates the answer against the wire schema and turns failures into typed errors
 * carrying their remedy.
 */
import { z } from "zod";
import { HttpClient } from "../http/client";
import { ApiError, AuthError, NotFoundError, ValidationError } from "../http/errors";
import { limiterFor } from "../http/limiter";
import type { EdgeConfig } from "../config";
import * as wire from "./wire";
import { StorageApi } from "./storage-api";
import { noRoute, toError } from "./errors";

export class EdgeClient extends StorageApi {
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

import { z } from "zod";
import { HttpClient, type Method, type RequestOptions } from "../http/client";
import { ApiError, AuthError } from "../http/errors";
import * as wire from "./wire";
import { forgetRuleListings } from "./rule-listing";
import { permissionFor, SET_TOKEN, toError } from "./errors";

/**
 * The transport of the edge API and what it knows of its token: every call through `call()`, which unwraps the
 * envelope, validates the result against the wire schema and turns failures into typed errors (errors.ts); lists
 * page by page; the token verified at the endpoint of its kind. The endpoints are EdgeClient's (client.ts).
 */
export class EdgeApi {
  constructor(
    protected readonly http: HttpClient,
    readonly accountId?: string,
    protected readonly byToken = true,
    /** Changes per `dns_records/batch` request (ops:edgeBatchSize); 0: single requests only. */
    readonly batchSize = 0,
  ) {}

  /** `explain`: an auth refusal is told apart (invalid token or missing permission) by verifying the token. */
  protected async call<S extends z.ZodType>(method: Method, path: string, schema: S, options?: RequestOptions, explain = true) {
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
  protected async *pages<S extends z.ZodType>(path: string, item: S, query: Record<string, string | undefined>, perPage: number) {
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
}

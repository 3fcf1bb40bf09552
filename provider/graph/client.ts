/**
 * What the page-management and short-post clients share: the `{error:{message,type,code,error_subcode}}`
 * envelope turned into typed errors with the document's remedies, and a bounded wait-and-retry for the
 * services' throttling codes, which arrive as HTTP 400/403 where undici's retry (429, 5xx) cannot see them.
 */
import { createHmac } from "node:crypto";
import { HttpClient, type Method } from "../http/client";
import { ApiError, AuthError, NotFoundError, RateLimitError, ServerError, ValidationError } from "../http/errors";
import { log } from "../log";

export interface GraphErrorBody {
  message?: string;
  type?: string;
  code?: number;
  error_subcode?: number;
  is_transient?: boolean;
}

/**
 * Throttling: app (4), user (17), page (32), custom (613) and the business use case codes (80001 pages, 80002
 * Instagram, 80004 ads, 80005 lead ads, 80006 Messenger, 80008 WhatsApp, 80009 catalog, 80014 catalog batch).
 */
const THROTTLED = new Set([4, 17, 32, 613, 80001, 80002, 80003, 80004, 80005, 80006, 80008, 80009, 80014]);

/** What each service's calls need, named in a permission error's remedy. */
const PERMISSIONS: Record<string, string> = {
  posts: "threads_basic (reading), threads_content_publish (posting), threads_delete (deleting), threads_manage_insights (counts)",
  pages:
    "pages_show_list and pages_read_engagement (reading), pages_manage_posts (posting), pages_manage_metadata (subscriptions, access), read_insights (insights), business_management (access through a business)",
};
const TOKEN_KEY: Record<string, string> = {
  posts: "ops:postsAccessToken (THREADS_ACCESS_TOKEN)",
  pages: "ops:pagesAccessToken (FACEBOOK_PAGE_ACCESS_TOKEN)",
};

/** Code 190 by subcode: what happened to the token, and what brings a working one. */
function tokenRemedy(service: string, e: GraphErrorBody): string {
  const key = TOKEN_KEY[service] ?? "the access token";
  switch (e.error_subcode) {
    case 463:
      return `The token expired (190/463): get a new one (a long-lived one lasts 60 days; set the app id and secret and pulumi-ops exchanges short-lived ones) and set it as ${key}`;
    case 460:
      return `The token was invalidated when the user changed their password (190/460): the user logs in again; set the new token as ${key}`;
    case 458:
      return `The user removed the app (190/458): they must authorize it again; set the new token as ${key}`;
    case 459:
    case 464:
      return `The user's account needs attention (190/${e.error_subcode}): they log in to the service's site and follow its steps, then a new token is set as ${key}`;
    case 467:
      return `The token is no longer valid (190/467: logged out, or replaced by a newer one): set a fresh token as ${key}`;
    case 492:
      return `The page token's user lost their role on the page (190/492): give them access to the page again, or use a token of someone who has it, as ${key}`;
    default:
      return `Invalid OAuth access token (190${e.error_subcode ? `/${e.error_subcode}` : ""}): check ${key}`;
  }
}

export function graphError(service: string, status: number, e: GraphErrorBody, method: string, path: string): ApiError {
  const code = e.code;
  const d = { service, status, code, subcode: e.error_subcode, message: e.message ?? `HTTP ${status}`, method, path };
  if (code === 190 || code === 102) return new AuthError({ ...d, remedy: tokenRemedy(service, e) });
  if (code !== undefined && THROTTLED.has(code))
    return new RateLimitError({
      ...d,
      remedy: "Still throttled after waiting: run again later, or lower how many resources run at once (--parallel)",
    });
  if (code === 10 || (code !== undefined && code >= 200 && code <= 299) || status === 403) {
    return new AuthError({
      ...d,
      remedy: `Insufficient privileges: the token needs the permission for this call (${PERMISSIONS[service] ?? "see the service's permission reference"}), and its user the access it needs`,
    });
  }
  // "Does not exist, cannot be loaded due to missing permissions, or does not support this operation": a wrong token
  // answers it as a deleted object does, so it is gone only once a check that can tell says so (GraphClient.call).
  if (code === 100 && e.error_subcode === 33) return new UnreachableObjectError(d);
  if (code === 368)
    return new ValidationError({
      ...d,
      remedy: "Content policy violation: the service judged the content spam-like or misleading; change it",
    });
  if (status >= 500 || code === 1 || code === 2 || e.is_transient)
    return new ServerError({ ...d, remedy: "The service failed; run the command again" });
  return new ValidationError(d);
}

/** Graph's 100/33: the object does not exist, or this token may not see it (GraphClient.call tells which). */
export class UnreachableObjectError extends ValidationError {}

/**
 * The wait before the next try of a throttled call: the business use case header's `estimated_time_to_regain_access`
 * (minutes) when it names one, else 2, 4, 8 ... seconds; at most a minute, so a run never stalls silently.
 */
function throttleWait(headers: Record<string, string | string[] | undefined>, attempt: number): number {
  const minutes = regainMinutes(headers) ?? 0;
  const ms = minutes > 0 ? minutes * 60_000 : 2 ** attempt * 1000 * (0.75 + Math.random() / 2);
  return Math.min(ms, 60_000);
}

/** The business use case header's `estimated_time_to_regain_access` in minutes (undefined when it names none). */
function regainMinutes(headers: Record<string, string | string[] | undefined>): number | undefined {
  let minutes: number | undefined;
  try {
    for (const entries of Object.values(
      JSON.parse(String(headers["x-business-use-case-usage"] ?? "{}")) as Record<string, { estimated_time_to_regain_access?: number }[]>,
    )) {
      for (const u of entries)
        if (typeof u.estimated_time_to_regain_access === "number") minutes = Math.max(minutes ?? 0, u.estimated_time_to_regain_access);
    }
  } catch {
    /* a header that is not JSON says nothing */
  }
  return minutes;
}

/**
 * A throttled call the service says will not be served for more than a minute: waiting inside the run only stalls it
 * (a preview would sit through its retries), so it fails at once with when calls resume.
 */
function throttledFor(
  err: ApiError,
  headers: Record<string, string | string[] | undefined>,
  method: string,
  path: string,
): RateLimitError | undefined {
  const minutes = regainMinutes(headers);
  const at = (m: number) => new Date(Date.now() + m * 60_000).toISOString().replace(/:\d\d\.\d+Z$/, "Z");
  const failure = (remedy: string) =>
    new RateLimitError({
      service: err.service,
      status: err.status,
      code: err.code,
      subcode: err.subcode,
      message: err.apiMessage,
      method,
      path,
      remedy,
    });
  if (minutes !== undefined && minutes > 1)
    return failure(
      `The service throttles these calls for about ${minutes} more minutes (until about ${at(minutes)}, X-Business-Use-Case-Usage): run again then`,
    );
  // An allowance the usage headers show spent (100%): counted over a rolling hour, with no reset time. A business use
  // case whose header names a wait (even 0) is judged by it, not by its percentages.
  // The code says whose allowance it is where the headers cannot: a user token's X-App-Usage shows the fuller of the
  // app's and the user's, and codes 17 and 32 (a Pages API call made with a user token) are the user's (the Graph API's
  // rate limiting guide: platform rate limits, and its table of Pages codes).
  const byCode: Record<number, string> = {
    17: "user's hourly call allowance (code 17, User request limit reached)",
    32: "user's hourly call allowance for Pages API calls (code 32, Page request limit reached)",
  };
  const spent = byCode[Number(err.code ?? 0)] ?? spentAllowance(headers, minutes !== undefined);
  if (spent)
    return failure(
      `The ${spent} is used up (100%): calls are counted over a rolling hour, so run again later, within the hour (by about ${at(60)} at the latest), or spread the work over runs`,
    );
  return undefined;
}

const USAGE_HEADERS: [string, string][] = [
  ["x-app-usage", "app's hourly call allowance (X-App-Usage)"],
  ["x-page-usage", "page's hourly call allowance (X-Page-Usage)"],
  ["x-business-use-case-usage", "page's call allowance (the Pages business use case, X-Business-Use-Case-Usage)"],
];

/** Which allowance the usage headers show at 100%, if one is. */
function spentAllowance(headers: Record<string, string | string[] | undefined>, waitNamed = false): string | undefined {
  for (const [name, what] of USAGE_HEADERS) {
    if (waitNamed && name === "x-business-use-case-usage") continue;
    try {
      const parsed = JSON.parse(String(headers[name] ?? "{}")) as Record<string, unknown>;
      // X-Business-Use-Case-Usage nests its usage by object id; the others are flat.
      const entries = name === "x-business-use-case-usage" ? Object.values(parsed).flat() : [parsed];
      for (const u of entries as Record<string, number>[])
        if (Math.max(u?.call_count ?? 0, u?.total_cputime ?? 0, u?.total_time ?? 0) >= 100) return what;
    } catch {
      /* a header that is not JSON says nothing */
    }
  }
  return undefined;
}

/** A local file to send as a multipart/form-data part (the services take uploads only that way). */
export class FileUpload {
  constructor(
    readonly name: string,
    readonly bytes: Buffer,
    readonly type = "application/octet-stream",
  ) {}
}

/** `appsecret_proof`: the token's HMAC-SHA256 keyed with the app secret, which apps that require it check on every call. */
export const appSecretProof = (token: string, secret: string) => createHmac("sha256", secret).update(token).digest("hex");

export class GraphClient {
  constructor(
    readonly service: string,
    protected readonly http: HttpClient,
    private readonly maxRetries: number,
    /** The app's secret, when configured: every call then carries its `appsecret_proof`. */
    private readonly appSecret?: string,
  ) {}

  /**
   * One call; the services' throttling codes are waited out (2, 4, 8 ... seconds) before giving up. `idempotent`
   * marks a POST that sets a state (a role, a field set, an edit, a batch of reads): it is retried after an unknown
   * outcome as a PUT would be. `retries`: how many throttled answers are waited out (a caller that first asks why it
   * was throttled passes 0).
   */
  async call<T = any>(
    method: Method,
    path: string,
    params: Record<string, unknown> = {},
    token?: string,
    bearer = false,
    idempotent = false,
    retries = this.maxRetries,
  ): Promise<T> {
    return (await this.answer<T>(method, path, params, token, bearer, idempotent, retries)).body;
  }

  /** `call`, with the answer's headers (the usage headers: `X-App-Usage`, `X-Page-Usage`, `X-Business-Use-Case-Usage`). */
  async answer<T = any>(
    method: Method,
    path: string,
    params: Record<string, unknown> = {},
    token?: string,
    bearer = false,
    idempotent = false,
    retries = this.maxRetries,
  ): Promise<{ body: T; headers: Record<string, string | string[] | undefined> }> {
    const files = Object.entries(params).filter((e): e is [string, FileUpload] => e[1] instanceof FileUpload);
    if (files.length) return { body: await this.upload<T>(path, params, files, token), headers: {} };
    const form = new URLSearchParams();
    const query: Record<string, string> = {};
    for (const [k, v] of Object.entries(params)) {
      if (v === undefined) continue;
      const s = typeof v === "string" ? v : JSON.stringify(v);
      if (method === "GET" || method === "DELETE") query[k] = s;
      else form.set(k, s);
    }
    if (token && !bearer) {
      const proof = this.appSecret ? { appsecret_proof: appSecretProof(token, this.appSecret) } : {};
      if (method === "GET" || method === "DELETE") Object.assign(query, { access_token: token, ...proof });
      else for (const [k, v] of Object.entries({ access_token: token, ...proof })) form.set(k, v);
    }
    for (let attempt = 1; ; attempt++) {
      const res = await this.http.request(method, path, {
        query,
        ...(method === "GET" || method === "DELETE" ? {} : { body: form.toString(), contentType: "application/x-www-form-urlencoded" }),
        ...(token && bearer ? { headers: { authorization: `Bearer ${token}` } } : {}),
        idempotent,
      });
      const body = res.json as { error?: GraphErrorBody } | undefined;
      if (res.status < 400 && !body?.error) return { body: res.json as T, headers: res.headers };
      const err = graphError(this.service, res.status, body?.error ?? { message: res.text.slice(0, 200) }, method, path);
      if (err instanceof UnreachableObjectError) throw await this.tellUnreachable(err, path, token, bearer);
      // A throttling refusal acted on nothing; another transient failure (a 5xx the HTTP client has already retried
      // aside) is tried again only where repeating is safe.
      const again = err instanceof RateLimitError || (err instanceof ServerError && res.status < 500 && (method === "GET" || idempotent));
      if (err instanceof RateLimitError) {
        const long = throttledFor(err, res.headers, method, path);
        if (long) throw long;
      }
      if (!again || attempt > retries) throw err;
      const delay = throttleWait(res.headers, attempt);
      log(
        `${this.service}: ${method} ${path} ${err instanceof RateLimitError ? "throttled" : "failed for now"} (code ${err.code}); waiting ${(delay / 1000).toFixed(1)} s (${attempt} of ${retries})`,
      );
      await new Promise((r) => setTimeout(r, delay));
    }
  }

  /**
   * 100/33 on an object: gone when the same token still reads what it owns (`/me`: the user, or the page of a page
   * token) and, for a page's object (`{page}_{n}`), that page is the token's (page calls are made with the page's
   * token); else the token is the problem, and that failure is what is thrown (refresh must not drop a resource for
   * a wrong token).
   */
  protected async tellUnreachable(err: ApiError, path: string, token: string | undefined, bearer: boolean): Promise<ApiError> {
    const version = /^\/v\d+\.\d+/.exec(path)?.[0] ?? "";
    let me: { id?: string };
    try {
      me = await this.call("GET", `${version}/me`, { fields: "id" }, token, bearer);
    } catch (e) {
      return e instanceof ApiError ? e : err;
    }
    const owner = /^(?:\/v\d+\.\d+)?\/(\d+)_\d+/.exec(path)?.[1];
    if (owner && me.id && me.id !== owner) {
      return new AuthError({
        service: this.service,
        status: err.status,
        code: err.code,
        subcode: err.subcode,
        message: `${err.apiMessage} (the token is not page ${owner}'s)`,
        remedy: `Use a token of page ${owner}, or of a user who manages it, as ${TOKEN_KEY[this.service]}`,
      });
    }
    return new NotFoundError({ service: this.service, status: err.status, code: err.code, subcode: err.subcode, message: err.apiMessage });
  }

  /** A POST whose body is multipart/form-data: the file parts, the other parameters and the token as fields. */
  private async upload<T>(path: string, params: Record<string, unknown>, files: [string, FileUpload][], token?: string): Promise<T> {
    const form = new FormData();
    for (const [k, v] of Object.entries(params)) {
      if (v === undefined || v instanceof FileUpload) continue;
      form.set(k, typeof v === "string" ? v : JSON.stringify(v));
    }
    for (const [k, f] of files) form.set(k, new Blob([new Uint8Array(f.bytes)], { type: f.type }), f.name);
    if (token) form.set("access_token", token);
    if (token && this.appSecret) form.set("appsecret_proof", appSecretProof(token, this.appSecret));
    const encoded = new Response(form);
    const body = Buffer.from(await encoded.arrayBuffer());
    const res = await this.http.request("POST", path, { body, contentType: encoded.headers.get("content-type")! });
    const json = res.json as { error?: GraphErrorBody } | undefined;
    if (res.status < 400 && !json?.error) return res.json as T;
    throw graphError(this.service, res.status, json?.error ?? { message: res.text.slice(0, 200) }, "POST", path);
  }
}

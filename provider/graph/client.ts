/**
 * What the page-management and short-post clients share: one request method whose answers' error envelope becomes
 * typed errors (errors.ts), and a bounded wait-and-retry for the services' throttling codes, which arrive as HTTP
 * 400/403 where undici's retry (429, 5xx) cannot see them.
 */
import { createHmac } from "node:crypto";
import { HttpClient, type Method } from "../http/client";
import { ApiError, AuthError, NotFoundError, RateLimitError, ServerError } from "../http/errors";
import { graphError, throttledFor, throttleWait, TOKEN_KEY, UnreachableObjectError, type GraphErrorBody } from "./errors";
import { log } from "../log";

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

/**
 * What the page-management and short-post clients share: the `{error:{message,type,code,error_subcode}}`
 * envelope turned into typed errors with the document's remedies, and a bounded wait-and-retry for the
 * services' throttling codes, which arrive as HTTP 400/403 where undici's retry (429, 5xx) cannot see them.
 */
import { HttpClient, type Method } from "../http/client";
import { ApiError, AuthError, NotFoundError, RateLimitError, ServerError, ValidationError } from "../http/errors";
import { log } from "../log";

export interface GraphErrorBody {
  message?: string;
  type?: string;
  code?: number;
  error_subcode?: number;
}

const THROTTLED = [4, 17, 32, 613];

export function graphError(service: string, status: number, e: GraphErrorBody, method: string, path: string): ApiError {
  const code = e.code;
  const d = { service, status, code, message: e.message ?? `HTTP ${status}`, method, path };
  if (code === 190) {
    const expired = e.error_subcode === 463 || e.error_subcode === 467 || /expired/i.test(e.message ?? "");
    return new AuthError({ ...d, remedy: expired ? "The token expired (190): refresh it or re-authenticate, then set the new token in config" : "Invalid OAuth access token (190): check the token, or exchange it for a long-lived one" });
  }
  if (code === 10 || (code !== undefined && code >= 200 && code <= 299) || status === 403) {
    return new AuthError({ ...d, remedy: "Insufficient privileges: grant the permission named (posting: pages_manage_posts; insights: pages_read_engagement; roles and subscriptions: pages_manage_metadata), use a page token, and hold an admin or editor role on the page" });
  }
  if (code !== undefined && THROTTLED.includes(code)) return new RateLimitError({ ...d, remedy: "Still throttled after waiting: run again later, or lower how many resources run at once (--parallel)" });
  if (code === 100 && e.error_subcode === 33) return new NotFoundError(d);
  if (code === 368) return new ValidationError({ ...d, remedy: "Content policy violation: the service judged the content spam-like or misleading; change it" });
  if (code === 9001) return new ValidationError({ ...d, remedy: "Check the media's format and size, and that its URL is publicly reachable" });
  if (status >= 500 || code === 1 || code === 2) return new ServerError({ ...d, remedy: "The service failed; run the command again" });
  return new ValidationError(d);
}

/** A local file to send as a multipart/form-data part (the services take uploads only that way). */
export class FileUpload {
  constructor(readonly name: string, readonly bytes: Buffer, readonly type = "application/octet-stream") {}
}

export class GraphClient {
  constructor(
    readonly service: string,
    protected readonly http: HttpClient,
    private readonly maxRetries: number,
  ) {}

  /**
   * One call; the services' throttling codes are waited out (2, 4, 8 ... seconds) before giving up. `idempotent`
   * marks a POST that sets a state (a role, a field set, an edit, a batch of reads): it is retried after an unknown
   * outcome as a PUT would be.
   */
  async call<T = any>(method: Method, path: string, params: Record<string, unknown> = {}, token?: string, bearer = false, idempotent = false): Promise<T> {
    const files = Object.entries(params).filter((e): e is [string, FileUpload] => e[1] instanceof FileUpload);
    if (files.length) return this.upload<T>(path, params, files, token);
    const form = new URLSearchParams();
    const query: Record<string, string> = {};
    for (const [k, v] of Object.entries(params)) {
      if (v === undefined) continue;
      const s = typeof v === "string" ? v : JSON.stringify(v);
      if (method === "GET" || method === "DELETE") query[k] = s;
      else form.set(k, s);
    }
    if (token && !bearer) {
      if (method === "GET" || method === "DELETE") query.access_token = token;
      else form.set("access_token", token);
    }
    for (let attempt = 1; ; attempt++) {
      const res = await this.http.request(method, path, {
        query,
        ...(method === "GET" || method === "DELETE" ? {} : { body: form.toString(), contentType: "application/x-www-form-urlencoded" }),
        ...(token && bearer ? { headers: { authorization: `Bearer ${token}` } } : {}),
        idempotent,
      });
      const body = res.json as { error?: GraphErrorBody } | undefined;
      if (res.status < 400 && !body?.error) return res.json as T;
      const err = graphError(this.service, res.status, body?.error ?? { message: res.text.slice(0, 200) }, method, path);
      if (!(err instanceof RateLimitError) || attempt > this.maxRetries) throw err;
      const delay = Math.min(2 ** attempt * 1000, 60_000) * (0.75 + Math.random() / 2);
      log(`${this.service}: ${method} ${path} throttled (code ${err.code}); waiting ${(delay / 1000).toFixed(1)} s (${attempt} of ${this.maxRetries})`);
      await new Promise((r) => setTimeout(r, delay));
    }
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
    const encoded = new Response(form);
    const body = Buffer.from(await encoded.arrayBuffer());
    const res = await this.http.request("POST", path, { body, contentType: encoded.headers.get("content-type")! });
    const json = res.json as { error?: GraphErrorBody } | undefined;
    if (res.status < 400 && !json?.error) return res.json as T;
    throw graphError(this.service, res.status, json?.error ?? { message: res.text.slice(0, 200) }, "POST", path);
  }
}

/**
 * The HTTP layer every service client uses: undici underneath, retries by undici's RetryAgent with our policy
 * (exponential backoff with jitter, Retry-After honoured, writes that are not safe to repeat never repeated),
 * per-request timeouts, and the service's shared client-side rate limiter.
 *
 * undici is loaded with a client's first request, not with the module: it takes about 60 ms to load, and the
 * provider process the engine starts for every command often sends nothing (a preview, a no-op up).
 */
import type { Dispatcher } from "undici";
import { parseRatelimit, RateLimiter } from "./limiter";
import { ApiError, TransportError } from "./errors";
import { log } from "../log";

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface HttpClientOptions {
  /** Service name used in errors and progress lines, e.g. "edge". */
  service: string;
  /** Base URL every path is appended to, e.g. "https://api.example.com/client/v4". */
  baseUrl: string;
  /** Headers sent on every request (authentication). Never logged, never put in an error. */
  headers: Record<string, string>;
  timeoutMs: number;
  maxRetries: number;
  limiter?: RateLimiter;
  /** The setting that points at the service, named in remedies (`ops:edgeBaseUrl`, `ops:skillsUrl`, `ops:runnerHost`). */
  urlKey?: string;
}

export interface RequestOptions {
  query?: Record<string, string | number | boolean | undefined>;
  /** Headers for this request only (e.g. a token that differs per call). */
  headers?: Record<string, string>;
  json?: unknown;
  body?: string | Buffer;
  contentType?: string;
  /**
   * What a success must be: JSON (the default), JSON or an event stream (`json-or-stream`), or anything (`text`).
   * An answer that is not (a redirect, an HTML page, an empty body) is an error naming the setting to check,
   * instead of a JavaScript TypeError further on.
   */
  expect?: "json" | "json-or-stream" | "text";
  /**
   * A POST that sets a state rather than adding an object (an upsert, a role, a subscription's field set): repeating
   * it after an unknown outcome cannot make a second object, so it is retried as a PUT would be.
   */
  idempotent?: boolean;
  /**
   * For an answer that streams and may stay open (an MCP event stream resumed with GET): the body is read as it comes
   * and the request ends as soon as this says the text read so far holds what is wanted.
   */
  until?: (textSoFar: string) => boolean;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON when the answer is JSON, else undefined. */
  json: unknown;
  text: string;
}

/** A body read chunk by chunk until `enough` says the text holds what is wanted (then the rest is not waited for). */
async function readUntil(body: Dispatcher.ResponseData["body"], enough: (text: string) => boolean): Promise<string> {
  let text = "";
  const decoder = new TextDecoder();
  for await (const chunk of body) {
    text += decoder.decode(chunk as Buffer, { stream: true });
    if (enough(text)) {
      body.destroy();
      break;
    }
  }
  return text + decoder.decode();
}

const RETRYABLE_STATUS = [429, 500, 502, 503, 504];
/**
 * Answers that say the service turned the request away without acting on it: 429 (throttled) and 503 (unavailable:
 * RFC 9110 15.6.4, "currently unable to handle the request"). Safe to repeat even a create. 500, 502 and 504 may
 * come after the service acted, so a create that got one is settled by looking the object up (handler.ts).
 */
const REFUSED_BEFORE_ACTING = [429, 503];
/** Errors after which the request certainly never reached the service: safe to repeat even a create. */
const NEVER_SENT = ["ECONNREFUSED", "UND_ERR_CONNECT_TIMEOUT", "ENOTFOUND", "EHOSTUNREACH", "ENETUNREACH"];
/** Tries after a refused connection: 125–250 ms, then doubling, at least 3.9 s and at most 7.8 s in all. */
const REFUSED_TRIES = 5;
/**
 * Origins that have answered this process once. A refused connection to one of them is a restart, worth a few
 * seconds of tries; to a loopback origin that never answered, it is a service that is not running here, said at once.
 */
const answered = new Set<string>();
const isLoopback = (origin: string) => /^\[?(localhost|127(\.\d+){3}|::1)\]?$/i.test(new URL(origin).hostname);
/** Errors after which the service may or may not have acted: repeat only idempotent requests. */
const OUTCOME_UNKNOWN = ["ECONNRESET", "EPIPE", "UND_ERR_SOCKET", "UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT", "UND_ERR_CLOSED"];

/**
 * Whether and when to try again. A POST creates something, so it is repeated only when it was refused before the
 * service acted on it (429, 503, or no connection) unless the caller says it is idempotent; PUT, PATCH and DELETE
 * set a state and are safe to repeat.
 */
export function retryDelayMs(
  attempt: number,
  method: string,
  failure: { status?: number; code?: string; retryAfter?: string | string[]; notRunning?: boolean },
  maxRetries: number,
  random: () => number = Math.random,
  idempotentPost = false,
): number | undefined {
  if (attempt > maxRetries) return undefined;
  const idempotent = method !== "POST" || idempotentPost;
  if (failure.status !== undefined) {
    if (!RETRYABLE_STATUS.includes(failure.status)) return undefined;
    if (!REFUSED_BEFORE_ACTING.includes(failure.status) && !idempotent) return undefined;
  } else if (failure.code) {
    if (!NEVER_SENT.includes(failure.code) && !(idempotent && OUTCOME_UNKNOWN.includes(failure.code))) return undefined;
    // A name that does not resolve does not resolve a second later: said at once, with the fix.
    if (failure.code === "ENOTFOUND") return undefined;
    // Refused on this machine by a service that never answered: it is not running, and waiting will not start it.
    if (failure.code === "ECONNREFUSED" && failure.notRunning) return undefined;
    // A refused connection is a service that is not running, or restarting: a few seconds of tries cover a restart
    // (under 4 s at the least), not the whole allowance of retries.
    if (failure.code === "ECONNREFUSED" && attempt > REFUSED_TRIES) return undefined;
  } else {
    return undefined;
  }
  const header = Array.isArray(failure.retryAfter) ? failure.retryAfter[0] : failure.retryAfter;
  if (header !== undefined) {
    const seconds = Number(header);
    const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - Date.now();
    if (Number.isFinite(ms)) return Math.min(Math.max(ms, 0), 120_000) + Math.floor(random() * 250);
  }
  const ceiling = Math.min(250 * 2 ** (attempt - 1), 20_000);
  return Math.floor(ceiling / 2 + random() * (ceiling / 2)); // "equal jitter": never zero, never in lockstep
}

export class HttpClient {
  private dispatcher?: Promise<Dispatcher>;
  private readonly origin: string;
  private readonly basePath: string;

  constructor(private readonly opts: HttpClientOptions) {
    const url = new URL(opts.baseUrl);
    this.origin = url.origin;
    this.basePath = url.pathname.replace(/\/$/, "");
  }

  private async connect(): Promise<Dispatcher> {
    const { Agent, RetryAgent } = await import("undici");
    const opts = this.opts;
    const agent = new Agent({
      headersTimeout: opts.timeoutMs,
      bodyTimeout: opts.timeoutMs,
      connectTimeout: opts.timeoutMs,
    });
    const service = opts.service;
    const origin = this.origin;
    return new RetryAgent(agent, {
      maxRetries: opts.maxRetries,
      throwOnError: false, // the last answer reaches us with its body, so errors keep the service's code
      statusCodes: RETRYABLE_STATUS,
      methods: ["GET", "HEAD", "OPTIONS", "PUT", "PATCH", "DELETE", "POST"],
      retry(err, { state, opts: req }, done) {
        // `idempotent` travels in the dispatch options: undici passes options it does not know through untouched.
        const e = err as Error & { statusCode?: number; code?: string; headers?: Record<string, string | string[]> };
        const status = e.code === "UND_ERR_REQ_RETRY" || e.statusCode ? e.statusCode : undefined;
        const delay = retryDelayMs(
          state.counter,
          req.method,
          {
            status,
            code: status === undefined ? e.code : undefined,
            retryAfter: e.headers?.["retry-after"],
            notRunning: isLoopback(origin) && !answered.has(origin),
          },
          opts.maxRetries,
          Math.random,
          (req as { idempotent?: boolean }).idempotent === true,
        );
        if (delay === undefined) {
          done(err);
          return null;
        }
        const why = status ? `answered ${status}` : `failed (${e.code})`;
        log(
          `${service}: ${req.method} ${String(req.path).split("?")[0]} ${why}; retry ${state.counter} of ${opts.maxRetries} in ${(delay / 1000).toFixed(1)} s`,
        );
        return setTimeout(() => done(null), delay);
      },
    });
  }

  async request(method: Method, path: string, options: RequestOptions = {}): Promise<HttpResponse> {
    const query = new URLSearchParams();
    for (const [k, v] of Object.entries(options.query ?? {})) if (v !== undefined) query.set(k, String(v));
    const qs = query.size ? `?${query}` : "";
    const headers: Record<string, string> = { accept: "application/json", ...this.opts.headers, ...options.headers };
    let body: string | Buffer | undefined = options.body;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers["content-type"] = "application/json";
    } else if (options.contentType) {
      headers["content-type"] = options.contentType;
    }
    await this.opts.limiter?.acquire();
    let res: Dispatcher.ResponseData;
    try {
      this.dispatcher ??= this.connect();
      const dispatch = {
        origin: this.origin,
        path: this.basePath + path + qs,
        method,
        headers,
        body,
        idempotent: options.idempotent === true,
      };
      res = await (await this.dispatcher).request(dispatch);
    } catch (err) {
      throw this.transportError(err, method, path, options);
    }
    answered.add(this.origin);
    let text: string;
    try {
      text = options.until ? await readUntil(res.body, options.until) : await res.body.text();
    } catch (err) {
      // The answer began (a stream's headers) but its body stopped: as unknown an outcome as no answer at all.
      throw this.transportError(err, method, path, options);
    }
    // The service's own count: nothing left means every request of the run waits for the window it names.
    const left = parseRatelimit(res.headers.ratelimit);
    if (left?.remaining === 0 && res.statusCode < 400) this.opts.limiter?.pauseFor(left.resetSeconds * 1000);
    const contentType = String(res.headers["content-type"] ?? "");
    let json: unknown;
    if (contentType.includes("json") && text) {
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
    }
    const expect = options.expect ?? "json";
    const empty = !text.trim();
    const acceptable =
      res.statusCode >= 400 ||
      expect === "text" ||
      (empty && (method === "DELETE" || res.statusCode === 204)) ||
      json !== undefined ||
      (expect === "json-or-stream" && contentType.includes("text/event-stream") && !empty);
    if (!acceptable) {
      throw new ApiError({
        service: this.opts.service,
        status: res.statusCode,
        method,
        path,
        message: `the service answered ${res.statusCode} ${contentType || "with no content type"}${empty ? " and an empty body" : ""} where JSON was expected`,
        remedy: `Check ${this.urlKey}: it must point at the service's API${res.statusCode >= 300 && res.statusCode < 400 ? ` (it redirects to ${String(res.headers.location ?? "elsewhere")})` : ""}`,
      });
    }
    return { status: res.statusCode, headers: res.headers, json, text };
  }

  /** A request that got no (whole) answer: timed out, refused, dropped; for a write, whether it acted is unknown. */
  private transportError(err: unknown, method: Method, path: string, options: RequestOptions): TransportError {
    const e = err as Error & { code?: string; statusCode?: number };
    const code = e.code ?? "UNKNOWN";
    const timedOut = code.includes("TIMEOUT");
    const notRunning = code === "ECONNREFUSED" && isLoopback(this.origin) && !answered.has(this.origin);
    return new TransportError({
      service: this.opts.service,
      method,
      path,
      message: timedOut
        ? `no answer within ${this.opts.timeoutMs / 1000} s (${code})`
        : `${e.message || "connection failed"} (${code}) at ${this.origin}`,
      remedy: timedOut
        ? `The service may be slow: raise ops:${this.opts.service}TimeoutSeconds, then run the command again`
        : notRunning
          ? `Nothing listens at ${this.origin} on this machine: start the service (or \`npx pulumi-ops emulators\`), or set ${this.urlKey} to where it runs`
          : `Check that the service is reachable at ${this.origin} (${this.urlKey}), then run the command again`,
      ambiguous: method !== "GET" && !options.idempotent && !NEVER_SENT.includes(code),
    });
  }

  private get urlKey(): string {
    return this.opts.urlKey ?? `ops:${this.opts.service}BaseUrl`;
  }

  async close(): Promise<void> {
    await (await this.dispatcher)?.close();
  }
}

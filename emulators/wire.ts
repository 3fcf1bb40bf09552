/**
 * What the emulators speak: a request as a handler reads it (its body read whole, a multipart form's fields), a reply,
 * the request log's entries, the faults a test injects, and the small helpers every service's routes use.
 */
import { createHash } from "node:crypto";
import type * as http from "node:http";

export interface LogEntry {
  time: number;
  method: string;
  path: string;
  query: string;
  status: number; // 0 when the connection was dropped or the request hung
  fault?: FaultKind;
  /** What a request that carries many changes applied, a method each (a DNS batch: ["DELETE", "POST", ...]). */
  changes?: string[];
}

export type FaultKind = "status" | "status-after" | "hang" | "hang-after" | "slow" | "drop" | "drop-after";

export interface Fault {
  /** `body`: a pattern the raw request body must match (e.g. one JSON-RPC method on a single endpoint). */
  match?: { method?: string; path?: string; body?: string };
  /** How many matching requests this fault answers. */
  count: number;
  /** status: answer `status` (429 adds Retry-After); hang: never answer (until `ms`, then drop); slow: act and
   * answer normally after `ms`; drop: close the connection before acting; drop-after: act on the request, then close
   * the connection without an answer; status-after: act on the request, then answer `status` (500 by default) as a
   * service that failed after doing the work would; hang-after: act on the request, then never answer (the connection
   * is closed after `ms`), as a service that did the work and then stalled (the client times out). */
  kind: FaultKind;
  status?: number;
  retryAfter?: number;
  ms?: number;
}

export interface Request {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  params: Record<string, string>;
  rawBody: string;
  /** The body's bytes (an upload that is not text). */
  bytes: Buffer;
  /** Fields of a multipart/form-data body; a file field holds `{name, type, size}` as JSON. */
  form?: Record<string, string>;
  /** This request's log entry, for a handler to note what it applied. */
  entry?: LogEntry;
}

export interface Reply {
  status: number;
  body: unknown; // a string is sent as is, anything else as JSON
  headers?: Record<string, string>;
  /** A streamed answer (e.g. newline-delimited JSON): each chunk is written as soon as it is produced. */
  stream?: AsyncIterable<string>;
}

export type Handler = (req: Request) => Reply | Promise<Reply>;

export class HttpError extends Error {
  constructor(readonly reply: Reply) {
    super(`HTTP ${reply.status}`);
  }
}

/** An incoming request read whole: its body, and a multipart form's fields (a file field as `{name, type, size}`). */
export async function readRequest(req: http.IncomingMessage, url: URL): Promise<Request> {
  const method = req.method ?? "GET";
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const request: Request = {
    method,
    path: url.pathname,
    query: url.searchParams,
    headers: req.headers,
    params: {},
    rawBody: Buffer.concat(chunks).toString("utf8"),
    bytes: Buffer.concat(chunks),
  };
  const contentType = String(req.headers["content-type"] ?? "");
  if (contentType.startsWith("multipart/form-data")) {
    try {
      const form = await new Response(Buffer.concat(chunks), { headers: { "content-type": contentType } }).formData();
      request.form = {};
      for (const [k, v] of form) {
        request.form[k] = typeof v === "string" ? v : JSON.stringify({ name: v.name, type: v.type, size: v.size });
      }
    } catch {
      request.form = undefined;
    }
  }
  return request;
}

/** `x` with every object's keys in reverse order (the reverseKeys hook). */
export function reversed(x: unknown): unknown {
  if (Array.isArray(x)) return x.map(reversed);
  if (!x || typeof x !== "object") return x;
  return Object.fromEntries(
    Object.entries(x as Record<string, unknown>)
      .reverse()
      .map(([k, v]) => [k, reversed(v)]),
  );
}

/** A deterministic 32-hex id: the same sequence after every reset, so tests and the demo are reproducible. */
export function idSequence(seed: string): () => string {
  let n = 0;
  return () => createHash("md5").update(`${seed}:${++n}`).digest("hex");
}

export function parseJson(req: Request): any {
  if (!req.rawBody) return {};
  try {
    return JSON.parse(req.rawBody);
  } catch {
    return undefined;
  }
}

/**
 * A small MCP client for the computer-control endpoint (Streamable HTTP). The newest revision first: 2026-07-28's
 * `server/discover`, and, where the server speaks it, every request self-contained (its version, method and client
 * in headers and `_meta`, no session). Else the 2025 handshake: initialize, take the `Mcp-Session-Id` if the server
 * gives one (a stateless server gives none), call tools, read the answer from JSON or the event stream; the revision
 * is the one the server answers (2025-11-25 asked for), sent back as `MCP-Protocol-Version` from 2025-06-18 on. A stream the server closes before the answer (2025-11-25's
 * priming event and polling) is resumed with `GET` and `Last-Event-ID`. A session the server forgot (404) is made
 * again once and the call sent again (a 404 for an unknown session runs nothing). One session serves the calls of a
 * run; it is closed (DELETE) once no call has come for a moment, and on SIGINT/SIGTERM. A 401 or 403 names where to
 * get a token and the scope to ask for (oauth.ts).
 */
import { CONTROL_SETTINGS, read, readNumber, readUrl, clientPerSettings } from "../config";
import { HttpClient } from "../http/client";
import { ApiError, ServerError, ValidationError } from "../http/errors";
import { authRefusal } from "./oauth";
import { holdsAnswer, parseSse } from "./sse";
import { headerValue, MODERN, MODERN_META, PROTOCOL, PROTOCOLS, rpcAnswer, type Session } from "./protocol";
import { hostPermissionError, textOf, type ToolResult } from "./tool-result";

const IDLE_CLOSE_MS = 1500;
/** The longest wait between resumptions of a stream closed before its answer (the server's `retry`, capped). */
const MAX_RETRY_WAIT_MS = 5000;

export class ControlClient {
  private session?: Promise<Session>;
  private nextId = 1;
  private inflight = 0;
  private idle?: NodeJS.Timeout;

  constructor(
    private readonly http: HttpClient,
    readonly url: string,
  ) {
    const closeNow = () => void this.close().finally(() => process.exit(130));
    process.once("SIGINT", closeNow);
    process.once("SIGTERM", closeNow);
  }

  static fromConfig(): ControlClient {
    const url = readUrl(CONTROL_SETTINGS.url).replace(/\/mcp$/, "");
    const token = read(CONTROL_SETTINGS.token);
    const http = new HttpClient({
      service: "control",
      baseUrl: url,
      headers: token ? { authorization: `Bearer ${token}` } : {},
      timeoutMs: readNumber(CONTROL_SETTINGS.timeoutSeconds) * 1000,
      maxRetries: 6,
      urlKey: "ops:controlUrl",
    });
    return new ControlClient(http, url);
  }

  private headers(session?: Session, body?: { method?: string; params?: { name?: unknown } }): Record<string, string> {
    const modern =
      session?.modern && body?.method
        ? {
            "mcp-method": body.method,
            ...(body.method === "tools/call" && typeof body.params?.name === "string" ? { "mcp-name": headerValue(body.params.name) } : {}),
          }
        : {};
    return {
      ...(session?.sid ? { "mcp-session-id": session.sid } : {}),
      ...(session && session.protocol >= "2025-06-18" ? { "mcp-protocol-version": session.protocol } : {}),
      ...modern,
    };
  }

  /** A request's params: with the revision, capabilities and client in `_meta` under 2026-07-28. */
  private params(session: Session, params: Record<string, unknown> = {}): Record<string, unknown> {
    return session.modern ? { ...params, _meta: MODERN_META } : params;
  }

  /** `idempotent`: a message that acts on nothing on the host (initialize, a notification, a read-only tool). */
  private async post(body: object, session?: Session, idempotent = false) {
    const id = (body as { id?: unknown }).id;
    const res = await this.http.request("POST", "/mcp", {
      body: JSON.stringify(body),
      contentType: "application/json",
      headers: { accept: "application/json, text/event-stream", ...this.headers(session, body as { method?: string }) },
      idempotent,
      expect: id === undefined ? "text" : "json-or-stream", // a notification gets 202, no body
      // A stream may stay open after the answer (notifications to come): reading stops at the answer.
      ...(typeof id === "number" ? { until: (t: string) => holdsAnswer(t, id) } : {}),
    });
    await this.refuseAuth(res);
    return res;
  }

  private async refuseAuth(res: { status: number; headers: Record<string, string | string[] | undefined> }): Promise<void> {
    if (res.status === 401 || res.status === 403)
      throw await authRefusal(res.status, res.headers["www-authenticate"], Boolean(read(CONTROL_SETTINGS.token)), 10_000);
  }

  /**
   * The answer to request `id`: from the POST's JSON or event stream, or, when the server closed the stream before
   * answering (after a priming event with an id), from the stream resumed with `GET` and `Last-Event-ID`, waiting
   * the `retry` the server asked for between.
   */
  private async answerOf(
    res: Awaited<ReturnType<ControlClient["post"]>>,
    id: number,
    session: Session | undefined,
    what: string,
  ): Promise<any> {
    const contentType = String(res.headers["content-type"] ?? "");
    if (!contentType.includes("text/event-stream") || res.status >= 400) return rpcAnswer(res.text, contentType, id);
    let stream = parseSse(res.text);
    let answer = rpcAnswer(res.text, contentType, id);
    let lastId = stream.lastId;
    // A server that polls (closes each stream early, 2025-11-25) is followed for as long as a request may take.
    const deadline = Date.now() + readNumber(CONTROL_SETTINGS.timeoutSeconds) * 1000;
    while (!answer && lastId !== undefined && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, Math.min(stream.retryMs ?? 1000, MAX_RETRY_WAIT_MS)));
      const again = await this.http.request("GET", "/mcp", {
        headers: { accept: "text/event-stream", "last-event-id": lastId, ...this.headers(session) },
        expect: "text",
        until: (t) => holdsAnswer(t, id),
      });
      await this.refuseAuth(again);
      if (again.status >= 400)
        throw new ServerError({
          service: "control",
          status: again.status,
          message: `${what}: the endpoint closed the answer's stream and refused to resume it (GET with Last-Event-ID answered ${again.status}); whether it ran is unknown`,
          remedy: "Check on the host whether it ran before running the command again",
        });
      stream = parseSse(again.text);
      lastId = stream.lastId ?? lastId;
      answer = rpcAnswer(again.text, "text/event-stream", id);
    }
    if (!answer)
      throw new ServerError({
        service: "control",
        message: `${what}: the endpoint's stream ended without an answer${lastId === undefined ? " and without an event id to resume from" : ` within ops:controlTimeoutSeconds of resuming it`}; whether it ran is unknown`,
        remedy: "Check on the host whether it ran before running the command again (or raise ops:controlTimeoutSeconds)",
      });
    return answer;
  }

  /** A session, or the failure to make one; a failure is not kept, so the next call tries again. */
  private openOnce(): Promise<Session> {
    const opening = this.open();
    opening.catch(() => {
      if (this.session === opening) this.session = undefined;
    });
    return opening;
  }

  /**
   * The newest revision first (the spec's way): `server/discover` at 2026-07-28. A server that answers it is spoken to
   * that way; one that refuses it otherwise (no session, method not found, a 2025 server's 400) gets the 2025
   * handshake; one that speaks only revisions newer than this client's is refused with the versions it named.
   */
  private async discover(): Promise<Session | undefined> {
    const session: Session = { protocol: MODERN, modern: true };
    const id = this.nextId++;
    const res = await this.post({ jsonrpc: "2.0", id, method: "server/discover", params: this.params(session) }, session, true);
    let answer: any;
    try {
      answer = await this.answerOf(res, id, undefined, "server/discover");
    } catch {
      return undefined;
    }
    if ((answer?.result?.supportedVersions as string[] | undefined)?.includes(MODERN)) return session;
    const supported = answer?.error?.code === -32022 ? ((answer.error.data?.supported as string[] | undefined) ?? []) : [];
    if (supported.length && supported.every((v) => v > MODERN)) {
      throw new ApiError({
        service: "control",
        code: -32022,
        message: `the endpoint speaks only MCP ${supported.join(", ")}, newer than this client's (${PROTOCOLS.join(", ")})`,
        remedy: "Use a newer pulumi-ops, or an endpoint that also speaks an older revision",
      });
    }
    return undefined;
  }

  private async open(): Promise<Session> {
    const wanted = read(CONTROL_SETTINGS.protocol) ?? "auto";
    if (wanted !== "auto" && wanted !== "2025")
      throw new ValidationError({
        service: "control",
        message: `ops:controlProtocol is "${wanted}"`,
        remedy: "Set it to auto (the newest the endpoint speaks) or 2025 (the 2025 handshake only)",
      });
    const modern = wanted === "auto" ? await this.discover() : undefined;
    if (modern) return modern;
    const id = this.nextId++;
    const res = await this.post(
      {
        jsonrpc: "2.0",
        id,
        method: "initialize",
        params: { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: "pulumi-ops", version: "1" } },
      },
      undefined,
      true,
    );
    const sid = res.headers["mcp-session-id"];
    let answer: any;
    try {
      answer = await this.answerOf(res, id, sid ? { sid: String(sid), protocol: PROTOCOL } : undefined, "initialize");
    } catch {
      answer = undefined;
    }
    if (res.status >= 400 || !answer?.result || answer?.error) {
      throw new ApiError({
        service: "control",
        status: res.status,
        message: `initialize failed: ${answer?.error?.message ?? res.text.slice(0, 200)}`,
        remedy: `Check that ${this.url}/mcp is an MCP endpoint (Streamable HTTP)`,
      });
    }
    const protocol = String(answer.result.protocolVersion ?? "");
    if (!PROTOCOLS.includes(protocol)) {
      throw new ApiError({
        service: "control",
        message: `the endpoint speaks MCP ${protocol || "(no version)"}, which this client does not`,
        remedy: `Use an endpoint that speaks one of ${PROTOCOLS.join(", ")}`,
      });
    }
    const session: Session = { sid: sid ? String(sid) : undefined, protocol };
    await this.post({ jsonrpc: "2.0", method: "notifications/initialized" }, session, true);
    return session;
  }

  async callTool(name: string, args: Record<string, unknown>): Promise<ToolResult> {
    clearTimeout(this.idle);
    this.inflight += 1;
    try {
      for (let attempt = 1; ; attempt++) {
        this.session ??= this.openOnce();
        const session = await this.session;
        const id = this.nextId++;
        const res = await this.post(
          { jsonrpc: "2.0", id, method: "tools/call", params: this.params(session, { name, arguments: args }) },
          session,
        );
        if (res.status === 404 && session.sid) {
          // The endpoint forgot the session (restarted, expired): the call ran nothing; a new session takes it once.
          this.session = undefined;
          if (attempt === 1) continue;
          throw new ApiError({
            service: "control",
            status: 404,
            message: "the endpoint forgot the session again",
            remedy: "Run the command again",
          });
        }
        const answer = await this.answerOf(res, id, session, name);
        // A 5xx may come after the tool ran: the outcome is unknown, which callers must not take for "not run".
        if (res.status >= 500)
          throw new ServerError({
            service: "control",
            status: res.status,
            code: answer?.error?.code,
            message: `${name}: ${answer?.error?.message ?? "the endpoint failed"}`,
          });
        if (answer?.error) throw new ApiError({ service: "control", code: answer.error.code, message: `${name}: ${answer.error.message}` });
        const result = answer.result as ToolResult & { resultType?: string };
        // 2026-07-28: a tool may ask the client for input before it finishes; a program has no one to ask.
        if (result.resultType === "input_required")
          throw new ApiError({
            service: "control",
            message: `${name}: the tool asks for input before it runs (input_required), which a pulumi-ops run cannot give`,
            remedy: "Call a tool that runs without asking, or give what it asks for in its arguments",
          });
        const refused = result.isError ? hostPermissionError(textOf(result)) : undefined;
        if (refused) throw refused;
        return result;
      }
    } finally {
      this.inflight -= 1;
      if (!this.inflight) this.idle = setTimeout(() => void this.close(), IDLE_CLOSE_MS);
    }
  }

  /** A preview's one read (preflight.ts): a session initialized, no tool called; closed once the run goes quiet. */
  async ready(): Promise<void> {
    clearTimeout(this.idle);
    this.session ??= this.openOnce();
    await this.session;
    if (!this.inflight) this.idle = setTimeout(() => void this.close(), IDLE_CLOSE_MS);
  }

  async listTools(): Promise<{ name: string; description?: string }[]> {
    this.session ??= this.openOnce();
    const session = await this.session;
    const id = this.nextId++;
    const res = await this.post({ jsonrpc: "2.0", id, method: "tools/list", params: this.params(session) }, session, true);
    return (await this.answerOf(res, id, session, "tools/list")).result.tools;
  }

  async close(): Promise<void> {
    clearTimeout(this.idle);
    const s = this.session;
    this.session = undefined;
    if (!s) return;
    const sid = (await s.catch(() => undefined))?.sid;
    if (sid) await this.http.request("DELETE", "/mcp", { headers: { "mcp-session-id": sid }, expect: "text" }).catch(() => undefined);
  }
}

export const control: () => ControlClient = clientPerSettings(Object.values(CONTROL_SETTINGS), () => ControlClient.fromConfig());

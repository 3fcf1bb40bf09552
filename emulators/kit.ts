/**
 * What every emulator shares: a loopback HTTP server, routing, a request log, fault injection and a test clock.
 * Test hooks live under /__emulator/ so they never collide with a service path:
 *   GET  /__emulator/log            the request log ({method, path, status}); DELETE clears it
 *   POST /__emulator/reset          back to the seeded state (and clears log and faults)
 *   POST /__emulator/faults         {match: {method?, path?}, count, kind, status?, retryAfter?, ms?}
 *   POST /__emulator/clock          {advanceSeconds}
 *   POST /__emulator/reverse-keys   {on: true|false}: JSON answers with every object's keys in reverse order
 *   POST /__emulator/latency        {profile: "realistic" | "off" | "MIN-MAX" | "lognormal:MIN-MAX"} (latency.ts)
 */
import * as http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { drawLatency, type LatencyProfile, seededRandom } from "./latency";
import { answerHook } from "./hooks";
import { HttpError, readRequest, reversed, type Fault, type Handler, type LogEntry, type Reply, type Request } from "./wire";

export * from "./wire";

interface Route {
  method: string;
  pattern: RegExp;
  keys: string[];
  handler: Handler;
}

export abstract class Emulator {
  private server?: http.Server;
  private routes: Route[] = [];
  private faults: Fault[] = [];
  private sockets = new Set<Socket>();
  private listeners: ((e: LogEntry) => void)[] = [];
  readonly log: LogEntry[] = [];
  /** Requests being answered now (a slowed one until it has acted): a test waits for none before it counts objects. */
  inFlight = 0;
  /** Set to [] by a test to keep every request whole (URL, headers, body): where a credential must never appear. */
  captured?: { url: string; headers: http.IncomingHttpHeaders; body: string }[];
  /** Seconds added to the wall clock by the clock hook. */
  clockOffsetMs = 0;
  /**
   * A test hook: every JSON answer with its objects' keys in reverse order, as a service that lists fields in its own
   * order answers (a takeover or a drift check must compare objects by key, never by our serialisation).
   */
  reverseKeys = false;
  private latencyProfile?: LatencyProfile;
  private random = seededRandom(1);

  constructor(
    readonly name: string,
    private port = 0,
    private host = "127.0.0.1",
  ) {}

  /** Seeded state; called at construction by subclasses and on reset. */
  abstract reset(): void;

  /** Answers 404 for a path no route matches; services differ in how. */
  protected abstract notFound(req: Request): Reply;

  now(): number {
    return Date.now() + this.clockOffsetMs;
  }

  /** Every request from now on waits a delay drawn from `profile` before it is acted on; undefined: none. */
  set latency(profile: LatencyProfile | undefined) {
    this.latencyProfile = profile;
    this.random = seededRandom(profile?.seed ?? Date.now());
  }
  get latency(): LatencyProfile | undefined {
    return this.latencyProfile;
  }

  protected route(method: string, path: string, handler: Handler): void {
    const keys: string[] = [];
    const source = path.replace(/:([A-Za-z_]+)/g, (_, k: string) => {
      keys.push(k);
      return "([^/]+)";
    });
    this.routes.push({ method, pattern: new RegExp(`^${source}$`), keys, handler });
  }

  /**
   * Calls `f` with each request as it arrives, before it is answered, so a test can act mid-run (revoke a token,
   * restart the emulator, interrupt the CLI). Returns the function that stops the calls.
   */
  onRequest(f: (e: LogEntry) => void): () => void {
    this.listeners.push(f);
    return () => (this.listeners = this.listeners.filter((x) => x !== f));
  }

  /** Stops answering for `downMs` (connections refused), then listens again on the same port with its state kept. */
  async restart(downMs: number): Promise<void> {
    await this.stop();
    await new Promise((r) => setTimeout(r, downMs));
    await this.start();
  }

  inject(fault: Fault): void {
    this.faults.push({ ...fault });
  }

  clearFaults(): void {
    this.faults = [];
  }

  /** Requests of the log that match, e.g. count("POST", /dns_records$/). */
  count(method?: string, path?: RegExp): number {
    return this.log.filter((e) => (!method || e.method === method) && (!path || path.test(e.path))).length;
  }

  get url(): string {
    const a = this.server?.address() as AddressInfo | undefined;
    if (!a) throw new Error(`${this.name} emulator is not started`);
    return `http://${this.host}:${a.port}`;
  }

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => {
      this.inFlight++;
      void this.handle(req, res).finally(() => this.inFlight--);
    });
    this.server.on("connection", (s) => {
      this.sockets.add(s);
      s.on("close", () => this.sockets.delete(s));
    });
    await new Promise<void>((resolve, reject) => {
      this.server!.once("error", reject);
      this.server!.listen(this.port, this.host, resolve);
    });
    this.port = (this.server.address() as AddressInfo).port; // a restart comes back on the same port
    return this;
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server = undefined;
  }

  private takeFault(method: string, path: string, body: string): Fault | undefined {
    const f = this.faults.find(
      (x) =>
        x.count > 0 &&
        (!x.match?.method || x.match.method === method) &&
        (!x.match?.path || new RegExp(x.match.path).test(path)) &&
        (!x.match?.body || new RegExp(x.match.body).test(body)),
    );
    if (f) f.count -= 1;
    this.faults = this.faults.filter((x) => x.count > 0);
    return f;
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://localhost");
    const method = req.method ?? "GET";
    const request = await readRequest(req, url);
    // DNS-rebinding guard: a browser tricked into calling us would send a foreign Host.
    const host = String(req.headers.host ?? "")
      .replace(/:\d+$/, "")
      .replace(/^\[|\]$/g, "");
    if (!["127.0.0.1", "localhost", "::1"].includes(host)) {
      return this.send(res, { status: 403, body: { error: `host ${host} refused: this emulator answers loopback only` } });
    }
    if (url.pathname.startsWith("/__emulator/"))
      return this.send(
        res,
        answerHook(
          this,
          request,
          () => this.faults,
          (op, r, b) => this.testHook(op, r, b),
        ),
      );

    const entry: LogEntry = { time: this.now(), method, path: url.pathname, query: url.search, status: 0 };
    this.captured?.push({ url: req.url ?? "", headers: req.headers, body: request.rawBody });
    this.log.push(entry);
    request.entry = entry;
    for (const f of [...this.listeners]) f(entry);
    if (this.latencyProfile) await new Promise((r) => setTimeout(r, drawLatency(this.latencyProfile!, this.random)));
    const fault = this.takeFault(method, url.pathname, request.rawBody);
    if (fault) entry.fault = fault.kind;
    if (fault?.kind === "drop") return void req.socket.destroy();
    if (fault?.kind === "hang") {
      if (fault.ms) setTimeout(() => req.socket.destroy(), fault.ms);
      return;
    }
    if (fault?.kind === "slow") await new Promise((r) => setTimeout(r, fault.ms ?? 0));
    if (fault?.kind === "status") {
      const status = fault.status ?? 503;
      entry.status = status;
      return this.send(res, this.faultReply(status, fault.retryAfter));
    }
    const raw = this.passthrough(request);
    const after = fault?.kind === "drop-after" || fault?.kind === "status-after" || fault?.kind === "hang-after";
    if (raw && after) {
      // The raw handler acts and answers into a response that is held back; then the answer is lost or replaced.
      const held = { writeHead: res.writeHead, write: res.write, end: res.end };
      const done = new Promise<void>((resolve) => {
        res.writeHead = (() => res) as never;
        res.write = (() => true) as never;
        res.end = ((..._a: unknown[]) => (resolve(), res)) as never;
      });
      await raw(req, res, request).catch(() => 0);
      await done;
      Object.assign(res, held);
      return this.answerAfterActing(fault!, entry, req, res);
    }
    if (raw) {
      try {
        entry.status = await raw(req, res, request);
      } catch (e) {
        entry.status = 500;
        if (!res.headersSent) this.send(res, { status: 500, body: { error: String(e) } });
      }
      return;
    }
    let reply: Reply;
    try {
      reply = await this.dispatch(request);
    } catch (e) {
      reply = e instanceof HttpError ? e.reply : { status: 500, body: { error: String(e) } };
    }
    entry.status = reply.status;
    if (after) return this.answerAfterActing(fault!, entry, req, res);
    this.send(res, reply);
  }

  /** The answer of a request the emulator acted on, lost (drop-after, hang-after) or replaced (status-after). */
  private answerAfterActing(fault: Fault, entry: LogEntry, req: http.IncomingMessage, res: http.ServerResponse): void {
    if (fault.kind === "status-after") {
      entry.status = fault.status ?? 500;
      return this.send(res, this.faultReply(entry.status, fault.retryAfter));
    }
    entry.status = 0;
    if (fault.kind === "hang-after") setTimeout(() => req.socket.destroy(), fault.ms ?? 60_000).unref();
    else req.socket.destroy();
  }

  /**
   * A handler that answers on the raw request and response (for protocols a reply object cannot express, such as
   * event streams); it returns the status it answered with, for the log.
   */
  protected passthrough(
    _req: Request,
  ): ((req: http.IncomingMessage, res: http.ServerResponse, parsed: Request) => Promise<number>) | undefined {
    return undefined;
  }

  /** The answer for an injected status fault, in the service's own error format. */
  protected abstract faultReply(status: number, retryAfter?: number): Reply;

  /** Runs before every routed request (authentication, rate limiting); throw HttpError to refuse. */
  protected before(_req: Request): Record<string, string> | void {}

  protected async dispatch(req: Request): Promise<Reply> {
    const extra = this.before(req) ?? {};
    for (const r of this.routes) {
      const m = r.pattern.exec(req.path);
      if (!m) continue;
      if (r.method !== req.method) continue;
      r.keys.forEach((k, i) => (req.params[k] = decodeURIComponent(m[i + 1])));
      const reply = await r.handler(req);
      return { ...reply, headers: { ...extra, ...reply.headers } };
    }
    const pathKnown = this.routes.some((r) => r.pattern.test(req.path));
    return pathKnown ? { status: 405, body: { error: "method not allowed" } } : this.notFound(req);
  }

  /** Service-specific test hooks (e.g. changing an object out of band without counting as an API call). */
  protected testHook(_op: string, _req: Request, _body: any): Reply | undefined {
    return undefined;
  }

  private send(res: http.ServerResponse, reply: Reply): void {
    if (reply.stream) {
      res.writeHead(reply.status, { "content-type": "application/x-ndjson", ...reply.headers });
      void (async () => {
        try {
          for await (const chunk of reply.stream!) res.write(chunk);
        } finally {
          res.end();
        }
      })();
      return;
    }
    const isText = typeof reply.body === "string";
    const payload = isText ? (reply.body as string) : JSON.stringify(this.reverseKeys ? reversed(reply.body) : reply.body);
    res.writeHead(reply.status, {
      "content-type": isText ? "text/plain; charset=utf-8" : "application/json",
      ...reply.headers,
    });
    res.end(payload);
  }
}

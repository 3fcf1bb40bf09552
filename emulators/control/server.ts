/**
 * An emulator of the Model Context Protocol (modelcontextprotocol.io): the remote computer-control endpoint, an MCP server on `/mcp` built with the
 * official `@modelcontextprotocol/sdk` (Streamable HTTP, protocol 2025-03-26). Its tools act on a simulated host
 * and screen; nothing ever runs on the real machine.
 */
import { randomUUID } from "node:crypto";
import type * as http from "node:http";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { InMemoryEventStore } from "@modelcontextprotocol/sdk/examples/shared/inMemoryEventStore.js";
import { z } from "zod";
import { Emulator, type Reply, type Request } from "../kit";
import { SimulatedHost } from "./host";
import { DENSITY, POINTS, SimulatedScreen, type VncTarget } from "./screen";

export interface ControlEmulatorOptions {
  port?: number;
  /** When set, requests need `Authorization: Bearer <token>`. */
  token?: string;
  /** Remote-desktop targets the screen can connect to. */
  targets?: Record<string, VncTarget>;
  /** The login dialog's delay after `open vnc://`; by default 5 to 8 seconds, as the remote-desktop procedure (docs/resources.md, RemoteDesktopSession) says (a test hook). */
  dialogDelayMs?: number;
  /**
   * A stateless server, as the official SDK's stateless example and bridges in their default mode are: no
   * `Mcp-Session-Id`, a new server for every request.
   */
  stateless?: boolean;
  /**
   * How run_command reports: `structured` (text, `structuredContent` with the exit code, `isError` on a non-zero exit)
   * or `text` (stdout and stderr as text only, `isError` never set: the exit status is only in what the command printed).
   */
  resultStyle?: "structured" | "text";
  /** The tools offered (all unless given): a server without `run_command` or `applescript` is refused at preview. */
  tools?: string[];
  /**
   * How screenshots come: `png` (8-bit RGB, the default), `palette` (an indexed PNG) or `jpeg`; at `screenshotDensity`
   * pixels a point (2 by default; 1 for a server that scales its screenshots to points).
   */
  screenshotFormat?: "png" | "palette" | "jpeg";
  screenshotDensity?: number;
  /** A macOS privacy permission the helper lacks: its tools then fail as the host refuses them (errors -1743, -1719). */
  missingPermission?: "automation" | "accessibility" | "screen-recording";
  /**
   * A resumable server (the official SDK with an event store, revision 2025-11-25): every answer's stream opens with a
   * priming event, and run_command closes it before answering, as a server polling a long command does; the client
   * must resume with `GET` and `Last-Event-ID`.
   */
  resumable?: boolean;
  /**
   * Behind OAuth (RFC 9728): a request without `token` gets 401 with `WWW-Authenticate: Bearer resource_metadata=…,
   * scope=…`, and `/.well-known/oauth-protected-resource` names the authorization server and the scopes.
   */
  oauth?: { authorizationServer: string; scope: string };
}

export const VNC_TARGETS: Record<string, VncTarget> = {
  "studio.local": { username: "ops", password: "studio-password-1", asksType: true },
  "kiosk.local": { username: "ops", password: "kiosk-password-1" },
  "backroom.local": { username: "ops", password: "backroom-password-1", otherSpace: true },
};

const text = (t: string) => ({ type: "text" as const, text: t });

export class ControlEmulator extends Emulator {
  machine = new SimulatedHost();
  screen: SimulatedScreen;
  sessions = new Map<string, StreamableHTTPServerTransport>();
  /** Every tool call, for tests that check what ran and in which order. */
  calls: { session: string; tool: string; args: Record<string, unknown> }[] = [];
  initialized = 0;
  closed = 0;

  constructor(readonly options: ControlEmulatorOptions = {}) {
    super("control", options.port ?? 0);
    this.screen = new SimulatedScreen(options.targets ?? VNC_TARGETS, () => this.now(), options.dialogDelayMs);
    this.reset();
    // RFC 9728's protected resource metadata, where the 401's challenge points (behind OAuth only).
    const oauth = options.oauth;
    if (oauth) {
      const metadata = () => ({
        status: 200,
        body: {
          resource: `${this.url}/mcp`,
          authorization_servers: [oauth.authorizationServer],
          scopes_supported: oauth.scope.split(" "),
          bearer_methods_supported: ["header"],
        },
      });
      this.route("GET", "/.well-known/oauth-protected-resource/mcp", metadata);
      this.route("GET", "/.well-known/oauth-protected-resource", metadata);
    }
  }

  reset(): void {
    this.machine = new SimulatedHost();
    this.screen = new SimulatedScreen(this.options.targets ?? VNC_TARGETS, () => this.now(), this.options.dialogDelayMs);
    this.machine.onOpen = (url) => this.screen.open(url);
    this.calls = [];
    this.initialized = 0;
    this.closed = 0;
  }

  protected notFound(): Reply {
    return { status: 404, body: { error: "not found" } };
  }

  protected faultReply(status: number, retryAfter?: number): Reply {
    return {
      status,
      body: { jsonrpc: "2.0", error: { code: -32603, message: status === 429 ? "Too many requests" : "Internal error" }, id: null },
      headers: retryAfter ? { "retry-after": String(retryAfter) } : {},
    };
  }

  private mcpServer(sessionRef: () => string): McpServer {
    const server = new McpServer({ name: "computer-control-emulator", version: "1.0.0" });
    // A server that offers fewer tools (options.tools): the others are not registered.
    const register = server.registerTool.bind(server);
    server.registerTool = ((name: string, ...rest: unknown[]) => {
      const tool = (register as (...a: unknown[]) => { remove(): void })(name, ...rest);
      if (this.options.tools && !this.options.tools.includes(name)) tool.remove();
      return tool;
    }) as typeof server.registerTool;
    const record = (tool: string, args: Record<string, unknown>) => this.calls.push({ session: sessionRef(), tool, args });
    server.registerTool(
      "run_command",
      { description: "Run a shell command on the host", inputSchema: { command: z.string() } },
      async ({ command }, extra) => {
        record("run_command", { command });
        if (this.options.resumable && extra.closeSSEStream) {
          // The answer's stream is closed now; the answer is kept in the event store for the client's resumption.
          extra.closeSSEStream();
          await new Promise((r) => setTimeout(r, 30));
        }
        const r = await this.machine.run(command);
        const printed = r.stdout + (r.stderr ? `${r.stdout ? "\n" : ""}${r.stderr}` : "");
        if (this.options.resultStyle === "text") return { content: [text(printed)] };
        return {
          content: [text(printed)],
          structuredContent: { stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode },
          isError: r.exitCode !== 0,
        };
      },
    );
    server.registerTool(
      "applescript",
      { description: "Run a GUI script on the host", inputSchema: { script: z.string() } },
      async ({ script }) => {
        record("applescript", { script: "(script)" }); // a script may carry a password: never kept
        try {
          return { content: [text(this.applescript(script))] };
        } catch (e) {
          return { content: [text((e as Error).message)], isError: true };
        }
      },
    );
    server.registerTool("screenshot", { description: "Take a screenshot", inputSchema: {} }, async () => {
      record("screenshot", {});
      if (this.options.missingPermission === "screen-recording")
        return { content: [text("could not create image from display")], isError: true };
      const format = this.options.screenshotFormat ?? "png";
      const image = this.screen.screenshot(format, this.options.screenshotDensity ?? DENSITY);
      return {
        content: [{ type: "image" as const, data: image.toString("base64"), mimeType: format === "jpeg" ? "image/jpeg" : "image/png" }],
      };
    });
    server.registerTool(
      "click",
      { description: "Click at a point (points, not pixels)", inputSchema: { x: z.number(), y: z.number() } },
      async ({ x, y }) => {
        record("click", { x, y });
        return { content: [text(`clicked at ${x},${y}: ${this.screen.click(x, y)}`)] };
      },
    );
    server.registerTool("type_text", { description: "Type text", inputSchema: { text: z.string() } }, async ({ text: t }) => {
      record("type_text", { text: "(text)" });
      this.screen.type(t);
      return { content: [text("typed")] };
    });
    server.registerTool("key_press", { description: "Press a key", inputSchema: { keys: z.string() } }, async ({ keys }) => {
      record("key_press", { keys });
      this.screen.key(keys);
      return { content: [text(`pressed ${keys}`)] };
    });
    return server;
  }

  /** The few GUI scripts the simulated screen-sharing app understands. */
  private applescript(script: string): string {
    const s = script.replace(/\s+/g, " ");
    const missing = this.options.missingPermission;
    if (missing === "automation" && /System Events/.test(s))
      throw new Error("execution error: Not authorized to send Apple events to System Events. (-1743)");
    if (missing === "accessibility" && /System Events/.test(s))
      throw new Error("execution error: System Events got an error: osascript is not allowed assistive access. (-1719)");
    // The main display in points, as Finder's desktop window spans it.
    if (/get bounds of window of desktop/.test(s)) return `0, 0, ${POINTS.width}, ${POINTS.height}`;
    if (/get name of every window of process "Screen Sharing"/.test(s)) return this.screen.windows().join(", ");
    const field = /set value of text field (\d) of window 1 to "((?:[^"\\]|\\.)*)"/.exec(s);
    if (field) {
      this.screen.setField(Number(field[1]), field[2].replace(/\\(.)/g, "$1"));
      return "";
    }
    const button = /click button "([^"]+)" of window 1/.exec(s);
    if (button) return this.screen.press(button[1]);
    if (/tell application "Screen Sharing" to quit/.test(s)) {
      this.screen.quit();
      return "";
    }
    if (/return "?ok"?/.test(s)) return "ok";
    throw new Error(`execution error: the script is not understood by this host: ${s.slice(0, 60)} (-2741)`);
  }

  protected passthrough(req: Request) {
    if (req.path !== "/mcp") return undefined;
    return async (raw: http.IncomingMessage, res: http.ServerResponse, parsed: Request): Promise<number> => {
      const reply = (status: number, code: number, message: string) => {
        res
          .writeHead(status, { "content-type": "application/json" })
          .end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
        return status;
      };
      if (this.options.token && raw.headers.authorization !== `Bearer ${this.options.token}`) {
        const oauth = this.options.oauth;
        if (oauth) {
          const error = raw.headers.authorization ? ', error="invalid_token"' : "";
          res.setHeader(
            "www-authenticate",
            `Bearer resource_metadata="${this.url}/.well-known/oauth-protected-resource/mcp", scope="${oauth.scope}"${error}`,
          );
        }
        return reply(401, -32001, "Unauthorized: a bearer token is required");
      }
      const sid = raw.headers["mcp-session-id"] as string | undefined;
      let body: unknown;
      if (raw.method === "POST") {
        try {
          body = JSON.parse(parsed.rawBody);
        } catch {
          return reply(400, -32700, "Parse error: the body is not JSON");
        }
      }
      if (this.options.stateless) {
        if (raw.method !== "POST") return reply(405, -32000, "Method not allowed: this server is stateless");
        const t = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
        if (isInitializeRequest(body)) this.initialized += 1;
        await this.mcpServer(() => "stateless").connect(t);
        await t.handleRequest(raw, res, body);
        return res.statusCode;
      }
      let transport = sid ? this.sessions.get(sid) : undefined;
      if (sid && !transport) return reply(404, -32001, "Session not found");
      if (!transport) {
        if (raw.method !== "POST" || !isInitializeRequest(body))
          return reply(400, -32000, "Bad Request: no valid session id; send initialize first");
        let id = "";
        const t = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => (id = randomUUID()),
          ...(this.options.resumable ? { eventStore: new InMemoryEventStore(), retryInterval: 50 } : {}),
          onsessioninitialized: (s) => {
            this.sessions.set(s, t);
            this.initialized += 1;
          },
        });
        t.onclose = () => {
          if (this.sessions.delete(id)) this.closed += 1;
        };
        await this.mcpServer(() => id).connect(t);
        transport = t;
      }
      await transport.handleRequest(raw, res, body);
      return res.statusCode;
    };
  }

  /** Forgets every session, as a restarted server does: their next requests get 404. */
  forgetSessions(): void {
    this.sessions.clear();
  }

  protected testHook(op: string, _req: Request, _body: any): Reply | undefined {
    if (op === "host")
      return {
        status: 200,
        body: { files: Object.fromEntries(this.machine.files), remoteManagement: this.machine.remoteManagement, screen: this.screen.state },
      };
    return undefined;
  }
}

/**
 * The control client held to servers nobody here wrote (issue 48): the official MCP Python SDK 2.3's MCPServer,
 * installed by scripts/install-python.sh into .tools/mcp-python. Every mode answers the 2026-07-28 revision, which
 * the client finds with `server/discover` and speaks without a session; pinned to the 2025 handshake
 * (ops:controlProtocol 2025), the same servers answer over event streams and JSON, with and without sessions, and
 * a resumable one closes an answer's stream after its priming event. Behind OAuth, a 401 and a 403 name the
 * authorization server and the scope, read from the protected resource metadata.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ControlClient } from "../../provider/control/client";
import { ROOT } from "../../scripts/root";

const PYTHON = path.join(ROOT, ".tools/mcp-python/bin/python");
const SERVER = path.join(ROOT, "test/helpers/mcp_python_server.py");
let child: ChildProcess | undefined;
let client: ControlClient | undefined;

afterEach(async () => {
  await client?.close();
  client = undefined;
  child?.kill();
  child = undefined;
  for (const k of ["CONTROL_URL", "CONTROL_TOKEN", "CONTROL_PROTOCOL"]) delete process.env[k];
});

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });

/** The Python server in `mode`, listening on a free port. */
async function serve(mode: string): Promise<string> {
  const port = await freePort();
  child = spawn(PYTHON, [SERVER, String(port), mode], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr!.on("data", (d) => (stderr += d));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 150; i++) {
    if (child.exitCode !== null) throw new Error(`the Python MCP server exited: ${stderr}`);
    const up = await fetch(`${url}/mcp`, { method: "GET" }).then(
      () => true,
      () => false,
    );
    if (up) return url;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the Python MCP server did not listen: ${stderr}`);
}

function clientFor(url: string): ControlClient {
  process.env.CONTROL_URL = url;
  client = ControlClient.fromConfig();
  return client;
}

const echoed = async (c: ControlClient, tool = "echo") =>
  (await c.callTool(tool, { text: "from pulumi-ops" })).content.map((x) => x.text).join("");

describe("the official MCP Python SDK 2.3 as the endpoint", { timeout: 60_000 }, () => {
  it.each(["sse", "json", "stateless-sse", "stateless-json"])(
    "%s: 2026-07-28 found by server/discover and spoken without a session; pinned to 2025, the handshake works too",
    async (mode) => {
      const url = await serve(mode);
      const modern = clientFor(url);
      expect(await echoed(modern)).toBe("from pulumi-ops");
      expect((await modern.listTools()).map((t) => t.name).sort()).toEqual(["echo", "run_command", "slow_echo"]);
      const session = await (modern as unknown as { session: Promise<{ protocol: string; sid?: string; modern?: boolean }> }).session;
      expect(session).toMatchObject({ protocol: "2026-07-28", modern: true });
      expect(session.sid).toBeUndefined();
      await modern.close();
      process.env.CONTROL_PROTOCOL = "2025";
      const legacy = clientFor(url);
      expect(await echoed(legacy)).toBe("from pulumi-ops");
      const old = await (legacy as unknown as { session: Promise<{ protocol: string; sid?: string; modern?: boolean }> }).session;
      expect(old.protocol).toBe("2025-11-25");
      expect(Boolean(old.sid)).toBe(!mode.startsWith("stateless"));
    },
  );

  it("resumable (2025): an answer's stream closed after its priming event is resumed with Last-Event-ID", async () => {
    const url = await serve("sse-resumable");
    process.env.CONTROL_PROTOCOL = "2025";
    expect(await echoed(clientFor(url), "slow_echo")).toBe("from pulumi-ops");
  });

  it("behind OAuth: no token and a token without the scope each name the authorization server and the scope", async () => {
    const url = await serve("auth");
    await expect(echoed(clientFor(url))).rejects.toThrow(
      /wants an OAuth access token.*Get a token from https:\/\/auth\.bakery\.example\/? with scope "mcp:tools", then set it as ops:controlToken/,
    );
    process.env.CONTROL_TOKEN = "narrow-token";
    await expect(echoed(clientFor(url))).rejects.toThrow(
      /refused the token: insufficient_scope.*Get a token from https:\/\/auth\.bakery\.example\/? with scope "mcp:tools"/,
    );
    process.env.CONTROL_TOKEN = "good-token";
    expect(await echoed(clientFor(url))).toBe("from pulumi-ops");
  });
});

/**
 * RemoteCommand through the real engine against MCP servers nobody here wrote, one of each kind: mcp-server-commands
 * behind supergateway, stateless (it sets no isError: the exit status is the command's own; with sessions in
 * test/handlers/control-third-party.test.ts); the official MCP Python SDK 2.3's MCPServer in its 2026-07-28 revision
 * (its 2025 transports are held at the client, in test/handlers/control-python-sdk.test.ts); and the official
 * TypeScript SDK's newest server (the control emulator's McpServer) with an event store, speaking 2025-11-25 (issue
 * 48). On each: up runs the command and keeps its output, a command that exits 3 fails the up with its status and
 * leaves nothing in state, destroy runs the delete command. A RemoteFile beside it (its content secret where the
 * server's run_command takes stdin: mcp-server-commands) is written, changed on the host, found so by refresh and
 * put back by up, and removed by destroy. Behind OAuth, the preview fails with one line naming the
 * authorization server.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { ControlEmulator } from "../../emulators";
import { engineStack, ROOT } from "../../scripts/engine";
import { withoutEnvFallback } from "../helpers/engine";
import { commandsServer } from "../helpers/mcp-commands";
import { freePort } from "../helpers/ports";

const PYTHON = path.join(ROOT, ".tools/mcp-python/bin/python");
const SERVER = path.join(ROOT, "test/helpers/mcp_python_server.py");

interface Endpoint {
  url: string;
  /** Where a command's file lands: this machine (the Python server runs `sh -c`) or the emulator's host. */
  read: (file: string) => string | undefined;
  /** Makes the file's folder where the commands run (the emulator's host has only its own). */
  folder: (dir: string) => void;
  /** Changes a file on the host, out of band. */
  write: (file: string, text: string) => void;
  /** Whether its run_command takes stdin (a secret file's content goes there). */
  stdin: boolean;
  stop: () => Promise<void>;
}

/** The Python SDK's server in `mode` on a free port. */
async function python(mode: string): Promise<Endpoint> {
  const port = await freePort();
  const child: ChildProcess = spawn(PYTHON, [SERVER, String(port), mode], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr!.on("data", (d) => (stderr += d));
  const url = `http://127.0.0.1:${port}`;
  for (
    let i = 0;
    !(await fetch(`${url}/mcp`).then(
      () => true,
      () => false,
    ));
    i++
  ) {
    if (i > 150 || child.exitCode !== null) throw new Error(`the Python MCP server did not start: ${stderr}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    read: (f) => (existsSync(f) ? readFileSync(f, "utf8") : undefined),
    folder: () => undefined,
    write: (f, text) => writeFileSync(f, text),
    stdin: false,
    stop: async () => void child.kill(),
  };
}

/** mcp-server-commands (npm) behind supergateway: it runs commands on this machine. */
async function gateway(stateful: boolean): Promise<Endpoint> {
  const server = await commandsServer(stateful);
  return {
    url: server.url,
    read: (f) => (existsSync(f) ? readFileSync(f, "utf8") : undefined),
    folder: () => undefined,
    write: (f, text) => writeFileSync(f, text),
    stdin: true,
    stop: async () => server.stop(),
  };
}

/** The control emulator: the official TypeScript SDK's McpServer, with an event store (2025-11-25 resumption). */
async function typescript(): Promise<Endpoint> {
  const control = await new ControlEmulator({ resumable: true }).start();
  return {
    url: control.url,
    read: (f) => control.machine.files.get(f),
    folder: (d) => void control.machine.dirs.add(d),
    write: (f, text) => void control.machine.files.set(f, text),
    stdin: false,
    stop: () => control.stop(),
  };
}

// Through the engine once per kind of server — each runs commands its own way (mcp-server-commands sets no isError;
// the SDKs' servers do) — on its newest protocol. The transports each server also speaks (the 2025 revision's event
// streams and JSON, with and without sessions, resumable) do not change what the engine does with a command: they
// are held at the client, against the same servers, in test/handlers/control-python-sdk.test.ts and
// control-third-party.test.ts (supergateway with sessions).
describe.each([
  ["mcp-server-commands behind supergateway, stateless", () => gateway(false), "auto"],
  ["the Python SDK, 2026-07-28 (server/discover, no session)", () => python("stateless-json"), "auto"],
  ["the TypeScript SDK, 2025-11-25 resumable", typescript, "auto"],
] as const)("RemoteCommand on %s, through the engine", (name, start, protocol) => {
  it(
    "up runs it and keeps its output, and writes the file; a command exiting 3 fails the up and is not kept; the file changed on the host is found and put back; destroy runs delete and removes the file",
    { timeout: 300_000 },
    async () => {
      withoutEnvFallback();
      const server = await start();
      const file = path.join(mkdtempSync(path.join(tmpdir(), "commands-")), "marker.txt");
      server.folder(path.dirname(file));
      const stackName = `mcp-${name.replace(/[^a-z0-9]+/gi, "-").toLowerCase()}`.slice(0, 60);
      const engine = await engineStack(
        path.join(ROOT, "test/programs/commands-server"),
        {
          "ops:controlUrl": { value: server.url },
          "ops:controlProtocol": { value: protocol },
          "commands-server:file": { value: file },
          "commands-server:content": { value: "oven=on\n", secret: server.stdin },
          "commands-server:secretContent": { value: String(server.stdin) },
        },
        stackName,
        { PULUMI_OPS_QUIET: "0" }, // the warnings a refresh gives
      );
      try {
        await engine.stack.preview();
        expect(server.read(file)).toBeUndefined();
        const up = await engine.stack.up();
        expect(up.outputs).toMatchObject({ printed: { value: "deployed\n" }, exitCode: { value: 0 } });
        expect(server.read(file)).toBe("deployed\n");
        expect(server.read(`${file}.conf`)).toBe("oven=on\n");
        if (server.stdin) expect(engine.backendText()).not.toContain("oven=on");

        server.write(`${file}.conf`, "oven=off\n");
        let said = "";
        await engine.stack.refresh({ onOutput: (o) => (said += o) });
        expect(said).toMatch(/marker\.txt\.conf was changed on the host: its content/);
        const restored = await engine.stack.up();
        expect(restored.summary.resourceChanges).toMatchObject({ update: 1 });
        expect(server.read(`${file}.conf`)).toBe("oven=on\n");

        await engine.stack.setConfig("commands-server:fail", { value: "true" });
        let printed = "";
        await expect(engine.stack.up({ onOutput: (o) => (printed += o) })).rejects.toThrow();
        expect(printed).toMatch(/the create command `sh -c 'echo broken >&2; exit 3'` failed \(exit 3\): broken/);
        const state = await engine.stack.exportStack();
        expect(state.deployment.resources.filter((r: { urn: string }) => r.urn.endsWith("::check"))).toEqual([]);

        await engine.stack.setConfig("commands-server:fail", { value: "false" });
        await engine.stack.destroy();
        expect(server.read(file)).toBeUndefined();
        expect(server.read(`${file}.conf`)).toBeUndefined();
      } finally {
        await engine.dispose();
        await server.stop();
      }
    },
  );
});

describe("an MCP server behind OAuth, through the engine", () => {
  it(
    "a 401 with WWW-Authenticate fails the preview in one line naming the authorization server and the scope to ask for",
    { timeout: 300_000 },
    async () => {
      withoutEnvFallback();
      const server = await python("auth");
      const engine = await engineStack(
        path.join(ROOT, "test/programs/commands-server"),
        { "ops:controlUrl": { value: server.url }, "commands-server:file": { value: "/tmp/never" } },
        "mcp-oauth",
      );
      try {
        let printed = "";
        await expect(engine.stack.preview({ onOutput: (o) => (printed += o), onError: (o) => (printed += o) })).rejects.toThrow();
        // One line (shown by the engine under the resource and again in its diagnostics), naming where to get a token.
        const said = [
          ...new Set(
            printed
              .split("\n")
              .filter((l) => /auth\.bakery\.example/.test(l))
              .map((l) => l.replace(/^.*?error: /, "")),
          ),
        ];
        expect(said, printed).toHaveLength(1);
        expect(said[0]).toMatch(
          /^control: HTTP 401: the endpoint wants an OAuth access token .*Get a token from https:\/\/auth\.bakery\.example with scope "mcp:tools", then set it as ops:controlToken/,
        );
        expect(printed).not.toMatch(/at .*\.js:\d+/); // no stack trace
      } finally {
        await engine.dispose();
        await server.stop();
      }
    },
  );
});

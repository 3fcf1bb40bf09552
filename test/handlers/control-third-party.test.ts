/**
 * RemoteCommand against an MCP server nobody here wrote: `mcp-server-commands` 0.5.0 (npm), a stdio server that runs
 * commands on this machine, bridged to Streamable HTTP by `supergateway` 4.0.0 — in its default stateless mode (no
 * session id; it answers with protocol 2024-11-05) and with `--stateful` sessions. Commands here are harmless: they
 * write and read a file in a temporary folder.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { call } from "../../provider/door";
import { forgetPreviewChecks, previewCheck } from "../../provider/preflight";
import { ROOT } from "../../scripts/engine";

const GATEWAY = path.join(ROOT, "node_modules/supergateway/dist/index.js");
const COMMANDS = path.join(ROOT, "node_modules/mcp-server-commands/build/index.js");
const children: ChildProcess[] = [];
const dir = mkdtempSync(path.join(tmpdir(), "mcp-commands-"));

afterAll(() => children.forEach((c) => c.kill("SIGTERM")));

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** supergateway serving mcp-server-commands on a free loopback port; the control URL to reach it. */
async function gateway(stateful: boolean): Promise<string> {
  const port = await freePort();
  const child = spawn(process.execPath, [GATEWAY, "--stdio", `${process.execPath} ${COMMANDS}`, "--outputTransport", "streamableHttp", "--port", String(port), "--healthEndpoint", "/healthz", "--logLevel", "none", ...(stateful ? ["--stateful"] : [])], { stdio: "ignore" });
  children.push(child);
  for (let i = 0; !(await fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.ok, () => false)); i++) {
    if (i > 100 || child.exitCode !== null) throw new Error(`supergateway did not start on port ${port}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return `http://127.0.0.1:${port}`;
}

async function make(args: Record<string, unknown>) {
  const { inputs, failures } = await call("control:RemoteCommand", "check", [{}, args]);
  expect(failures).toEqual([]);
  return { inputs, ...(await call("control:RemoteCommand", "create", [inputs])) };
}

describe.each([
  ["stateless (no session id)", false],
  ["with sessions (--stateful)", true],
])("mcp-server-commands through supergateway, %s", (_mode, stateful) => {
  it("the preview reads its tools; a command runs, its output and exit status kept; a failing command fails the up with its status and message", async () => {
    process.env.CONTROL_URL = await gateway(stateful);
    forgetPreviewChecks();
    const { inputs } = await call("control:RemoteCommand", "check", [{}, { create: "true" }]);
    await previewCheck("control:RemoteCommand", undefined, inputs, {});

    const file = path.join(dir, `made-${stateful}.txt`);
    const made = await make({ create: `echo made > ${file}; cat ${file}`, delete: `rm -f ${file}`, environment: { GREETING: "hi there" } });
    expect(made.outs).toMatchObject({ stdout: "made\n", exitCode: 0 });
    expect(readFileSync(file, "utf8")).toBe("made\n");
    expect((await make({ create: 'echo "$GREETING"', environment: { GREETING: "hi there" } })).outs.stdout).toBe("hi there\n");

    // The server answers a failing command (the last line of what it runs is ours, and succeeds) without isError:
    // the status the command printed decides.
    const failed = await make({ create: `ls ${path.join(dir, "no-such-file")}` }).then(() => undefined, (e: Error) => e);
    expect(failed?.message).toMatch(/the create command `ls .*no-such-file` failed \(exit 2\): .*No such file or directory/);
    await expect(make({ create: "sh -c 'exit 3'" })).rejects.toThrow(/failed \(exit 3\)/);

    await call("control:RemoteCommand", "delete", [made.id, made.outs]);
    expect(existsSync(file)).toBe(false);
  });
});

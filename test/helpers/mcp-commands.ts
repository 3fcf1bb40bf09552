/**
 * A command-running MCP server nobody here wrote: `mcp-server-commands` (npm; a stdio server that runs commands on
 * this machine) bridged to Streamable HTTP by `supergateway` (npm), stateless by default or with `--stateful`
 * sessions, on a free loopback port.
 */
import { type ChildProcess, spawn } from "node:child_process";
import * as path from "node:path";
import { ROOT } from "../../scripts/engine";
import { freePort } from "./ports";

const GATEWAY = path.join(ROOT, "node_modules/supergateway/dist/index.js");
const COMMANDS = path.join(ROOT, "node_modules/mcp-server-commands/build/index.js");

/** The server running; `url` is what ops:controlUrl takes (`/mcp` is appended). */
export async function commandsServer(stateful: boolean): Promise<{ url: string; stop: () => void }> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    [
      GATEWAY,
      "--stdio",
      `${process.execPath} ${COMMANDS}`,
      "--outputTransport",
      "streamableHttp",
      "--port",
      String(port),
      "--healthEndpoint",
      "/healthz",
      "--logLevel",
      "none",
      ...(stateful ? ["--stateful"] : []),
    ],
    { stdio: "ignore" },
  );
  for (
    let i = 0;
    !(await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (r) => r.ok,
      () => false,
    ));
    i++
  ) {
    if (i > 100 || child.exitCode !== null) throw new Error(`supergateway did not start on port ${port}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill("SIGTERM") };
}

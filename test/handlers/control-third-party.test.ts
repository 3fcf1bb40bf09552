/**
 * RemoteCommand against an MCP server nobody here wrote: `mcp-server-commands` 0.5.0 (npm), a stdio server that runs
 * commands on this machine, bridged to Streamable HTTP by `supergateway` 4.0.0 — in its default stateless mode (no
 * session id; it answers with protocol 2024-11-05) and with `--stateful` sessions. Commands here are harmless: they
 * write and read a file in a temporary folder.
 */
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { call } from "../../provider/door";
import { forgetPreviewChecks, previewCheck } from "../../provider/preflight";
import { commandsServer } from "../helpers/mcp-commands";

const stops: (() => void)[] = [];
const dir = mkdtempSync(path.join(tmpdir(), "mcp-commands-"));

afterAll(() => stops.forEach((stop) => stop()));

async function gateway(stateful: boolean): Promise<string> {
  const server = await commandsServer(stateful);
  stops.push(server.stop);
  return server.url;
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
    const failed = await make({ create: `ls ${path.join(dir, "no-such-file")}` }).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(failed?.message).toMatch(/the create command `ls .*no-such-file` failed \(exit 2\): .*No such file or directory/);
    await expect(make({ create: "sh -c 'exit 3'" })).rejects.toThrow(/failed \(exit 3\)/);

    await call("control:RemoteCommand", "delete", [made.id, made.outs]);
    expect(existsSync(file)).toBe(false);
  });
});

/**
 * The control client on MCP as servers speak it now (issue 48): revision 2025-11-25's priming event and a stream
 * closed before its answer, resumed with GET and Last-Event-ID (the official TypeScript SDK's server with an event
 * store); a server behind OAuth whose 401 names, through its protected resource metadata (RFC 9728), the
 * authorization server and the scope to ask for.
 */
import { afterEach, describe, expect, it } from "vitest";
import { ControlEmulator } from "../../emulators";
import { call } from "../../provider/door";
import { forgetPreviewChecks } from "../../provider/preflight";
import { holdsAnswer, parseSse, sseMessages } from "../../provider/control/sse";

let control: ControlEmulator | undefined;
afterEach(async () => {
  await control?.stop();
  control = undefined;
  delete process.env.CONTROL_TOKEN;
  forgetPreviewChecks();
});

async function run(args: Record<string, unknown>) {
  const { inputs } = await call("control:RemoteCommand", "check", [{}, args]);
  return call("control:RemoteCommand", "create", [inputs]);
}

describe("event streams as servers write them", () => {
  it("priming events carry no message; CRLF and comments are read; reading may stop mid-event after the answer", () => {
    const text =
      'id: 1\r\nretry: 500\r\ndata: \r\n\r\n: keepalive\n\nid: 2\nevent: message\ndata: {"jsonrpc":"2.0","id":7,"result":{}}\n\nid: 3\ndata: {"jsonrpc":"2.0","met';
    const stream = parseSse(text);
    expect([stream.lastId, stream.retryMs]).toEqual(["3", 500]);
    expect(sseMessages(stream)).toEqual([{ jsonrpc: "2.0", id: 7, result: {} }]);
    expect(holdsAnswer(text, 7)).toBe(true);
    expect(holdsAnswer(text, 8)).toBe(false);
  });
});

describe("MCP as servers speak it now", () => {
  it("a stream closed after its priming event is resumed with GET and Last-Event-ID, and the answer read from it", async () => {
    control = await new ControlEmulator({ resumable: true }).start();
    process.env.CONTROL_URL = control.url;
    const r = await run({ create: "echo resumed > /tmp/r.txt; cat /tmp/r.txt" });
    expect(r.outs).toMatchObject({ stdout: "resumed\n", exitCode: 0 });
    const resumes = control.log.filter((e) => e.method === "GET" && e.path === "/mcp");
    expect(resumes.length).toBeGreaterThanOrEqual(1); // the answer came on the resumed stream
    expect(control.calls.filter((c) => c.tool === "run_command")).toHaveLength(1); // run once, not again
  });

  it("a 401 behind OAuth names the authorization server and the scope, from the protected resource metadata", async () => {
    control = await new ControlEmulator({
      token: "right-token",
      oauth: { authorizationServer: "https://auth.bakery.example", scope: "mcp:tools" },
    }).start();
    process.env.CONTROL_URL = control.url;
    await expect(run({ create: "true" })).rejects.toThrow(
      /wants an OAuth access token.*Get a token from https:\/\/auth\.bakery\.example with scope "mcp:tools", then set it as ops:controlToken/,
    );
    process.env.CONTROL_TOKEN = "wrong-token";
    await expect(run({ create: "true" })).rejects.toThrow(/refused the one given \(invalid_token\)/);
    expect(control.calls).toEqual([]);
    process.env.CONTROL_TOKEN = "right-token";
    expect((await run({ create: "echo ok" })).outs).toMatchObject({ stdout: "ok\n" });
  });
});

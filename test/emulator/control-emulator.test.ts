/** The control emulator checked with the official MCP SDK client, and its transport rules with plain HTTP. */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ControlEmulator } from "../../emulators";

let control: ControlEmulator;
beforeAll(async () => (control = await new ControlEmulator({ dialogDelayMs: 0 }).start()));
afterAll(() => control.stop());
beforeEach(() => control.reset());

async function sdkClient() {
  const client = new Client({ name: "fidelity-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${control.url}/mcp`)));
  return client;
}

describe("control emulator with the official MCP SDK client", () => {
  it("lists the six tools and runs commands with an observable effect on the simulated host", async () => {
    const client = await sdkClient();
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual([
      "applescript",
      "click",
      "key_press",
      "run_command",
      "screenshot",
      "type_text",
    ]);
    const r = await client.callTool({
      name: "run_command",
      arguments: { command: "mkdir -p /tmp/a && echo hello > /tmp/a/f.txt; cat /tmp/a/f.txt" },
    });
    expect(r.structuredContent).toEqual({ stdout: "hello\n", stderr: "", exitCode: 0 });
    const failed = await client.callTool({ name: "run_command", arguments: { command: "frobnicate --now" } });
    expect(failed.isError).toBe(true);
    expect(failed.structuredContent).toMatchObject({ exitCode: 127, stderr: "sh: frobnicate: command not found\n" });
    expect(
      (await client.callTool({ name: "run_command", arguments: { command: "test -f /tmp/a/f.txt && exit 3" } })).structuredContent,
    ).toMatchObject({ exitCode: 3 });
    const unknown = await client.callTool({ name: "teleport", arguments: {} }).catch((e: Error) => e);
    expect(String((unknown as { content?: { text: string }[] }).content?.[0]?.text ?? unknown)).toMatch(/teleport/);
    await client.close();
  });

  it("takes a real PNG in pixels at density 2, while clicks are in points", async () => {
    const client = await sdkClient();
    const shot = await client.callTool({ name: "screenshot", arguments: {} });
    const image = (shot.content as { type: string; data: string }[]).find((c) => c.type === "image")!;
    const png = Buffer.from(image.data, "base64");
    expect(png.subarray(1, 4).toString()).toBe("PNG");
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1440, 900]);
    await client.callTool({ name: "run_command", arguments: { command: "open vnc://kiosk.local" } });
    // The sign-in button is at pixel (880, 568): in points, halve it.
    await client.callTool({ name: "click", arguments: { x: 880 / 2, y: 568 / 2 } });
    expect(control.screen.error).toMatch(/incorrect/); // pressed, with empty fields
    await client.close();
  });

  it("answers the transport rules: missing and unknown sessions, bad JSON, bad Accept, DELETE ends a session", async () => {
    const post = (body: string, headers: Record<string, string> = {}) =>
      fetch(`${control.url}/mcp`, {
        method: "POST",
        body,
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
      });
    const call = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" });
    expect((await post(call)).status).toBe(400);
    expect((await post(call, { "mcp-session-id": "nope" })).status).toBe(404);
    const bad = await post("{not json");
    expect(await bad.json()).toMatchObject({ error: { code: -32700 } });
    const init = JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    });
    expect((await post(init, { accept: "text/html" })).status).toBe(406);
    const ok = await post(init);
    const sid = ok.headers.get("mcp-session-id")!;
    expect(sid).toBeTruthy();
    expect(await ok.text()).toMatch(/"protocolVersion":"2025-03-26"/);
    expect((await fetch(`${control.url}/mcp`, { method: "DELETE", headers: { "mcp-session-id": sid } })).status).toBe(200);
    expect(control.closed).toBe(1);
  });
});

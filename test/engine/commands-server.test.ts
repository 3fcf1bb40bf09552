/**
 * RemoteCommand through the real engine against a command server nobody here wrote — mcp-server-commands behind
 * supergateway — stateless and with sessions: up runs the command and keeps its output and exit status, a failing
 * command fails the up with its own status (the server sets no isError), and destroy runs the delete command.
 */
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { engineStack, ROOT } from "../../scripts/engine";
import { withoutEnvFallback } from "../helpers/engine";
import { commandsServer } from "../helpers/mcp-commands";

describe.each([
  ["stateless", false],
  ["with sessions", true],
])("RemoteCommand on mcp-server-commands, %s, through the engine", (mode, stateful) => {
  it("up runs it and keeps its output; a failing command fails the up with its exit status; destroy runs delete", { timeout: 300_000 }, async () => {
    withoutEnvFallback();
    const server = await commandsServer(stateful);
    const file = path.join(mkdtempSync(path.join(tmpdir(), "commands-")), "marker.txt");
    const engine = await engineStack(path.join(ROOT, "test/programs/commands-server"), { "ops:controlUrl": { value: server.url }, "commands-server:file": { value: file } }, `commands-${mode.replace(/ /g, "-")}`);
    try {
      await engine.stack.preview();
      expect(existsSync(file)).toBe(false);
      const up = await engine.stack.up();
      expect(up.outputs).toMatchObject({ printed: { value: "deployed\n" }, exitCode: { value: 0 } });
      expect(readFileSync(file, "utf8")).toBe("deployed\n");

      await engine.stack.setConfig("commands-server:fail", { value: "true" });
      let printed = "";
      await expect(engine.stack.up({ onOutput: (o) => (printed += o) })).rejects.toThrow();
      expect(printed).toMatch(/the create command `sh -c 'echo broken >&2; exit 3'` failed \(exit 3\): broken/);
      const state = await engine.stack.exportStack();
      expect(state.deployment.resources.filter((r: { urn: string }) => r.urn.endsWith("::check"))).toEqual([]);

      await engine.stack.setConfig("commands-server:fail", { value: "false" });
      await engine.stack.destroy();
      expect(existsSync(file)).toBe(false);
    } finally {
      await engine.dispose();
      server.stop();
    }
  });
});

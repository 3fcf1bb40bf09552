/**
 * Errors without noise through the real engine (the dynamic door): a configuration value that is wrong, or a
 * mistyped `ops:*` key, is one line at preview, shown once under the resource, with no stack trace; a service that
 * is not running on this machine, or an address that does not resolve, is said at once with the fix (no retries).
 */
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { engineStack, ROOT } from "../../scripts/engine";
import { withoutEnvFallback, type EngineStack } from "../helpers/engine";
import { freePort } from "../helpers/ports";

let engine: EngineStack;

beforeAll(async () => {
  withoutEnvFallback();
  engine = await engineStack(
    path.join(ROOT, "test/programs/commands-server"),
    { "commands-server:file": { value: "/tmp/pulumi-ops-noise-marker" } },
    "noise",
  );
}, 300_000);
afterAll(() => engine?.dispose());

/** The preview's output; it must fail. */
async function previewOutput(): Promise<string> {
  let printed = "";
  await expect(engine.stack.preview({ onOutput: (o) => (printed += o) })).rejects.toThrow();
  return printed;
}

/** How often the diagnostics (the summary the engine prints after the progress rows) say `what`. */
const times = (text: string, what: string) => text.slice(text.indexOf("Diagnostics:")).split(what).length - 1;

describe("configuration errors through the engine, without noise", { timeout: 120_000 }, () => {
  it("a wrong value: one line naming the key, its variable and the range, shown once, no stack trace", async () => {
    await engine.stack.setConfig("ops:controlTimeoutSeconds", { value: "thirty" });
    const out = await previewOutput();
    const line =
      'has a problem: pulumi-ops configuration: ops:controlTimeoutSeconds (or CONTROL_TIMEOUT_SECONDS) must be a number from 1 to 86400; got "thirty"';
    expect(times(out, line)).toBe(1);
    expect(times(out, "pulumi-ops configuration")).toBe(1);
    expect(out).not.toMatch(/^\s+at /m);
    expect(out).not.toMatch(/ConfigError/);
    await engine.stack.removeConfig("ops:controlTimeoutSeconds");
  });

  it("a mistyped key: named with the nearest setting, not taken for missing credentials", async () => {
    await engine.stack.setConfig("ops:controlUrll", { value: "http://127.0.0.1:9" });
    const out = await previewOutput();
    expect(
      times(out, "has a problem: pulumi-ops configuration: ops:controlUrll is not a pulumi-ops setting: did you mean ops:controlUrl?"),
    ).toBe(1);
    expect(out).not.toMatch(/no credentials|not configured/i);
    expect(out).not.toMatch(/^\s+at /m);
    await engine.stack.removeConfig("ops:controlUrll");
  });

  it("a service not running on this machine: said at once with the fix, no retries, no stack trace", async () => {
    const port = await freePort(); // nothing listens there
    await engine.stack.setConfig("ops:controlUrl", { value: `http://127.0.0.1:${port}` });
    const out = await previewOutput();
    expect(
      times(
        out,
        `Nothing listens at http://127.0.0.1:${port} on this machine: start the service (or \`npx pulumi-ops emulators\`), or set ops:controlUrl to where it runs`,
      ),
    ).toBe(1);
    expect(out).not.toMatch(/retry \d+ of/);
    expect(out).not.toMatch(/^\s+at /m);
  });

  it("an address that does not resolve: said at once, no retries", async () => {
    await engine.stack.setConfig("ops:controlUrl", { value: "http://control.invalid:8200" });
    const out = await previewOutput();
    expect(out).toMatch(/ENOTFOUND\) at http:\/\/control\.invalid:8200/);
    expect(out).toMatch(/Check that the service is reachable at http:\/\/control\.invalid:8200 \(ops:controlUrl\)/);
    expect(out).not.toMatch(/retry \d+ of/);
    expect(out).not.toMatch(/^\s+at /m);
  });
});

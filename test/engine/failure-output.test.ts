/**
 * One clear line per failure, through the real CLI: a failing create and a failing refresh read show the service's
 * answer and its remedy under the resource (the engine's progress line, its "failed" line and the diagnostics) and
 * nowhere else — no second stack-level copy from the provider host, no "AuthError: X: AuthError: X", no stack trace
 * into files the package does not ship.
 */
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_TOKEN, EdgeEmulator, READONLY_TOKEN } from "../../emulators";
import { engineStack, ROOT } from "../../scripts/engine";
import { withoutEnvFallback, type EngineStack } from "../helpers/engine";

let edge: EdgeEmulator;
let engine: EngineStack;

beforeAll(async () => {
  withoutEnvFallback();
  edge = await new EdgeEmulator().start();
  engine = await engineStack(
    path.join(ROOT, "bench/programs/records"),
    {
      "bench-records:count": { value: "2" },
      "ops:edgeBaseUrl": { value: edge.url },
      "ops:edgeApiToken": { value: DEMO_TOKEN, secret: true },
    },
    "output",
    { PULUMI_OPS_QUIET: "0" },
  );
}, 300_000);

afterAll(async () => {
  await engine?.stack.setConfig("ops:edgeApiToken", { value: DEMO_TOKEN, secret: true });
  await engine?.stack.destroy().catch(() => undefined);
  await engine?.dispose();
  await edge?.stop();
});

function expectClean(printed: string, message: RegExp): void {
  const lines = printed.split("\n").filter((l) => message.test(l));
  expect(lines.length, printed).toBeGreaterThan(0);
  expect(lines.length, "at most: progress line, failed line and diagnostics, per failing resource").toBeLessThanOrEqual(3 * 2);
  expect(printed).not.toMatch(/(\w+Error): [^\n]*: \1: /); // "X: ...: X: ..." doubled
  expect(printed).not.toMatch(/^\s+at .*\(/m); // no stack trace
  expect(printed).not.toMatch(/\.ts:\d+/); // no source paths the package does not ship
}

describe("a failure is printed once, with its remedy", { timeout: 300_000 }, () => {
  it.each([
    ["as an output", false],
    ["awaited", true],
  ])("a function that fails (%s): one line with the fix, no stack frames, no runtime warning", async (_how, awaited) => {
    const fn = await engineStack(
      path.join(ROOT, "test/programs/function-failure"),
      {
        zone: { value: "nope.example" },
        awaited: { value: String(awaited) },
        "ops:edgeBaseUrl": { value: edge.url },
        "ops:edgeApiToken": { value: DEMO_TOKEN, secret: true },
      },
      `fn-${awaited}`,
      { PULUMI_OPS_QUIET: "0" },
    );
    let printed = "";
    const failed = await fn.stack.preview({ onOutput: (o) => (printed += o), onError: (o) => (printed += o) }).catch((e: Error) => e);
    await fn.dispose();
    expect(failed).toBeInstanceOf(Error);
    expectClean(printed, /error: edge: .*getZone: no zone named "nope\.example" is visible to this token\. Check the name/);
    expect(printed).not.toMatch(/Warning|unhandled exception|door\.js/);
  });

  it("a create the service refuses", async () => {
    edge.inject({ match: { method: "POST", path: "dns_records$" }, count: 10, kind: "status", status: 400 });
    let printed = "";
    const failed = await engine.stack.up({ onOutput: (o) => (printed += o), onError: (o) => (printed += o) }).catch((e: Error) => e);
    edge.clearFaults();
    expect(failed).toBeInstanceOf(Error);
    expectClean(printed, /edge: HTTP 400/);
  });

  it("a refresh whose reads are refused: the permission named, once per resource", async () => {
    await engine.stack.up();
    await engine.stack.setConfig("ops:edgeApiToken", { value: READONLY_TOKEN, secret: true });
    edge.inject({ match: { method: "GET", path: "dns_records" }, count: 100, kind: "status", status: 403 });
    let printed = "";
    const failed = await engine.stack.refresh({ onOutput: (o) => (printed += o), onError: (o) => (printed += o) }).catch((e: Error) => e);
    edge.clearFaults();
    await engine.stack.setConfig("ops:edgeApiToken", { value: DEMO_TOKEN, secret: true });
    expect(failed).toBeInstanceOf(Error);
    expectClean(printed, /HTTP 403/);
    expect(printed).toMatch(/lacks the permission Zone \/ DNS \/ Read/);
    expect(printed).not.toContain(READONLY_TOKEN);
  });
});

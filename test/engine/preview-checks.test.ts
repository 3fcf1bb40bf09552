/**
 * A preview that fails where up would, with reads only (provider/preflight.ts), through the real engine on a
 * program with a resource on every service (test/programs/every-service): a bad edge token and an unreachable
 * runner fail `pulumi preview` with the remedy up would give; a good configuration previews green with one read
 * per service; `ops:previewChecks false` previews offline. Never a write, never a tool call.
 */
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type {
  ControlEmulator,
  EdgeEmulator,
  Emulator,
  PagesEmulator,
  PostsEmulator,
  RunnerEmulator,
  SkillsEmulator,
} from "../../emulators";
import { DEMO_TOKEN } from "../../emulators";
import { engineStack, ROOT } from "../../scripts/engine";
import { everyServiceConfig, startEveryService } from "../helpers/every-service";
import { withoutEnvFallback, type EngineStack } from "../helpers/engine";

let edge: EdgeEmulator,
  pages: PagesEmulator,
  posts: PostsEmulator,
  runner: RunnerEmulator,
  skills: SkillsEmulator,
  control: ControlEmulator;
let all: Emulator[];
let engine: EngineStack;
const clear = () => all.forEach((e) => e.log.splice(0));
// A write is any request but a read; the control endpoint's session (initialize, its close) acts on nothing.
const writes = () =>
  all.flatMap((e) =>
    e.log.filter((l) => l.method !== "GET" && !(e === control && /^(POST|DELETE)$/.test(l.method))).map((l) => `${l.method} ${l.path}`),
  );

beforeAll(async () => {
  withoutEnvFallback();
  const started = await startEveryService(false);
  ({ edge, pages, posts, runner, skills, control } = started);
  all = [edge, pages, posts, runner, skills, control];
  engine = await engineStack(path.join(ROOT, "test/programs/every-service"), everyServiceConfig(started), "preview-checks", {
    PULUMI_OPS_QUIET: "0",
  });
}, 300_000);

afterAll(async () => {
  await engine?.dispose();
  await Promise.all((all ?? []).map((e) => e.stop()));
});

describe("preview checks with reads only", { timeout: 300_000 }, () => {
  it("1. a good configuration previews green with one read per service, no write and no tool call", async () => {
    clear();
    await engine.stack.preview();
    expect(edge.count("GET", /\/user\/tokens\/verify$/)).toBe(1);
    expect(runner.count("GET", /\/api\/tags$/)).toBe(1);
    expect(control.log.filter((l) => l.method === "POST").length).toBeGreaterThan(0); // a session's initialize
    expect(control.calls).toEqual([]);
    expect(writes()).toEqual([]);
  });

  it("2. a bad edge token fails the preview with the remedy up would give", async () => {
    await engine.stack.setConfig("ops:edgeApiToken", { value: "not-a-token-0123456789", secret: true });
    clear();
    const failed = await engine.stack.preview().catch((e: Error) => e);
    expect(String(failed)).toMatch(/the API token is not valid.*Set a valid API token: pulumi config set --secret ops:edgeApiToken/);
    expect(String(failed)).not.toContain("not-a-token-0123456789");
    expect(writes()).toEqual([]);
    expect(control.calls).toEqual([]);
  });

  it("3. with ops:previewChecks false the same preview is green and asks nothing of the token", async () => {
    await engine.stack.setConfig("ops:previewChecks", { value: "false" });
    clear();
    await engine.stack.preview();
    expect(edge.count("GET", /\/user\/tokens\/verify$/)).toBe(0);
    await engine.stack.removeConfig("ops:previewChecks");
    await engine.stack.setConfig("ops:edgeApiToken", { value: DEMO_TOKEN, secret: true });
  });

  it("4. an unreachable runner fails the preview, naming the setting", async () => {
    await engine.stack.setConfig("ops:runnerHost", { value: "127.0.0.1:9" });
    clear();
    const failed = await engine.stack.preview().catch((e: Error) => e);
    expect(String(failed)).toMatch(/runner: .*ECONNREFUSED.*ops:runnerHost/);
    expect(writes()).toEqual([]);
    await engine.stack.setConfig("ops:runnerHost", { value: runner.url });
    await engine.stack.preview();
  });

  it("5. no edge credentials at all (a pull-request job without the secret) fails the preview with up's message, as no pages token does", async () => {
    await engine.stack.removeConfig("ops:edgeApiToken");
    clear();
    const failed = String(await engine.stack.preview().catch((e: Error) => e));
    expect(failed).toMatch(
      /edge: no credentials\. Set the API token as secret stack config \(`pulumi config set --secret ops:edgeApiToken <token>`\) or the environment variable EDGE_API_TOKEN/,
    );
    expect(writes()).toEqual([]);
    await engine.stack.setConfig("ops:edgeApiToken", { value: DEMO_TOKEN, secret: true });
    const pagesToken = (await engine.stack.getConfig("ops:pagesAccessToken")).value;
    await engine.stack.removeConfig("ops:pagesAccessToken");
    const noPages = String(await engine.stack.preview().catch((e: Error) => e));
    expect(noPages).toMatch(/pages: no access token.*ops:pagesAccessToken/);
    await engine.stack.setConfig("ops:pagesAccessToken", { value: pagesToken, secret: true });
    await engine.stack.preview();
  });
});

/**
 * Faults through the real engine on every service at once: a program with one resource on each
 * (test/programs/every-service) is brought up while all six emulators throttle (429 with Retry-After) and turn
 * requests away (503), and reads fail (500); posts whose answers are lost (they have no natural key), with the
 * service readable and not; a page token revoked mid-run (190). Every scenario ends with a no-op up and exactly the program's objects.
 */
import * as path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  ControlEmulator,
  DEMO_TOKEN,
  EdgeEmulator,
  type Emulator,
  PAGE_ID,
  PAGES_USER_TOKEN,
  PagesEmulator,
  POSTS_USER_TOKEN,
  PostsEmulator,
  RunnerEmulator,
  SKILLS_PUBLISH_TOKEN,
  SkillsEmulator,
} from "../../emulators";
import { engineStack, ROOT } from "../../scripts/engine";
import { everyServiceConfig, startEveryService } from "../helpers/every-service";
import { withoutEnvFallback, type EngineStack } from "../helpers/engine";
import { injectedFaults, printTally, tally } from "../helpers/reliability";

const counted = tally();
let edge: EdgeEmulator,
  pages: PagesEmulator,
  posts: PostsEmulator,
  runner: RunnerEmulator,
  skills: SkillsEmulator,
  control: ControlEmulator;
let all: Emulator[];
let engine: EngineStack;

/** What each service holds of the program's objects. */
function objects() {
  const records = [...[...edge.zones.values()].find((z) => z.name === "example.com")!.records.values()].map((r) => r.name);
  return {
    records,
    pagePosts: [...pages.posts.values()].filter((p) => p.pageId === PAGE_ID).map((p) => p.message),
    posts: [...posts.posts.values()].map((p) => (p as { text?: string }).text),
    skills: [...skills.skills.keys()],
    models: [...runner.models.keys()],
    marker: control.machine.files.get("/tmp/marker"),
  };
}
const PROGRAM = {
  records: ["www.example.com"],
  pagePosts: ["Winter menu, coming soon"],
  posts: ["Fresh bread every morning from 7."],
  skills: ["oven-care"],
  models: ["qwen2.5:0.5b"],
  marker: "deployed\n",
};
const NOTHING = { records: [], pagePosts: [], posts: [], skills: [], models: [], marker: undefined };

async function expectConverged(): Promise<void> {
  await engine.stack.up({ expectNoChanges: true });
  const now = objects();
  counted.duplicates += Object.values(now).reduce((n, v) => n + (Array.isArray(v) ? v.length - new Set(v).size : 0), 0);
  expect(now).toEqual(PROGRAM);
  const state = await engine.stack.exportStack();
  expect(
    state.deployment.resources.filter((r: { custom?: boolean; type: string }) => r.custom && r.type.startsWith("pulumi-nodejs:dynamic/")),
  ).toHaveLength(6);
  counted.converged++;
}

beforeAll(async () => {
  withoutEnvFallback();
  const started = await startEveryService(true);
  ({ edge, pages, posts, runner, skills, control } = started);
  all = [edge, pages, posts, runner, skills, control];
  engine = await engineStack(path.join(ROOT, "test/programs/every-service"), everyServiceConfig(started), "faults", {
    PULUMI_OPS_QUIET: "0",
  });
}, 300_000);

beforeEach(async () => {
  await engine.stack.destroy();
  expect(objects()).toEqual(NOTHING);
  for (const e of all) {
    e.clearFaults();
    e.log.splice(0);
  }
}, 120_000);

afterAll(async () => {
  await engine?.stack.destroy().catch(() => undefined);
  if (edge) expect(objects()).toEqual(NOTHING);
  await engine?.dispose();
  await Promise.all((all ?? []).map((e) => e.stop()));
  printTally("every service through the engine", counted);
});

describe("faults on every service through the Pulumi engine", { timeout: 300_000 }, () => {
  it("bad input stops pulumi preview with the property and the fix, and no service is written to", async () => {
    await engine.stack.setConfig("every-service:ttl", { value: "20" });
    const failed = await engine.stack.preview().catch((e: Error) => e);
    await engine.stack.removeConfig("every-service:ttl");
    expect(String(failed)).toMatch(/ttl must be 1 \(automatic\) or from 60 to 86400 seconds/);
    // The valid resources' preview checks read (provider/preflight.ts); nothing is written and no tool is called.
    const sent = all.reduce((n, e) => n + e.log.filter((l) => l.method !== "GET" && e !== control).length, 0) + control.calls.length;
    counted.badInputs++;
    counted.badInputRequests += sent;
    expect(sent).toBe(0);
  });

  it("429 with Retry-After and 503 on every service and 500 on reads waited out, and posts whose answers are lost (no natural key) found on the service and kept: the run succeeds, nothing published twice", async () => {
    // One run for both: the status faults answer each service's first requests, the lost answers come after them.
    // One of each per service: the services' preview checks meet them one service after another (the run's output
    // shows each service's retries in turn), so every wait adds to the run's; the handler fault matrix throttles
    // each type's create.
    for (const e of all) {
      e.inject({ count: 1, kind: "status", status: 429, retryAfter: 1 });
      e.inject({ count: 1, kind: "status", status: 503, retryAfter: 1 });
    }
    for (const e of [edge, pages, skills]) e.inject({ match: { method: "GET" }, count: 1, kind: "status", status: 500 });
    pages.inject({ match: { method: "POST", path: "/feed$" }, count: 1, kind: "drop-after" });
    posts.inject({ match: { method: "POST", path: "/threads_publish$" }, count: 1, kind: "status-after", status: 500 });
    await engine.stack.up(); // the same run asks the services what they made and keeps it
    const perService = all.map((e) => injectedFaults(e));
    expect(perService.every((n) => n >= 2)).toBe(true); // every service was throttled and turned requests away
    counted.faults += perService.reduce((a, b) => a + b, 0);
    // Requests the services acted on (answered, or faulted after acting): each post made once.
    const acted = (e: Emulator, path: RegExp) =>
      e.log.filter((l) => l.method === "POST" && path.test(l.path) && (l.status < 300 || l.fault?.endsWith("-after"))).length;
    expect(pages.log.some((l) => l.fault === "drop-after")).toBe(true);
    expect(posts.log.some((l) => l.fault === "status-after")).toBe(true);
    expect(acted(pages, /\/feed$/)).toBe(1);
    expect(acted(posts, /\/threads_publish$/)).toBe(1);
    await expectConverged();
  });

  it("a page post whose answer is lost while the page cannot be read: recorded as pending, the next up settles it without posting again", async () => {
    pages.inject({ match: { method: "POST", path: "/feed$" }, count: 1, kind: "drop-after" });
    const stop = pages.onRequest((e) => {
      if (e.path.endsWith("/feed")) {
        pages.inject({ match: { method: "GET", path: `/${PAGE_ID}/(ads_)?posts$` }, count: 100, kind: "status", status: 502 });
        stop();
      }
    });
    // One retry of the failing lookups, not six: what is held is that the run gives up recording it as pending.
    await engine.stack.setConfig("ops:pagesMaxRetries", { value: "1" });
    const failed = await engine.stack.up().catch((e: Error) => e);
    stop();
    await engine.stack.removeConfig("ops:pagesMaxRetries");
    counted.faults += injectedFaults(pages);
    expect(String(failed)).toMatch(/recorded it as pending and will look for it before sending anything again/);
    expect(String(failed)).not.toMatch(/run the command again/);
    expect(objects().pagePosts).toEqual(["Winter menu, coming soon"]); // made once, by the lost request
    const pending = (await engine.stack.exportStack()).deployment.resources.find((r: { type: string }) =>
      r.type.endsWith("pages:PagePost"),
    );
    expect(pending.id).toMatch(/^pending-/);
    pages.clearFaults();
    await engine.stack.up(); // settles it: found on the page, kept
    expect(pages.count("POST", /\/feed$/)).toBe(1);
    await engine.stack.refresh(); // gives the resource its post's own id
    const settled = (await engine.stack.exportStack()).deployment.resources.find((r: { type: string }) =>
      r.type.endsWith("pages:PagePost"),
    );
    expect(settled.id).toBe([...pages.posts.keys()][0]);
    await expectConverged();
  });

  it("the page token revoked mid-run (190): the run stops with the remedy; state matches the services; then converges", async () => {
    const token = pages.tokens.get(PAGES_USER_TOKEN)!;
    const stop = pages.onRequest(() => {
      stop();
      pages.tokens.delete(PAGES_USER_TOKEN);
    });
    const failed = await engine.stack.up().catch((e: Error) => e);
    expect(String(failed)).toMatch(/code 190.*(check ops:pagesAccessToken|get a new one)/);
    expect(String(failed)).not.toContain(PAGES_USER_TOKEN);
    counted.faults++;
    expect(objects().pagePosts).toEqual([]);
    const state = await engine.stack.exportStack();
    expect(state.deployment.resources.some((r: { type: string }) => r.type.endsWith("pages:PagePost"))).toBe(false);
    pages.tokens.set(PAGES_USER_TOKEN, token); // a new token in config, in production
    await engine.stack.up();
    await expectConverged();
  });

  it("no credential reaches the CLI output (debug, verbosity 8), an error, the provider's progress, or the state at rest", async () => {
    let printed = "";
    const collect = (o: string) => (printed += o);
    const verbose = { onOutput: collect, onError: collect, debug: true, logToStdErr: true };
    // An error that echoes a request: the page fails every attempt at the post (each time certainly without making it).
    pages.inject({ match: { method: "POST", path: "/feed$" }, count: 4, kind: "status", status: 400 });
    const failed = await engine.stack.up({ ...verbose, logVerbosity: 8 }).catch((e: Error) => e);
    printed += String(failed);
    expect(String(failed)).toMatch(/POST \/200000000000001\/feed/);
    await engine.stack.up({ ...verbose, logVerbosity: 8 });
    await expectConverged();
    expect(printed).toMatch(/\[pulumi-ops\] pages: /); // the provider's own progress lines are in there
    // Every credential of the run: configured tokens, and the page tokens the provider derived from the user token.
    const secrets = [
      DEMO_TOKEN,
      PAGES_USER_TOKEN,
      POSTS_USER_TOKEN,
      SKILLS_PUBLISH_TOKEN,
      ...[...pages.tokens.keys()].filter((t) => t.includes("page")),
    ];
    const atRest = engine.backendText();
    for (const s of secrets) {
      expect(printed.includes(s), `CLI output holds ${s.slice(0, 6)}…`).toBe(false);
      expect(atRest.includes(s), `state holds ${s.slice(0, 6)}…`).toBe(false);
    }

    // At verbosity 9 the engine itself logs the dynamic provider's Configure inputs, which are the decrypted stack
    // config: those lines, and only those, hold the configured tokens (docs/reliability.md says what to do).
    let v9 = "";
    await engine.stack.up({ onOutput: (o) => (v9 += o), onError: (o) => (v9 += o), logToStdErr: true, logVerbosity: 9 });
    const leaking = v9.split("\n").filter((line) => secrets.some((s) => line.includes(s)));
    expect(leaking.length).toBeGreaterThan(0);
    expect(leaking.every((line) => line.includes("Marshaling property for RPC[Provider[") && line.includes("].Configure().inputs]"))).toBe(
      true,
    );
  });
});

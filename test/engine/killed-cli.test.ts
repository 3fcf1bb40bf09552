/**
 * `kill -9` of the `pulumi` process alone, mid-up, while posts are being published and records are being created (with a page post, a page rule, a skill and a command beside them): the engine starts its plugins in process groups of their own, so they outlive the CLI unless they
 * notice. Each provider process watches the engine's address (provider/engine-watch.ts) and stops: no request
 * reaches any service later than one second after the kill, and no process of the run is left. The documented
 * recovery (docs/reliability.md) then ends with every object once, in state: 0 duplicates, 0 orphans.
 */
import { spawn } from "node:child_process";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ControlEmulator, EdgeEmulator, PagesEmulator, PostsEmulator, SkillsEmulator } from "../../emulators";
import { engineStack, ROOT } from "../../scripts/engine";
import { withoutEnvFallback, type EngineStack } from "../helpers/engine";
import { everyServiceConfig } from "../helpers/every-service";
import { queuedObjects } from "../helpers/queued-objects";
import { printTally, tally } from "../helpers/reliability";

const counted = tally();
let edge: EdgeEmulator, posts: PostsEmulator, pages: PagesEmulator, skills: SkillsEmulator, control: ControlEmulator;
let engine: EngineStack;

const { records, texts, pagePosts, pageRules } = queuedObjects(() => ({ edge, posts, pages }));
const PROGRAM = {
  records: [1, 2, 3, 4, 5, 6].map((i) => `host-${i}.example.com`),
  posts: [1, 2, 3, 4].map((i) => `Bake ${i} of the day is out.`),
  pagePosts: ["Open on Sunday."],
  pageRules: ["example.com/static/*"],
  skills: ["oven-care"],
  marker: "deployed\n",
};

beforeAll(async () => {
  withoutEnvFallback();
  [edge, posts, pages, skills, control] = await Promise.all([
    new EdgeEmulator().start(),
    new PostsEmulator({ processingMs: 300 }).start(),
    new PagesEmulator().start(),
    new SkillsEmulator().start(),
    new ControlEmulator().start(),
  ]);
  // Progress lines off: with them on, the provider's first write to the dead CLI's pipe happened to stall it, which
  // hid the requests still to come; quiet, a provider without the engine watch goes on sending after the kill
  // (the slowed records' read-backs, the next posts), which this test must catch.
  engine = await engineStack(
    path.join(ROOT, "test/programs/queued"),
    everyServiceConfig({ edge, posts, pages, skills, control }),
    "killed",
    { PULUMI_OPS_QUIET: "1" },
    "?metadata=skip",
  );
}, 300_000);

afterAll(async () => {
  await engine?.stack.destroy().catch(() => undefined);
  await engine?.dispose();
  await Promise.all([edge, posts, pages, skills, control].map((e) => e?.stop()));
  printTally("the CLI killed alone", counted);
});

describe("the pulumi process killed alone mid-up", { timeout: 300_000 }, () => {
  it("its providers stop sending within a second, no process is left, and the recovery converges with 0 duplicates", async () => {
    // Records are answered after 1.5 s each, so creates are still being made when the CLI dies.
    edge.inject({ match: { method: "POST", path: "dns_records$" }, count: 6, kind: "slow", ms: 1500 });
    const cli = spawn(engine.cli.command, ["up", "--yes", "--skip-preview", "--non-interactive", "--stack", "killed"], {
      cwd: engine.cli.cwd,
      env: engine.cli.env,
      stdio: "ignore",
    });
    const exited = new Promise<void>((resolve) => cli.on("exit", () => resolve()));
    let killedAt = 0;
    // The first publish has gone out: records are still being answered, other posts still to be read back.
    const stop = posts.onRequest((e) => {
      if (e.path.endsWith("/threads_publish") && !killedAt) {
        killedAt = Date.now();
        process.kill(cli.pid!, "SIGKILL"); // the CLI alone: its plugins live in process groups of their own
        stop();
      }
    });
    await exited;
    expect(killedAt).toBeGreaterThan(0);
    counted.faults++;
    await new Promise((r) => setTimeout(r, 12_000)); // past every slowed record's answer and what would follow it

    const late = [edge, posts, pages, skills, control].flatMap((e) => e.log).filter((e) => e.time > killedAt + 1000);
    expect(late, "requests that reached a service more than 1 s after the kill").toEqual([]);
    expect(engine.running(), "processes of the killed run still alive").toEqual([]);

    // The documented recovery: release the lock, drop the creates in doubt, adopt what they made, converge.
    edge.clearFaults();
    await engine.stack.cancel();
    await engine.stack.refresh({ clearPendingCreates: true });
    await engine.stack.setConfig("ops:edgeAdoptExisting", { value: "true" });
    await engine.stack.setConfig("ops:postsAdoptExisting", { value: "true" });
    await engine.stack.setConfig("ops:pagesAdoptExisting", { value: "true" });
    await engine.stack.up();
    await engine.stack.removeConfig("ops:edgeAdoptExisting");
    await engine.stack.removeConfig("ops:postsAdoptExisting");
    await engine.stack.removeConfig("ops:pagesAdoptExisting");
    await engine.stack.up({ expectNoChanges: true });
    const now = {
      records: records(),
      posts: texts(),
      pagePosts: pagePosts(),
      pageRules: await pageRules(),
      skills: [...skills.skills.keys()],
      marker: control.machine.files.get("/tmp/marker"),
    };
    counted.duplicates += Object.values(now).reduce((n, v) => n + (Array.isArray(v) ? v.length - new Set(v).size : 0), 0);
    expect(now).toEqual(PROGRAM);
    // Every object is in state (none orphaned): one resource per object of the program.
    const state = await engine.stack.exportStack();
    const inState = state.deployment.resources.filter((r: { type: string }) => r.type.startsWith("pulumi-nodejs:dynamic/"));
    expect(
      inState
        .map((r: { outputs: { hostname?: string; text?: string } }) => r.outputs.hostname ?? r.outputs.text)
        .filter(Boolean)
        .sort(),
    ).toEqual([...PROGRAM.records, ...PROGRAM.posts].sort());
    expect(inState).toHaveLength(PROGRAM.records.length + PROGRAM.posts.length + 4);
    counted.converged++;
  });
});

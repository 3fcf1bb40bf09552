/**
 * A re-run after a killed apply never doubles (issue 44), through examples/ci/pipeline.sh as the jobs run it: the
 * `pulumi` process of `pipeline.sh up` is killed (SIGKILL) right after the first post is published, with records,
 * a page post, a page rule, a skill and a command under way. The next `pipeline.sh up` refuses, naming the pending
 * operations; `pipeline.sh recover` stops at the command that may have run, and with PIPELINE_RERUN_COMMANDS=true
 * clears the pending creates and applies with the adopt switches for that run only: every object exists once, all
 * in state, and the committed stack file holds no switch.
 */
import { execFileSync, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ControlEmulator, DEMO_TOKEN, EdgeEmulator, PAGE_ID, PAGES_USER_TOKEN, PagesEmulator, POSTS_USER_TOKEN, PostsEmulator, SkillsEmulator } from "../../emulators";
import { engineStack, ROOT } from "../../scripts/engine";
import { withoutEnvFallback, type EngineStack } from "../helpers/engine";

const PROGRAM = path.join(ROOT, "test/programs/queued");
const PIPELINE = path.join(ROOT, "examples/ci/pipeline.sh");
let edge: EdgeEmulator, posts: PostsEmulator, pages: PagesEmulator, skills: SkillsEmulator, control: ControlEmulator;
let engine: EngineStack;

const records = () => [...[...edge.zones.values()].find((z) => z.name === "example.com")!.records.values()].map((r) => r.name).sort();
const texts = () => [...posts.posts.values()].map((p) => p.text ?? "").sort();
const pagePosts = () => [...pages.posts.values()].filter((p) => p.pageId === PAGE_ID).map((p) => p.message);
async function pageRules(): Promise<string[]> {
  const zone = [...edge.zones.values()].find((z) => z.name === "example.com")!;
  const res = await fetch(`${edge.url}/client/v4/zones/${zone.id}/pagerules`, { headers: { authorization: `Bearer ${DEMO_TOKEN}` } });
  return ((await res.json()) as { result: { targets: { constraint: { value: string } }[] }[] }).result.map((r) => r.targets[0].constraint.value);
}

type Job = { status: number | null; stdout: string; stderr: string };
function job(mode: string, extra: Record<string, string> = {}, onSpawn?: () => void): Promise<Job> {
  return new Promise((resolve) => {
    const child = spawn("bash", [PIPELINE, mode], { cwd: engine.scratch, env: { ...engine.cli.env, PULUMI_STACK: "recovered", PULUMI_PROGRAM_DIR: PROGRAM, PULUMI_OPS_QUIET: "1", ...extra } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (status) => resolve({ status, stdout, stderr }));
    onSpawn?.();
  });
}

/** The pid of this engine's `pulumi up` (the CLI alone, not its plugins or the pipeline's shell). */
function cliPid(): number | undefined {
  return engine.running().find((pid) => {
    try {
      const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
      return path.basename(argv[0]) === "pulumi" && argv[1] === "up";
    } catch {
      return false;
    }
  });
}

beforeAll(async () => {
  withoutEnvFallback();
  [edge, posts, pages, skills, control] = await Promise.all([
    new EdgeEmulator().start(), new PostsEmulator({ processingMs: 300 }).start(), new PagesEmulator().start(), new SkillsEmulator().start(), new ControlEmulator().start(),
  ]);
  engine = await engineStack(PROGRAM, {
    "ops:edgeBaseUrl": { value: edge.url },
    "ops:edgeApiToken": { value: DEMO_TOKEN, secret: true },
    "ops:postsBaseUrl": { value: posts.url },
    "ops:postsAccessToken": { value: POSTS_USER_TOKEN, secret: true },
    "ops:pagesBaseUrl": { value: pages.url },
    "ops:pagesAccessToken": { value: PAGES_USER_TOKEN, secret: true },
    "ops:skillsUrl": { value: skills.url },
    "ops:controlUrl": { value: control.url },
  }, "recovered", { PULUMI_OPS_QUIET: "1" }, "?metadata=skip");
}, 300_000);

afterAll(async () => {
  await engine?.stack.destroy().catch(() => undefined);
  await engine?.dispose();
  await Promise.all([edge, posts, pages, skills, control].map((e) => e?.stop()));
});

describe("pipeline.sh after a killed apply", { timeout: 600_000, sequential: true }, () => {
  it("up refuses while operations are pending; recover stops at the command that may have run, then converges with every object once", async () => {
    edge.inject({ match: { method: "POST", path: "dns_records$" }, count: 6, kind: "slow", ms: 1500 });
    let killed = false;
    const stop = posts.onRequest((e) => {
      if (e.path.endsWith("/threads_publish") && !killed) {
        const pid = cliPid();
        if (pid) {
          killed = true;
          process.kill(pid, "SIGKILL");
          stop();
        }
      }
    });
    const first = await job("up");
    expect(killed, first.stdout + first.stderr).toBe(true);
    expect(first.status).not.toBe(0);
    await new Promise((r) => setTimeout(r, 8000)); // past the slowed answers: the killed run's providers have stopped
    edge.clearFaults();

    const again = await job("up");
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/an earlier apply of recovered was interrupted; its pending operations: creating? .*run pipeline\.sh recover/);

    const refused = await job("recover");
    const pendingCommand = /pending: .*RemoteCommand marker/.test(refused.stdout);
    if (pendingCommand) {
      expect(refused.status).toBe(1);
      expect(refused.stderr).toMatch(/the command of marker may have run on its host.*PIPELINE_RERUN_COMMANDS=true/);
    }
    const recovered = await job("recover", { PIPELINE_RERUN_COMMANDS: "true" });
    expect(recovered.status, recovered.stdout + recovered.stderr).toBe(0);
    expect(recovered.stdout).not.toMatch(/pulumi cancel/);

    expect({ records: records(), posts: texts(), pagePosts: pagePosts(), pageRules: await pageRules(), skills: [...skills.skills.keys()] }).toEqual({
      records: [1, 2, 3, 4, 5, 6].map((i) => `host-${i}.example.com`),
      posts: [1, 2, 3, 4].map((i) => `Bake ${i} of the day is out.`),
      pagePosts: ["Open on Sunday."],
      pageRules: ["example.com/static/*"],
      skills: ["oven-care"],
    });
    // Nothing pending any more, nothing left to do, and no switch written to the committed stack file.
    const state = await engine.stack.exportStack();
    expect(state.deployment.pending_operations ?? []).toEqual([]);
    await engine.stack.up({ expectNoChanges: true });
    expect(readFileSync(path.join(PROGRAM, "Pulumi.recovered.yaml"), "utf8")).not.toMatch(/AdoptExisting/);
  });

  it("an apply of a commit older than the one the stack last applied is refused unless forced", async () => {
    const git = (...args: string[]) => execFileSync("git", ["-C", ROOT, ...args], { encoding: "utf8" }).trim();
    const [newer, older] = [git("rev-parse", "HEAD"), git("rev-parse", "HEAD~1")];
    const applied = await job("up", { PIPELINE_COMMIT: newer });
    expect(applied.status, applied.stdout + applied.stderr).toBe(0);
    const stale = await job("up", { PIPELINE_COMMIT: older });
    expect(stale.status).toBe(1);
    expect(stale.stderr).toMatch(new RegExp(`commit ${older.slice(0, 12)} is older than ${newer.slice(0, 12)}, which recovered last applied.*PIPELINE_FORCE_OLDER=true`));
    const forced = await job("up", { PIPELINE_COMMIT: older, PIPELINE_FORCE_OLDER: "true" });
    expect(forced.status, forced.stdout + forced.stderr).toBe(0);
  });
});

/**
 * A re-run after a killed apply never doubles (issue 44), through examples/ci/pipeline.sh as the jobs run it: the
 * `pulumi` process of `pipeline.sh up` is killed (SIGKILL) right after the first post is published, with records,
 * a page post, a page rule, a skill and a command under way. The next `pipeline.sh up` refuses, naming the pending
 * operations; `pipeline.sh recover` stops at the command that may have run, and with PIPELINE_RERUN_COMMANDS=true
 * clears the pending creates and applies with the adopt switches for that run only: every object exists once, all
 * in state, and the committed stack file holds no switch. Then every kind at once (a record, a page rule, a firewall
 * rule, a page post, a post, a skill), each create acted on by its service and its answer held back, the CLI killed
 * once all have arrived: the same recovery leaves exactly one of each. And an up of a commit older than the stack's
 * last applied one is refused unless forced. An apply killed before its first operation leaves only its lock: the
 * next up names its owner and age and recover, which clears it. Then the same kill followed by a plain `pulumi
 * cancel` and `pulumi up` on the same machine (no pipeline): each kind's create finds the note the killed create left
 * (provider/create-journal.ts) and makes exactly one; a command killed after it ran is refused, and runs once more
 * only with ops:controlRerunInterrupted.
 */
import { execFileSync, spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ControlEmulator, EdgeEmulator, type Emulator, PagesEmulator, PostsEmulator, SkillsEmulator } from "../../emulators";
import { engineStack, ROOT } from "../../scripts/engine";
import { cliPid, settled, withoutEnvFallback, type EngineStack } from "../helpers/engine";
import { everyServiceConfig } from "../helpers/every-service";
import { queuedObjects } from "../helpers/queued-objects";

const PROGRAM = path.join(ROOT, "test/programs/queued");
const PIPELINE = path.join(ROOT, "examples/ci/pipeline.sh");
let edge: EdgeEmulator, posts: PostsEmulator, pages: PagesEmulator, skills: SkillsEmulator, control: ControlEmulator;
let engine: EngineStack;

const { records, texts, pagePosts, pageRules } = queuedObjects(() => ({ edge, posts, pages }));

type Job = { status: number | null; stdout: string; stderr: string };
function job(
  mode: string,
  extra: Record<string, string> = {},
  onSpawn?: () => void,
  on: { engine: EngineStack; stack: string; program: string } = { engine, stack: "recovered", program: PROGRAM },
): Promise<Job> {
  return new Promise((resolve) => {
    const child = spawn("bash", [PIPELINE, mode], {
      cwd: on.engine.scratch,
      env: { ...on.engine.cli.env, PULUMI_STACK: on.stack, PULUMI_PROGRAM_DIR: on.program, PULUMI_OPS_QUIET: "1", ...extra },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (status) => resolve({ status, stdout, stderr }));
    onSpawn?.();
  });
}

/** The stack config pointing at the emulators this file starts. */
const servicesConfig = () => everyServiceConfig({ edge, posts, pages, skills, control });

beforeAll(async () => {
  withoutEnvFallback();
  [edge, posts, pages, skills, control] = await Promise.all([
    new EdgeEmulator().start(),
    new PostsEmulator({ processingMs: 300 }).start(),
    new PagesEmulator().start(),
    new SkillsEmulator().start(),
    new ControlEmulator().start(),
  ]);
  engine = await engineStack(PROGRAM, servicesConfig(), "recovered", { PULUMI_OPS_QUIET: "1" }, "?metadata=skip");
}, 300_000);

afterAll(async () => {
  await engine?.stack.destroy().catch(() => undefined);
  await engine?.dispose();
  await Promise.all([edge, posts, pages, skills, control].map((e) => e?.stop()));
});

describe("pipeline.sh after a killed apply", { timeout: 600_000 }, () => {
  it("up refuses while operations are pending; recover stops at the command that may have run, then converges with every object once", async () => {
    edge.inject({ match: { method: "POST", path: "dns_records$" }, count: 6, kind: "slow", ms: 1500 });
    let killed = false;
    const stop = posts.onRequest((e) => {
      if (e.path.endsWith("/threads_publish") && !killed) {
        const pid = cliPid(engine);
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
    await settled(engine, [edge]); // past the slowed answers: the killed run's providers have stopped
    edge.clearFaults();

    const again = await job("up");
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(
      /an earlier apply of recovered was interrupted; its pending operations: creating? .*run pipeline\.sh recover/,
    );

    const refused = await job("recover");
    const pendingCommand = /pending: .*RemoteCommand marker/.test(refused.stdout);
    if (pendingCommand) {
      expect(refused.status).toBe(1);
      expect(refused.stderr).toMatch(/the command of marker may have run on its host.*PIPELINE_RERUN_COMMANDS=true/);
    }
    const recovered = await job("recover", { PIPELINE_RERUN_COMMANDS: "true" });
    expect(recovered.status, recovered.stdout + recovered.stderr).toBe(0);

    expect({
      records: records(),
      posts: texts(),
      pagePosts: pagePosts(),
      pageRules: await pageRules(),
      skills: [...skills.skills.keys()],
    }).toEqual({
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
    expect(stale.stderr).toMatch(
      new RegExp(
        `commit ${older.slice(0, 12)} is older than ${newer.slice(0, 12)}, which recovered last applied.*PIPELINE_FORCE_OLDER=true`,
      ),
    );
    const forced = await job("up", { PIPELINE_COMMIT: older, PIPELINE_FORCE_OLDER: "true" });
    expect(forced.status, forced.stdout + forced.stderr).toBe(0);
  });

  it("an apply killed before its first operation leaves its lock: the next up names the lock's owner and age and recover, which clears it", async () => {
    const locks = () =>
      readdirSync(path.join(engine.scratch, "state/.pulumi"), { recursive: true, encoding: "utf8" }).filter(
        (f) => f.startsWith("locks") && f.endsWith(".json"),
      );
    let killed = false;
    const poll = setInterval(() => {
      const pid = cliPid(engine);
      if (!killed && pid && locks().length) {
        killed = true;
        process.kill(pid, "SIGKILL");
      }
    }, 10);
    const first = await job("up", { PIPELINE_FORCE_OLDER: "true" });
    clearInterval(poll);
    expect(killed, first.stdout + first.stderr).toBe(true);
    expect(locks()).toHaveLength(1);
    const next = await job("up", { PIPELINE_FORCE_OLDER: "true" });
    expect(next.status).not.toBe(0);
    const said = next.stdout + next.stderr;
    expect(said).toMatch(
      /pipeline\.sh: the stack is locked by an apply that is not running: .*@.* \(pid \d+\), taken \d+ s ago at \S+, its process is gone from this machine\. Run pipeline\.sh recover/,
    );
    expect(said).not.toMatch(/another apply of this stack is running|delete the lock file with `pulumi cancel`/);
    const recovered = await job("recover", { PIPELINE_FORCE_OLDER: "true" });
    expect(recovered.status, recovered.stdout + recovered.stderr).toBe(0);
    expect(locks()).toEqual([]);
    const after = await job("up", { PIPELINE_FORCE_OLDER: "true" });
    expect(after.status, after.stdout + after.stderr).toBe(0);
  });
});

/**
 * Every kind, each create held at the service: the service acts and its answer is held back (as a stalled service's
 * would be), and the CLI is killed once every kind's create has reached its service. Each kind's create (a post: its
 * publish) is then in the state the killed run left it: made on the service, never recorded.
 */
const exampleCom = () => [...edge.zones.values()].find((z) => z.name === "example.com")!;
type Kind = { kind: string; service: () => Emulator; create: { method: string; path: string }; objects: () => Promise<unknown[]> };
const KINDS: Kind[] = [
  {
    kind: "record",
    service: () => edge,
    create: { method: "POST", path: "dns_records$" },
    objects: async () => [...exampleCom().records.values()].filter((r) => r.name.startsWith("killed-once")),
  },
  { kind: "pageRule", service: () => edge, create: { method: "POST", path: "pagerules$" }, objects: pageRules },
  {
    kind: "firewallRule",
    service: () => edge,
    create: { method: "POST", path: "/rulesets" },
    objects: async () => edge.rulesets.entrypoint(exampleCom().id, "http_request_firewall_custom")?.rules ?? [],
  },
  { kind: "pagePost", service: () => pages, create: { method: "POST", path: "/feed$" }, objects: async () => pagePosts() },
  { kind: "post", service: () => posts, create: { method: "POST", path: "/threads_publish$" }, objects: async () => texts() },
  {
    kind: "skill",
    service: () => skills,
    create: { method: "PUT", path: "^/api/skills/" },
    objects: async () => [...skills.skills.keys()],
  },
];

/**
 * A stack of `kinds` on fresh emulators, whose CLI the returned `kill` ends once each kind's create reached its
 * service (the answer held back by a hang-after fault): `first` is the killed run, started by `run`.
 */
async function killedOnceEachCreated(
  kinds: Kind[],
  stack: string,
  quiet: string,
  run: (one: EngineStack) => Promise<{ status: number | null; out: string }>,
): Promise<{ one: EngineStack; first: { status: number | null; out: string } }> {
  for (const e of [edge, posts, pages, skills, control]) e.reset();
  const program = path.join(ROOT, "test/programs/recover-one");
  const one = await engineStack(
    program,
    { ...servicesConfig(), "recover-one:kinds": { value: kinds.map((k) => k.kind).join(",") } },
    stack,
    { PULUMI_OPS_QUIET: quiet },
    "?metadata=skip",
  );
  const reached = new Set<string>();
  let killed = false;
  const stops = kinds.map((k) => {
    k.service().inject({ match: k.create, count: 1, kind: "hang-after", ms: 60_000 });
    return k.service().onRequest((e) => {
      if (e.method !== k.create.method || !new RegExp(k.create.path).test(e.path)) return;
      reached.add(k.kind);
      const pid = cliPid(one);
      if (reached.size === kinds.length && pid && !killed) {
        killed = true;
        process.kill(pid, "SIGKILL");
      }
    });
  });
  const first = await run(one);
  for (const stop of stops) stop();
  expect([...reached].sort(), first.out).toEqual(kinds.map((k) => k.kind).sort());
  expect(killed, first.out).toBe(true);
  for (const e of [edge, posts, pages, skills]) e.clearFaults();
  await settled(one, [edge, posts, pages, skills]); // the killed run's providers have stopped
  return { one, first };
}

/**
 * Each kind's objects on its service, and its resources in the state: one each. After recover nothing is pending
 * either; a plain `pulumi up` leaves the killed run's pending creates listed (the engine warns of them until a
 * `refresh --clear-pending-creates`).
 */
async function exactlyOneEach(one: EngineStack, kinds: Kind[], pendingCleared: boolean): Promise<void> {
  for (const k of kinds) expect(await k.objects(), k.kind).toHaveLength(1);
  const state = await one.stack.exportStack();
  if (pendingCleared) expect(state.deployment.pending_operations ?? []).toEqual([]);
  for (const k of kinds)
    expect(
      state.deployment.resources.filter((r: { urn: string }) => r.urn.endsWith(`::${k.kind}`)),
      k.kind,
    ).toHaveLength(1);
}

describe("every kind killed right after its create reached the service, recovered through the pipeline", { timeout: 600_000 }, () => {
  it(`${KINDS.map((k) => k.kind).join(", ")}: exactly one of each, in state`, async () => {
    const stack = "one-each";
    const program = path.join(ROOT, "test/programs/recover-one");
    const viaPipeline = (one: EngineStack) => async () => {
      const j = await job("up", {}, undefined, { engine: one, stack, program });
      return { status: j.status, out: j.stdout + j.stderr };
    };
    const { one } = await killedOnceEachCreated(KINDS, stack, "1", (e) => viaPipeline(e)());
    try {
      const on = { engine: one, stack, program };
      const again = await job("up", {}, undefined, on);
      expect(again.status).toBe(1);
      const pending = /pending operations: (.*)/.exec(again.stderr)?.[1] ?? "";
      for (const k of KINDS) expect(pending, again.stderr).toMatch(new RegExp(`creating \\S+ ${k.kind}[;:]`));
      const recovered = await job("recover", {}, undefined, on);
      expect(recovered.status, recovered.stdout + recovered.stderr).toBe(0);
      await exactlyOneEach(one, KINDS, true);
    } finally {
      await one.stack.destroy().catch(() => undefined);
      await one.dispose();
    }
  });
});

/** `pulumi up` as a user runs it, its env extended by `extra`: the exit status and everything it printed. */
function plainUp(on: EngineStack, stack: string, extra: Record<string, string> = {}): Promise<{ status: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(on.cli.command, ["up", "--yes", "--skip-preview", "--non-interactive", "--stack", stack], {
      cwd: on.cli.cwd,
      env: { ...on.cli.env, ...extra },
    });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("close", (status) => resolve({ status, out }));
  });
}

describe(
  "every kind killed right after its create reached the service, then a plain `pulumi up` on the same machine",
  { timeout: 600_000 },
  () => {
    // A skill's create is a PUT of its slug, which the next create simply repeats: it needs no note.
    const kinds = KINDS.filter((x) => x.kind !== "skill");
    it(`${kinds.map((k) => k.kind).join(", ")}: each create finds the note the killed one left, exactly one of each, in state`, async () => {
      const stack = "plain-each";
      // Its warnings are the point: not quiet.
      const { one } = await killedOnceEachCreated(kinds, stack, "0", (e) => plainUp(e, stack));
      try {
        await one.stack.cancel().catch(() => undefined); // the killed run's lock
        const again = await plainUp(one, stack);
        expect(again.status, again.out).toBe(0);
        // One warning per kind (on its progress line and again under Diagnostics), naming its object and what was kept.
        const resumed = new Set(again.out.match(/an earlier create of .* \(sent [^)]*\) never reached the stack's state.*/g));
        expect([...resumed], again.out).toHaveLength(kinds.length);
        await exactlyOneEach(one, kinds, false);
      } finally {
        await one.stack.destroy().catch(() => undefined);
        await one.dispose();
      }
    });

    it("command: killed once it ran on the host, not run again until told to", async () => {
      const commandRuns = () => control.calls.filter((c) => JSON.stringify(c.args).includes("deployed-once")).length;
      for (const e of [edge, posts, pages, skills, control]) e.reset();
      control.calls.splice(0);
      const program = path.join(ROOT, "test/programs/recover-one");
      const name = "plain-command";
      const one = await engineStack(
        program,
        { ...servicesConfig(), "recover-one:kinds": { value: "command" } },
        name,
        { PULUMI_OPS_QUIET: "0" },
        "?metadata=skip",
      ); // its warning is the point
      try {
        let killed = false;
        // Killed once it ran on the host, its answer held back (as a slow command's would be).
        control.inject({ match: { method: "POST", path: "/mcp", body: "run_command" }, count: 1, kind: "hang-after", ms: 5000 });
        const watch = setInterval(() => {
          const pid = cliPid(one);
          if (commandRuns() > 0 && pid && !killed) {
            killed = true;
            process.kill(pid, "SIGKILL");
          }
        }, 20);
        const first = await plainUp(one, name);
        clearInterval(watch);
        expect(killed, first.out).toBe(true);
        await settled(one, [control]); // the killed run's provider has stopped
        await one.stack.cancel().catch(() => undefined); // the killed run's lock
        const again = await plainUp(one, name);
        expect(again.status).not.toBe(0);
        expect(again.out).toMatch(
          /create command was sent \(.*\) by an earlier run that never recorded its end.*ops:controlRerunInterrupted/s,
        );
        expect(commandRuns()).toBe(1);
        const told = await plainUp(one, name, { CONTROL_RERUN_INTERRUPTED: "true" });
        expect(told.status, told.out).toBe(0);
        expect(commandRuns()).toBe(2);
        const state = await one.stack.exportStack();
        expect(state.deployment.resources.filter((r: { urn: string }) => r.urn.endsWith("::command"))).toHaveLength(1);
      } finally {
        await one.stack.destroy().catch(() => undefined);
        await one.dispose();
      }
    });
  },
);

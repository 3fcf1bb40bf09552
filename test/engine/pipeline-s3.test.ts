/**
 * A team's loop, end to end, with state in a real S3-compatible store: MinIO (built from its Go module into .tools)
 * on loopback, the real Pulumi CLI logged in to `s3://` with the variables Pulumi documents for S3-compatible
 * endpoints, and examples/ci/pipeline.sh run exactly as the jobs run it. Pull-request preview with a read-only
 * token → merge and up held to the reviewed plan → a second up at the same time refused by the backend's lock →
 * a plan that no longer holds refused → an out-of-band change caught by the drift job → destroy leaves nothing;
 * and two stacks applied at once against one account under the real allowance both converge.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALL_PERMISSIONS, DEMO_ACCOUNT, DEMO_TOKEN, EdgeEmulator, READ_PERMISSIONS } from "../../emulators";
import { ROOT } from "../../scripts/engine";
import { withoutEnvFallback } from "../helpers/engine";
import { MinioServer } from "../helpers/minio";

const PIPELINE = path.join(ROOT, "examples/ci/pipeline.sh");
const PROGRAM = path.join(ROOT, "test/programs/team");
const PULUMI = path.join(ROOT, ".tools/pulumi/bin/pulumi");
const BUCKET = "team-state";
const READ_TOKEN = "edge-read-only-token-for-pull-requests";
const PASSPHRASE = "team-passphrase-5f1c";
let edge: EdgeEmulator;
let minio: MinioServer;
let scratch: string;

beforeAll(async () => {
  withoutEnvFallback();
  minio = await new MinioServer().start(BUCKET);
  edge = await new EdgeEmulator({ tokens: { [DEMO_TOKEN]: ALL_PERMISSIONS, [READ_TOKEN]: READ_PERMISSIONS } }).start();
  scratch = mkdtempSync(path.join(tmpdir(), "pulumi-ops-team-"));
}, 1_800_000); // the first run builds MinIO from the Go module proxy

afterAll(async () => {
  await edge?.stop();
  await minio?.stop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  for (const stack of ["prod", "blue", "green"]) rmSync(path.join(PROGRAM, `Pulumi.${stack}.yaml`), { force: true });
});

type Job = { status: number | null; stdout: string; stderr: string };
/** A CI job's environment: the store's credentials, the backend, the passphrase, the job's own token. */
function jobEnv(extra: Record<string, string | undefined>): Record<string, string> {
  const env: Record<string, string | undefined> = {
    PATH: `${path.join(ROOT, "node_modules/.bin")}:${path.join(ROOT, ".tools/pulumi/bin")}:/usr/bin:/bin`,
    HOME: scratch,
    PULUMI_HOME: path.join(scratch, "home"),
    PULUMI_BACKEND_URL: minio.backendUrl(BUCKET),
    PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PULUMI_PROGRAM_DIR: PROGRAM,
    PULUMI_STACK: "prod",
    EDGE_BASE_URL: edge.url,
    EDGE_ACCOUNT_ID: DEMO_ACCOUNT,
    PULUMI_OPS_QUIET: "1",
    ...minio.credentials(),
    ...extra,
  };
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
}
function run(command: string, args: string[], extra: Record<string, string | undefined>, cwd = scratch): Promise<Job> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env: jobEnv(extra) });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}
const job = (mode: string, extra: Record<string, string | undefined> = {}) => run("bash", [PIPELINE, mode], extra);
const pullRequest = { EDGE_API_TOKEN: READ_TOKEN };
const main = { EDGE_API_TOKEN: DEMO_TOKEN };
const records = (prefix: string) =>
  [...[...edge.zones.values()].find((z) => z.name === "example.com")!.records.values()].filter((r) => r.name.startsWith(`${prefix}-`));
const writes = () => edge.log.filter((e) => e.method !== "GET" && !e.path.startsWith("/__"));
const report = (name: string) => readFileSync(path.join(scratch, name), "utf8");

describe("a team's pipeline on S3 state (MinIO)", { timeout: 600_000 }, () => {
  it("refuses to start without a passphrase or a stack, says why in the comment, and creates nothing", async () => {
    const noPassphrase = await job("preview", { ...pullRequest, PULUMI_CONFIG_PASSPHRASE: undefined });
    expect(noPassphrase.status).toBe(1);
    expect(report("preview.md")).toMatch(/did not run\*\*: PULUMI_CONFIG_PASSPHRASE is not set\. add the stack's passphrase/);

    const badLogin = await job("preview", { ...pullRequest, AWS_SECRET_ACCESS_KEY: "not-the-key-123" });
    expect(badLogin.status).toBe(1);
    const comment = report("preview.md");
    expect(comment).toMatch(/did not run\*\*: (logging in to the state backend|selecting stack prod)/);
    expect(comment).not.toContain("not-the-key-123");
    expect(comment).not.toContain(READ_TOKEN);

    const noStack = await job("up", main);
    expect(noStack.status).toBe(1);
    expect(noStack.stderr).toMatch(/selecting stack prod: create the stack once by hand \(pulumi stack init prod\); CI never creates one/);
    expect(await minio.list(BUCKET, ".pulumi/stacks/")).toEqual([]);
  });

  it("previews a pull request with a read-only token, applies the reviewed plan on main, and keeps no secret in the store", async () => {
    const init = await run(PULUMI, ["stack", "init", "prod", "--non-interactive"], {}, PROGRAM);
    expect(init.status, init.stderr).toBe(0);
    edge.log.length = 0;

    const preview = await job("preview", pullRequest);
    expect(preview.status, preview.stderr + preview.stdout).toBe(0);
    expect(report("preview.md")).toMatch(/\+ 5 to create/);
    expect(report("preview.md")).toMatch(/^\+ {6}pulumi-nodejs:dynamic\/edge:DnsRecord host-0: \(create\)$/m);
    expect(writes()).toEqual([]);

    const up = await job("up", { ...main, PULUMI_PLAN: path.join(scratch, "plan.json"), PULUMI_REQUIRE_PLAN: "true" });
    expect(up.status, up.stderr + up.stdout).toBe(0);
    expect(
      records("prod")
        .map((r) => r.name)
        .sort(),
    ).toEqual([0, 1, 2, 3].map((i) => `prod-host-${i}.example.com`));

    // The state is in the bucket, with neither token in it nor in the plan the reviewers' job kept.
    const keys = await minio.list(BUCKET, ".pulumi/");
    const checkpoint = keys.find((k) => /^\.pulumi\/stacks\/team\/prod\.json$/.test(k));
    expect(checkpoint, keys.join("\n")).toBeDefined();
    const state = await minio.read(BUCKET, checkpoint!);
    expect(state).toMatch(/prod-host-3/);
    for (const text of [state, readFileSync(path.join(scratch, "plan.json"), "utf8"), report("preview.md"), up.stdout]) {
      expect(text).not.toContain(DEMO_TOKEN);
      expect(text).not.toContain(READ_TOKEN);
    }
  });

  it("a second up at the same time is refused by the backend's lock, and the first one finishes", async () => {
    const config = await run(PULUMI, ["config", "set", "ttl", "600", "--stack", "prod"], {}, PROGRAM);
    expect(config.status, config.stderr).toBe(0);
    edge.inject({ match: { method: "PATCH" }, count: 4, kind: "slow", ms: 1500 });
    const first = job("up", main);
    for (let i = 0; i < 300 && !(await minio.list(BUCKET, ".pulumi/locks/")).length; i++) await new Promise((r) => setTimeout(r, 50));
    const second = await job("up", main);
    expect(second.status).not.toBe(0);
    expect(second.stdout + second.stderr).toMatch(/locked/);
    // Told to wait and re-run, not the CLI's advice to run `pulumi cancel`, which would break the running apply.
    expect(second.stdout + second.stderr).toMatch(
      /another apply of this stack is running: .*@.* \(pid \d+\), taken \d+ s ago at \S+\. Wait for it to finish, then re-run this job/,
    );
    expect(second.stdout + second.stderr).not.toMatch(/delete the lock file with `pulumi cancel`/);
    const done = await first;
    expect(done.status, done.stderr + done.stdout).toBe(0);
    expect(records("prod").map((r) => r.ttl)).toEqual([600, 600, 600, 600]);
    expect(await minio.list(BUCKET, ".pulumi/locks/")).toEqual([]);
  });

  it("an up held to a plan the program no longer matches changes nothing", async () => {
    const preview = await job("preview", pullRequest);
    expect(preview.status, preview.stderr).toBe(0);
    expect(report("preview.md")).toMatch(/No changes|unchanged/);
    await run(PULUMI, ["config", "set", "ttl", "900", "--stack", "prod"], {}, PROGRAM); // merged after the preview
    edge.log.length = 0;
    const up = await job("up", { ...main, PULUMI_PLAN: path.join(scratch, "plan.json") });
    expect(up.status).not.toBe(0);
    expect(up.stdout + up.stderr).toMatch(/violates plan/);
    expect(up.stderr).toMatch(/no longer matches the reviewed preview/);
    expect(writes()).toEqual([]);
    expect(records("prod").map((r) => r.ttl)).toEqual([600, 600, 600, 600]);
    await run(PULUMI, ["config", "set", "ttl", "600", "--stack", "prod"], {}, PROGRAM);
  });

  it("the drift job fails on an out-of-band change and names it, with reads only", async () => {
    const clean = await job("drift", pullRequest);
    expect(clean.status, clean.stderr + clean.stdout).toBe(0);
    expect(report("drift.md")).toMatch(/No drift/);

    const zone = [...edge.zones.values()].find((z) => z.name === "example.com")!;
    const record = [...zone.records.values()].find((r) => r.name === "prod-host-2.example.com")!;
    const res = await fetch(`${edge.url}/client/v4/zones/${zone.id}/dns_records/${record.id}`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${DEMO_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ content: "198.51.100.66" }),
    });
    expect(res.status).toBe(200);
    edge.log.length = 0;
    const drift = await job("drift", pullRequest);
    expect(drift.status).not.toBe(0);
    const found = report("drift.md");
    expect(found).toMatch(/\*\*Drift found\*\*: 1 resource\(s\)/);
    expect(found).toMatch(/^~ +pulumi-nodejs:dynamic\/edge:DnsRecord host-2: \(update\)$/m);
    expect(found).toMatch(/content\s*: "203\.0\.113\.3" => "198\.51\.100\.66"/);
    expect(writes()).toEqual([]);
  });

  it("destroy leaves nothing: no record at the edge, no resource in the stored state", async () => {
    const destroy = await run(PULUMI, ["destroy", "--yes", "--non-interactive", "--stack", "prod"], main, PROGRAM);
    expect(destroy.status, destroy.stderr).toBe(0);
    expect(records("prod")).toEqual([]);
    const state = JSON.parse(await minio.read(BUCKET, ".pulumi/stacks/team/prod.json"));
    expect(state.checkpoint.latest.resources ?? []).toEqual([]);
  });

  it("two stacks applied at once against one account, under the real allowance, both converge once", async () => {
    for (const stack of ["blue", "green"]) {
      const init = await run(PULUMI, ["stack", "init", stack, "--non-interactive"], {}, PROGRAM);
      expect(init.status, init.stderr).toBe(0);
      await run(PULUMI, ["config", "set", "count", "40", "--stack", stack], {}, PROGRAM);
    }
    edge.log.length = 0;
    const [blue, green] = await Promise.all(["blue", "green"].map((stack) => job("up", { ...main, PULUMI_STACK: stack })));
    expect(blue.status, blue.stderr + blue.stdout).toBe(0);
    expect(green.status, green.stderr + green.stdout).toBe(0);
    for (const stack of ["blue", "green"]) {
      const names = records(stack).map((r) => r.name);
      expect(names).toHaveLength(40);
      expect(new Set(names).size).toBe(40); // no duplicate
    }
    expect(edge.log.filter((e) => e.status >= 400)).toEqual([]);
    for (const stack of ["blue", "green"]) {
      const destroy = await run(PULUMI, ["destroy", "--yes", "--non-interactive", "--stack", stack], main, PROGRAM);
      expect(destroy.status, destroy.stderr).toBe(0);
    }
  });
});

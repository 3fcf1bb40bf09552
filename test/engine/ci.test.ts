/**
 * The CI examples (examples/ci): the GitHub Actions workflow passes actionlint (built from its Go module), the
 * GitLab pipeline has the same two jobs, both call examples/ci/pipeline.sh, and that script — run here exactly as
 * a job runs it, with credentials in the environment and a self-managed (file://) backend — previews the website
 * example through the real engine against the edge emulator, writes the comment a reviewer reads, and applies it.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { load } from "js-yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_ACCOUNT, DEMO_TOKEN, EdgeEmulator } from "../../emulators";
import { ROOT } from "../../scripts/engine";
import { withoutEnvFallback } from "../helpers/engine";

const CI = path.join(ROOT, "examples/ci");
const actionlint = path.join(ROOT, ".tools/bin/actionlint");
let edge: EdgeEmulator;
let scratch: string;

beforeAll(async () => {
  withoutEnvFallback();
  execFileSync("bash", [path.join(ROOT, "scripts/install-actionlint.sh")], { stdio: "inherit" });
  edge = await new EdgeEmulator().start();
  scratch = mkdtempSync(path.join(tmpdir(), "pulumi-ops-ci-"));
}, 300_000);

afterAll(async () => {
  await edge?.stop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  rmSync(path.join(ROOT, "examples/website/Pulumi.ci.yaml"), { force: true });
});

/** A CI job's environment: secrets and variables from the store, a self-managed backend, the tools on PATH. */
function jobEnv(): Record<string, string> {
  return {
    PATH: `${path.join(ROOT, "node_modules/.bin")}:${path.join(ROOT, ".tools/pulumi/bin")}:/usr/bin:/bin`,
    HOME: scratch,
    PULUMI_HOME: path.join(scratch, "home"),
    PULUMI_BACKEND_URL: `file://${scratch}`,
    PULUMI_CONFIG_PASSPHRASE: "ci-passphrase",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PULUMI_STACK: "ci",
    PULUMI_PROGRAM_DIR: path.join(ROOT, "examples/website"),
    EDGE_API_TOKEN: DEMO_TOKEN,
    EDGE_BASE_URL: edge.url,
    EDGE_ACCOUNT_ID: DEMO_ACCOUNT,
    PULUMI_OPS_QUIET: "1",
  };
}

/** Runs a command without blocking this process, where the emulator answers it. */
function run(command: string, args: string[], cwd: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env: jobEnv() });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}
const pipeline = (mode: string) => run("bash", [path.join(CI, "pipeline.sh"), mode], scratch);

describe("CI examples", { timeout: 300_000, sequential: true }, () => {
  it("the GitHub workflow passes actionlint, which does catch a mistake", () => {
    const ok = spawnSync(actionlint, [path.join(CI, "github/pulumi.yml")], { encoding: "utf8" });
    expect(ok.stdout + ok.stderr).toBe("");
    expect(ok.status).toBe(0);
    const broken = path.join(scratch, "broken.yml");
    writeFileSync(broken, readFileSync(path.join(CI, "github/pulumi.yml"), "utf8").replace("github.event_name == 'pull_request'", "github.event_nme == 'pull_request'"));
    const bad = spawnSync(actionlint, [broken], { encoding: "utf8" });
    expect(bad.status).not.toBe(0);
    expect(bad.stdout).toMatch(/event_nme/);
  });

  it("GitHub and GitLab run the same script: preview on a change request, up on main", () => {
    const gh = load(readFileSync(path.join(CI, "github/pulumi.yml"), "utf8")) as { jobs: Record<string, { steps: { run?: string }[] }> };
    const ghRuns = (job: string) => gh.jobs[job].steps.map((s) => s.run ?? "").join("\n");
    expect(ghRuns("preview")).toContain("bash examples/ci/pipeline.sh preview");
    expect(ghRuns("preview")).toMatch(/gh pr comment .*preview\.md/);
    expect(ghRuns("up")).toContain("bash examples/ci/pipeline.sh up");
    const gl = load(readFileSync(path.join(CI, "gitlab/.gitlab-ci.yml"), "utf8")) as Record<string, { script?: string[]; rules?: { if: string }[] }>;
    expect(gl.preview.script!.join("\n")).toContain("bash examples/ci/pipeline.sh preview");
    expect(gl.preview.script!.join("\n")).toMatch(/merge_requests\/\$CI_MERGE_REQUEST_IID\/notes/);
    expect(gl.preview.rules![0].if).toMatch(/merge_request_event/);
    expect(gl.up.script!.join("\n")).toContain("bash examples/ci/pipeline.sh up");
    expect(gl.up.rules![0].if).toMatch(/CI_DEFAULT_BRANCH/);
  });

  it("the script previews through the engine, writes the reviewer's comment, applies on main, and previews nothing after", async () => {
    const preview = await pipeline("preview");
    expect(preview.status, preview.stderr + preview.stdout).toBe(0);
    const comment = readFileSync(path.join(scratch, "preview.md"), "utf8");
    expect(comment).toMatch(/### pulumi preview: `ci`/);
    expect(comment).toMatch(/\+ 16 to create/);
    expect(comment).toMatch(/\+ pulumi-nodejs:dynamic\/edge:DnsRecord/);
    expect(edge.log.filter((e) => e.method !== "GET")).toEqual([]);

    const up = await pipeline("up");
    expect(up.status, up.stderr + up.stdout).toBe(0);
    expect([...[...edge.zones.values()].find((z) => z.name === "example.com")!.records.values()]).toHaveLength(7);

    const again = await pipeline("preview");
    expect(again.status).toBe(0);
    expect(readFileSync(path.join(scratch, "preview.md"), "utf8")).toMatch(/16 unchanged/);

    // The token went to stack config encrypted, and nowhere in plain text: not the comment, not the files.
    const stackConfig = readFileSync(path.join(ROOT, "examples/website/Pulumi.ci.yaml"), "utf8");
    expect(stackConfig).toMatch(/ops:edgeApiToken:\s+secure:/);
    for (const text of [stackConfig, comment, preview.stdout, up.stdout]) expect(text).not.toContain(DEMO_TOKEN);

    const destroy = await run(path.join(ROOT, ".tools/pulumi/bin/pulumi"), ["destroy", "--yes", "--non-interactive", "--stack", "ci"], path.join(ROOT, "examples/website"));
    expect(destroy.status, destroy.stderr).toBe(0);
    expect([...[...edge.zones.values()].find((z) => z.name === "example.com")!.records.values()]).toHaveLength(0);
  });
});

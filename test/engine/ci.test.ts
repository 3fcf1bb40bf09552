/**
 * The CI examples (examples/ci) as files: the GitHub workflow passes actionlint and the GitLab pipeline GitLab's
 * own schema (both built or installed by the project's scripts), each job has the credentials it should and no
 * others, the CLI is pinned; the reviewer's comment (report.mjs) keeps progress lines out, warnings apart, secrets
 * masked and its length under the host's limit; host.mjs keeps one comment per request against a GitHub and a
 * GitLab API (fakes on loopback) and finds the reviewed plan of a merged request. The jobs themselves run through
 * the engine in pipeline-s3.test.ts.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { load } from "js-yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../../scripts/engine";

const CI = path.join(ROOT, "examples/ci");
const actionlint = path.join(ROOT, ".tools/bin/actionlint");
const checkJsonschema = path.join(ROOT, ".tools/python/bin/check-jsonschema");
const pinned = JSON.parse(readFileSync(path.join(ROOT, "node_modules/@pulumi/pulumi/package.json"), "utf8")).version as string;
let scratch: string;

beforeAll(() => {
  execFileSync("bash", [path.join(ROOT, "scripts/install-actionlint.sh")], { stdio: "inherit" });
  scratch = mkdtempSync(path.join(tmpdir(), "pulumi-ops-ci-"));
}, 300_000);
afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

type Step = { run?: string; uses?: string; with?: Record<string, string>; env?: Record<string, string> };
type GitHubJob = { if: string; environment?: string; env?: Record<string, string>; steps: Step[] };
const github = () =>
  load(readFileSync(path.join(CI, "github/pulumi.yml"), "utf8")) as {
    on: Record<string, unknown>;
    env: Record<string, string>;
    jobs: Record<string, GitHubJob>;
  };
type GitLabJob = { script: string[]; rules: { if: string }[]; variables?: Record<string, string>; environment?: string };
const gitlab = () =>
  load(readFileSync(path.join(CI, "gitlab/.gitlab-ci.yml"), "utf8")) as Record<string, GitLabJob> & { variables: Record<string, string> };

describe("the CI examples as files", () => {
  it("the GitHub workflow passes actionlint, which does catch a mistake", () => {
    const ok = spawnSync(actionlint, [path.join(CI, "github/pulumi.yml")], { encoding: "utf8" });
    expect(ok.stdout + ok.stderr).toBe("");
    expect(ok.status).toBe(0);
    const broken = path.join(scratch, "broken.yml");
    writeFileSync(
      broken,
      readFileSync(path.join(CI, "github/pulumi.yml"), "utf8").replace(
        "github.event_name == 'pull_request'",
        "github.event_nme == 'pull_request'",
      ),
    );
    const bad = spawnSync(actionlint, [broken], { encoding: "utf8" });
    expect(bad.status).not.toBe(0);
    expect(bad.stdout).toMatch(/event_nme/);
  });

  it("the release workflow passes actionlint; it publishes only after the tests, every artifact and the macOS signing", () => {
    const file = path.join(ROOT, ".github/workflows/release.yml");
    const ok = spawnSync(actionlint, [file], { encoding: "utf8" });
    expect(ok.stdout + ok.stderr).toBe("");
    expect(ok.status).toBe(0);
    const wf = load(readFileSync(file, "utf8")) as {
      on: { push: { tags: string[] } };
      permissions: Record<string, string>;
      jobs: Record<string, { needs?: string; permissions?: Record<string, string>; steps: Step[] }>;
    };
    expect(wf.on.push.tags).toEqual(["v[0-9]+.[0-9]+.[0-9]+"]);
    expect(wf.permissions).toEqual({ contents: "read" });
    expect(Object.fromEntries(Object.entries(wf.jobs).map(([name, job]) => [name, job.needs]))).toEqual({
      test: undefined,
      build: "test",
      "sign-macos": "build",
      publish: "sign-macos",
    });
    // Only the last job may write or prove its identity to a registry.
    expect(Object.entries(wf.jobs).filter(([, job]) => job.permissions)).toEqual([
      ["publish", expect.objectContaining({ permissions: { contents: "write", "id-token": "write" } })],
    ]);
    const runs = (job: string) => wf.jobs[job].steps.map((s) => s.run ?? s.uses ?? "").join("\n");
    expect(runs("test")).toContain("bash .ci/run");
    expect(runs("build")).toContain("npm run release -- --out");
    expect(runs("publish")).toMatch(
      /sha256sum -c SHA256SUMS[\s\S]*--draft[\s\S]*npm publish --provenance[\s\S]*pypa\/gh-action-pypi-publish[\s\S]*sdk\/go\/[\s\S]*--draft=false/,
    );
  });

  it("the GitLab pipeline passes GitLab's CI schema, which does catch a mistake", () => {
    const ok = spawnSync(checkJsonschema, ["--builtin-schema", "vendor.gitlab-ci", path.join(CI, "gitlab/.gitlab-ci.yml")], {
      encoding: "utf8",
    });
    expect(ok.status, ok.stdout + ok.stderr).toBe(0);
    const broken = path.join(scratch, "broken-gitlab.yml");
    writeFileSync(broken, readFileSync(path.join(CI, "gitlab/.gitlab-ci.yml"), "utf8").replace("resource_group:", "resource_grup:"));
    const bad = spawnSync(checkJsonschema, ["--builtin-schema", "vendor.gitlab-ci", broken], { encoding: "utf8" });
    expect(bad.status).not.toBe(0);
    expect(bad.stdout).toMatch(/resource_grup/);
  });

  it("GitHub: the preview has read-only credentials, only the protected apply job the others; plan, drift, pinned CLI", () => {
    const gh = github();
    const runs = (job: string) => gh.jobs[job].steps.map((s) => s.run ?? "").join("\n");
    expect(gh.jobs.preview.if).toMatch(/pull_request/);
    expect(gh.jobs.preview.environment).toBe("preview");
    expect(Object.keys(gh.jobs.preview.env ?? {})).not.toEqual(expect.arrayContaining(["SKILLS_TOKEN"]));
    for (const secret of ["POSTS_ACCESS_TOKEN", "SKILLS_TOKEN", "CONTROL_TOKEN", "EDGE_API_TOKEN"])
      expect(gh.env).not.toHaveProperty(secret);
    expect(runs("preview")).toContain("bash examples/ci/pipeline.sh preview");
    expect(runs("preview")).toContain("node examples/ci/host.mjs comment preview.md");
    expect(gh.jobs.up.environment).toBe("production");
    expect(runs("up")).toMatch(/host\.mjs plan plan\.json[\s\S]*pipeline\.sh "\$MODE"/);
    const apply = gh.jobs.up.steps.find((s) => s.run?.includes("pipeline.sh"))!;
    expect(apply.env!.PULUMI_REQUIRE_PLAN).toMatch(/push/);
    expect(apply.env!.MODE).toBe("${{ inputs.recover && 'recover' || 'up' }}"); // recover: by hand, workflow_dispatch
    expect(gh.jobs.up.steps.find((s) => s.uses?.startsWith("actions/checkout"))!.with!["fetch-depth"]).toBe(0); // the older-commit check needs history
    expect(gh.on).toHaveProperty("schedule");
    expect(gh.jobs.drift.if).toMatch(/schedule/);
    expect(runs("drift")).toContain("bash examples/ci/pipeline.sh drift");
    expect(gh.env.PULUMI_VERSION).toBe(pinned);
    for (const job of Object.values(gh.jobs)) {
      expect(job.steps.find((s) => s.uses?.startsWith("pulumi/actions"))!.with!["pulumi-version"]).toBe("${{ env.PULUMI_VERSION }}");
    }
  });

  it("GitLab: merge requests use the unprotected read-only variables, main the protected ones; plan, drift, pinned CLI", () => {
    const gl = gitlab();
    expect(gl.variables.PULUMI_VERSION).toBe(pinned);
    const preview = gl.preview.script.join("\n");
    expect(gl.preview.rules[0].if).toMatch(/merge_request_event/);
    expect(preview).toMatch(/EDGE_API_TOKEN="\$\{PREVIEW_EDGE_API_TOKEN/);
    expect(preview).toMatch(/production credentials are visible to a merge request pipeline/);
    expect(preview).toMatch(/pipeline\.sh preview[\s\S]*host\.mjs comment preview\.md/);
    expect(gl.up.rules[0].if).toMatch(/CI_DEFAULT_BRANCH/);
    expect(gl.up.variables!.PULUMI_REQUIRE_PLAN).toBe("true");
    expect(gl.up.script.join("\n")).toMatch(/host\.mjs plan plan\.json[\s\S]*pipeline\.sh up/);
    expect(gl.drift.rules[0].if).toMatch(/schedule/);
    expect(gl.drift.script.join("\n")).toMatch(/PREVIEW_EDGE_API_TOKEN[\s\S]*pipeline\.sh drift/);
    expect(readFileSync(path.join(CI, "gitlab/.gitlab-ci.yml"), "utf8")).toMatch(
      /curl -fsSL https:\/\/get\.pulumi\.com \| sh -s -- --version "\$PULUMI_VERSION"/,
    );
  });

  it("no job creates a stack", () => {
    const code = readFileSync(path.join(CI, "pipeline.sh"), "utf8")
      .split("\n")
      .filter((l) => !l.trim().startsWith("#"));
    expect(code.join("\n")).not.toMatch(/--create|^\s*pulumi stack init/m);
    expect(code.join("\n")).toMatch(/^\s*pulumi stack select "\$PULUMI_STACK" --non-interactive$/m);
  });
});

/** Runs report.mjs on a pulumi output. */
function reportOf(output: string, args: string[], env: Record<string, string> = {}): string {
  const file = path.join(scratch, "output.txt");
  writeFileSync(file, output);
  return execFileSync(process.execPath, [path.join(CI, "report.mjs"), "--output", file, ...args], {
    env: { PATH: process.env.PATH, ...env },
    encoding: "utf8",
  });
}
const resource = (i: number, sign = "+") =>
  `    ${sign} pulumi-nodejs:dynamic/edge:DnsRecord: (create)\n        [urn=urn:pulumi:prod::site::pulumi-nodejs:dynamic/edge:DnsRecord::r${i}]\n        content   : "203.0.113.${i % 250}"\n        ttl       : 300\n`;

describe("the reviewer's comment (report.mjs)", () => {
  const output = [
    "Previewing update (prod):",
    "  pulumi:pulumi:Stack: (same)",
    "    [urn=urn:pulumi:prod::site::pulumi:pulumi:Stack::site-prod]",
    resource(1),
    "    info: pulumi-ops: waiting 2s for the edge allowance",
    "Diagnostics:",
    "  pulumi-nodejs:dynamic/edge:DnsRecord (r1):",
    "    info: pulumi-ops: looked up zone example.com",
    "    warning: ttl 30 is below the zone's minimum; the service uses 60",
    "",
    "Resources:",
    "    + 1 to create",
    "    1 unchanged",
  ].join("\n");

  it("puts the changes in a diff block, named and signed in the first column, warnings apart, progress lines out", () => {
    const md = reportOf(output, ["--kind", "preview", "--stack", "prod", "--status", "0"]);
    expect(md.split("\n")[0]).toBe("<!-- pulumi-ops:preview:prod -->");
    expect(md).toMatch(/^\+ {6}pulumi-nodejs:dynamic\/edge:DnsRecord r1: \(create\)$/m);
    expect(md).toMatch(/\+ 1 to create · 1 unchanged/);
    expect(md).toMatch(/Warnings and errors:\n```\n {2}pulumi-nodejs:dynamic\/edge:DnsRecord \(r1\):\n {4}warning: ttl 30/);
    expect(md).not.toMatch(/waiting 2s|looked up zone/);
    expect(md).not.toContain("[urn=");
  });

  it("stays under the host's limit, pointing at the artifact, however large the preview", () => {
    const big = [
      "Previewing update (prod):",
      ...Array.from({ length: 3000 }, (_, i) => resource(i)),
      "Resources:",
      "    + 3000 to create",
    ].join("\n");
    const md = reportOf(big, ["--kind", "preview", "--stack", "prod", "--status", "0"], { COMMENT_LIMIT: "60000" });
    expect(md.length).toBeLessThanOrEqual(60_000);
    expect(md.length).toBeGreaterThan(50_000);
    expect(md).toMatch(/this comment shows the first \d+\. The whole output is the job's artifact preview\.txt/);
    expect(md).toMatch(/\+ 3000 to create/);
    expect(md.match(/```/g)!.length % 2).toBe(0); // every block closed
  });

  it("puts deletions first with a warning over a threshold, sorts by type and name, says which commit and when, and drops the store's SDK noise", () => {
    const del = (i: number) =>
      `    - pulumi-nodejs:dynamic/edge:DnsRecord: (delete)\n        [urn=urn:pulumi:prod::site::pulumi-nodejs:dynamic/edge:DnsRecord::old${i}]\n`;
    const mixed = [
      "Previewing update (prod):",
      resource(2),
      del(3),
      "Response has no supported checksum. Not validating response payload.",
      resource(1),
      ...[1, 2, 4, 5, 6].map(del),
      "Resources:",
      "    + 2 to create",
      "    - 6 to delete",
    ].join("\n");
    const md = reportOf(mixed, ["--kind", "preview", "--stack", "prod", "--status", "0"], { PIPELINE_COMMIT: "0123456789abcdef0123" });
    expect(md).toMatch(/_Commit 0123456789ab, previewed \d{4}-\d\d-\d\d \d\d:\d\d UTC\._/);
    expect(md).toMatch(/> \[!WARNING\]\n> \*\*This change deletes 6 resources\*\*/);
    const order = [...md.matchAll(/^([-+]) +pulumi-nodejs:dynamic\/edge:DnsRecord (\w+): /gm)].map((m) => `${m[1]}${m[2]}`);
    expect(order).toEqual(["-old1", "-old2", "-old3", "-old4", "-old5", "-old6", "+r1", "+r2"]);
    expect(md).not.toMatch(/checksum/);
    const few = reportOf([resource(1), del(1), "Resources:"].join("\n"), ["--kind", "preview", "--stack", "prod", "--status", "0"]);
    expect(few).not.toMatch(/WARNING/);
  });

  it("a cut comment names the resources it leaves out; a failed preview shows no partial counts", () => {
    const big = [
      "Previewing update (prod):",
      ...Array.from({ length: 3000 }, (_, i) => resource(i)),
      "Resources:",
      "    + 3000 to create",
    ].join("\n");
    const md = reportOf(big, ["--kind", "preview", "--stack", "prod", "--status", "0"], { COMMENT_LIMIT: "60000" });
    expect(md).toMatch(/Not shown: \d+ more resources: r\d+ \(create\), r\d+ \(create\)/);
    const failed = reportOf([resource(1), "Resources:", "    3 unchanged"].join("\n"), [
      "--kind",
      "preview",
      "--stack",
      "prod",
      "--status",
      "255",
    ]);
    expect(failed).toMatch(/The preview failed/);
    expect(failed).not.toMatch(/3 unchanged/);
  });

  it("masks every secret of the environment and says why a job stopped before pulumi ran", () => {
    const md = reportOf(
      "error: failed to decrypt with passphrase hunter2-passphrase: token edge-secret-xyz refused",
      [
        "--kind",
        "preview",
        "--stack",
        "prod",
        "--status",
        "1",
        "--failed",
        "logging in to the state backend",
        "--remedy",
        "check PULUMI_BACKEND_URL",
      ],
      {
        PIPELINE_SECRETS: "PULUMI_CONFIG_PASSPHRASE EDGE_API_TOKEN",
        PULUMI_CONFIG_PASSPHRASE: "hunter2-passphrase",
        EDGE_API_TOKEN: "edge-secret-xyz",
      },
    );
    expect(md).toMatch(/\*\*The preview did not run\*\*: logging in to the state backend\. check PULUMI_BACKEND_URL/);
    expect(md).toContain("failed to decrypt with passphrase ***: token *** refused");
    expect(md).not.toMatch(/hunter2|edge-secret-xyz/);
  });
});

/** A fake host API on loopback: answers from `routes`, records every request. */
async function fakeHost(routes: (method: string, url: string, body: any) => { status?: number; json?: unknown; raw?: Buffer } | undefined) {
  const calls: { method: string; url: string; body: any }[] = [];
  const server: Server = createServer((req, res) => {
    let text = "";
    req.on("data", (d) => (text += d));
    req.on("end", () => {
      const body = text ? JSON.parse(text) : undefined;
      calls.push({ method: req.method!, url: req.url!, body });
      const answer = routes(req.method!, req.url!, body) ?? { status: 404, json: { message: "Not Found" } };
      res.writeHead(answer.status ?? 200, { "content-type": answer.raw ? "application/zip" : "application/json" });
      res.end(answer.raw ?? JSON.stringify(answer.json));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return { url, calls, close: () => new Promise((r) => server.close(r)) };
}
function host(args: string[], env: Record<string, string>): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(CI, "host.mjs"), ...args], { cwd: scratch, env: { PATH: process.env.PATH!, ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

describe("host.mjs against GitHub's and GitLab's APIs", () => {
  it("GitHub: one comment per pull request, posted once and then edited in place; other comments untouched", async () => {
    const comments: { id: number; body: string }[] = [{ id: 1, body: "LGTM" }];
    const api = await fakeHost((method, url, body) => {
      if (method === "GET" && url.startsWith("/repos/acme/site/issues/7/comments?")) return { json: comments };
      if (method === "POST" && url === "/repos/acme/site/issues/7/comments") {
        comments.push({ id: 99, body: body.body });
        return { status: 201, json: { id: 99 } };
      }
      const edit = /^\/repos\/acme\/site\/issues\/comments\/(\d+)$/.exec(url);
      if (method === "PATCH" && edit) {
        comments.find((c) => c.id === Number(edit[1]))!.body = body.body;
        return { json: { id: Number(edit[1]) } };
      }
    });
    const env = { GITHUB_API_URL: api.url, GITHUB_REPOSITORY: "acme/site", GITHUB_TOKEN: "ghs_x", PR_NUMBER: "7" };
    const file = path.join(scratch, "preview.md");
    writeFileSync(file, "<!-- pulumi-ops:preview:prod -->\nfirst push\n");
    expect((await host(["comment", file], env)).stdout).toMatch(/posted comment 99/);
    writeFileSync(file, "<!-- pulumi-ops:preview:prod -->\nsecond push\n");
    const again = await host(["comment", file], env);
    expect(again.stdout, again.stderr).toMatch(/updated comment 99/);
    expect(comments).toEqual([
      { id: 1, body: "LGTM" },
      { id: 99, body: "<!-- pulumi-ops:preview:prod -->\nsecond push\n" },
    ]);
    expect(api.calls.every((c) => c.method !== "POST" || c === api.calls.find((x) => x.method === "POST"))).toBe(true);
    await api.close();
  });

  it("GitLab: one note per merge request, posted once and then edited in place", async () => {
    const notes: { id: number; body: string; system?: boolean }[] = [{ id: 5, body: "added 1 commit", system: true }];
    const api = await fakeHost((method, url, body) => {
      if (method === "GET" && url.startsWith("/api/v4/projects/42/merge_requests/3/notes?")) return { json: notes };
      if (method === "POST" && url === "/api/v4/projects/42/merge_requests/3/notes") {
        notes.push({ id: 77, body: body.body });
        return { status: 201, json: { id: 77 } };
      }
      if (method === "PUT" && url === "/api/v4/projects/42/merge_requests/3/notes/77") {
        notes[1].body = body.body;
        return { json: { id: 77 } };
      }
    });
    const env = { CI_API_V4_URL: `${api.url}/api/v4`, CI_PROJECT_ID: "42", GITLAB_API_TOKEN: "glpat-x", CI_MERGE_REQUEST_IID: "3" };
    const file = path.join(scratch, "preview.md");
    writeFileSync(file, "<!-- pulumi-ops:preview:prod -->\none\n");
    expect((await host(["comment", file], env)).stdout).toMatch(/posted comment 77/);
    writeFileSync(file, "<!-- pulumi-ops:preview:prod -->\ntwo\n");
    expect((await host(["comment", file], env)).stdout).toMatch(/updated comment 77/);
    expect(notes.map((n) => n.body)).toEqual(["added 1 commit", "<!-- pulumi-ops:preview:prod -->\ntwo\n"]);
    expect(api.calls.find((c) => c.method === "PUT")).toBeDefined();
    await api.close();
  });

  it("GitHub: on main, fetches the plan of the pull request the commit merged, from its run's artifact", async () => {
    const zip = path.join(scratch, "artifact.zip");
    execFileSync("python3", [
      "-c",
      "import sys, zipfile\nwith zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:\n  z.writestr('preview.txt', 'x' * 5000)\n  z.writestr('plan.json', '{\"resourcePlans\": {\"r\": 1}}')",
      zip,
    ]);
    const api = await fakeHost((method, url) => {
      if (url === "/repos/acme/site/commits/m1/pulls") return { json: [{ number: 7, head: { sha: "h7" } }] };
      if (url.endsWith("/pulls")) return { json: [] }; // a commit pushed straight to main
      if (url.startsWith("/repos/acme/site/actions/runs?") && url.includes("head_sha=h7"))
        return { json: { workflow_runs: [{ id: 300 }] } };
      if (url.startsWith("/repos/acme/site/actions/runs/300/artifacts"))
        return { json: { artifacts: [{ id: 9, name: "pulumi-plan", expired: false }] } };
      if (url === "/repos/acme/site/actions/artifacts/9/zip") return { raw: readFileSync(zip) };
    });
    const env = { GITHUB_API_URL: api.url, GITHUB_REPOSITORY: "acme/site", GITHUB_TOKEN: "ghs_x", GITHUB_SHA: "m1" };
    const saved = await host(["plan", "plan.json"], env);
    expect(saved.status, saved.stderr).toBe(0);
    expect(JSON.parse(readFileSync(path.join(scratch, "plan.json"), "utf8"))).toEqual({ resourcePlans: { r: 1 } });
    const none = await host(["plan", "plan.json"], { ...env, GITHUB_SHA: "direct-push" });
    expect(none.status).toBe(3);
    expect(none.stderr).toMatch(/no reviewed plan for direct-push/);
    await api.close();
  });

  it("GitLab: on main, fetches the plan of the merge request the commit merged, from its preview job", async () => {
    const api = await fakeHost((method, url) => {
      if (url === "/api/v4/projects/42/repository/commits/m2/merge_requests") return { json: [{ iid: 3, state: "merged" }] };
      if (url.startsWith("/api/v4/projects/42/merge_requests/3/pipelines?")) return { json: [{ id: 11 }, { id: 10 }] };
      if (url.startsWith("/api/v4/projects/42/pipelines/11/jobs")) return { json: [{ id: 111, name: "lint" }] }; // its preview failed
      if (url.startsWith("/api/v4/projects/42/pipelines/10/jobs")) return { json: [{ id: 101, name: "preview" }] };
      if (url === "/api/v4/projects/42/jobs/101/artifacts/plan.json") return { raw: Buffer.from('{"plan":10}') };
    });
    const saved = await host(["plan", "plan.json"], {
      CI_API_V4_URL: `${api.url}/api/v4`,
      CI_PROJECT_ID: "42",
      GITLAB_API_TOKEN: "glpat-x",
      CI_COMMIT_SHA: "m2",
    });
    expect(saved.status, saved.stderr).toBe(0);
    expect(readFileSync(path.join(scratch, "plan.json"), "utf8")).toBe('{"plan":10}');
    await api.close();
  });
});

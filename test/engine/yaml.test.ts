/**
 * pulumi-ops from Pulumi YAML, as a YAML team uses a provider: no SDK, no Node on PATH, an empty PULUMI_HOME; the
 * engine fetches the standalone plugin from the release host the program names (stood in for on loopback,
 * test/helpers/release-host.ts) and the YAML language host (built from github.com/pulumi/pulumi-yaml v1.25.0 by
 * scripts/install-yaml.sh) runs test/programs/yaml: stack config and a secret, resources of three services (edge,
 * skills, runner), a component the plugin builds (a posts Thread: `construct`), an invoke (`ops:edge:getZone`);
 * preview, up, a no-op up, refresh, destroy.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DEMO_TOKEN,
  EdgeEmulator,
  POSTS_USER_TOKEN,
  PostsEmulator,
  RunnerEmulator,
  SKILLS_PUBLISH_TOKEN,
  SkillsEmulator,
} from "../../emulators";
import { engineStack, ROOT } from "../../scripts/engine";
import { withoutEnvFallback, type EngineStack } from "../helpers/engine";
import { startReleaseHost, VERSION, type ReleaseHost } from "../helpers/release-host";

let edge: EdgeEmulator, skills: SkillsEmulator, runner: RunnerEmulator, posts: PostsEmulator;
let engine: EngineStack;
let releaseHost: ReleaseHost;
const VERIFICATION = "verification-kept-secret-7c1d";
const records = () => [...[...edge.zones.values()].find((z) => z.name === "example.com")!.records.values()];
const writes = () => [...edge.log, ...skills.log, ...runner.log, ...posts.log].filter((e) => e.method !== "GET");
/** Four resources, the thread and its two posts, and the stack. */
const RESOURCES = 8;
let threadIds: string[] = [];
const BIN = path.join(ROOT, ".tools/pulumi/bin");

beforeAll(async () => {
  withoutEnvFallback();
  releaseHost = await startReleaseHost();
  [edge, skills, runner, posts] = await Promise.all([
    new EdgeEmulator().start(),
    new SkillsEmulator({ publishToken: SKILLS_PUBLISH_TOKEN, allowDelete: true }).start(),
    new RunnerEmulator({ pullStepMs: 5 }).start(),
    new PostsEmulator({ processingMs: 0 }).start(),
  ]);
  engine = await engineStack(
    path.join(ROOT, "test/programs/yaml"),
    {
      "ops:edgeBaseUrl": { value: edge.url },
      "ops:edgeApiToken": { value: DEMO_TOKEN, secret: true },
      "ops:skillsUrl": { value: skills.url },
      "ops:skillsToken": { value: SKILLS_PUBLISH_TOKEN, secret: true },
      "ops:runnerHost": { value: runner.url },
      "ops:postsBaseUrl": { value: posts.url },
      "ops:postsAccessToken": { value: POSTS_USER_TOKEN, secret: true },
      "yaml-door:verification": { value: VERIFICATION, secret: true },
    },
    "yaml",
    { PULUMI_OPS_QUIET: "0", PATH: BIN, ...releaseHost.env },
  );
}, 600_000);

afterAll(async () => {
  await engine?.dispose();
  await Promise.all([edge?.stop(), skills?.stop(), runner?.stop(), posts?.stop()]);
  releaseHost?.stop();
});

describe("a Pulumi YAML program through the downloaded plugin", { timeout: 300_000 }, () => {
  it("1. the engine's PATH has the CLI and its language hosts, and no Node", () => {
    expect(existsSync(path.join(BIN, "pulumi-language-yaml"))).toBe(true);
    expect(spawnSync("/bin/sh", ["-c", "command -v node || command -v npm"], { env: { PATH: BIN } }).status).not.toBe(0);
  });

  it("1b. a tarball at hand installs with `pulumi plugin install resource ops <v> --file`, and serves the schema", () => {
    const home = mkdtempSync(path.join(tmpdir(), "pulumi-ops-plugin-home-"));
    const env = { PATH: BIN, PULUMI_HOME: home, PULUMI_SKIP_UPDATE_CHECK: "true" };
    const tarball = path.join(ROOT, `.tools/release/v${VERSION}/pulumi-resource-ops-v${VERSION}-linux-amd64.tar.gz`);
    const installed = spawnSync(path.join(BIN, "pulumi"), ["plugin", "install", "resource", "ops", VERSION, "--file", tarball], {
      env,
      encoding: "utf8",
    });
    expect(installed.status, installed.stderr).toBe(0);
    const schema = spawnSync(
      path.join(BIN, "pulumi"),
      ["package", "get-schema", path.join(home, `plugins/resource-ops-v${VERSION}/pulumi-resource-ops`)],
      { env, encoding: "utf8", cwd: home },
    );
    expect(schema.status, schema.stderr).toBe(0);
    expect(JSON.parse(schema.stdout)).toMatchObject({
      name: "ops",
      version: VERSION,
      pluginDownloadURL: expect.stringContaining("/releases/download/v${VERSION}"),
    });
    rmSync(home, { recursive: true, force: true });
  });

  it("2. preview fetches the plugin once, runs the invoke, shows the creates and sends no write", async () => {
    const preview = await engine.stack.preview();
    expect(preview.changeSummary.create).toBe(RESOURCES);
    expect(releaseHost.fetched).toEqual([`/pulumi-resource-ops-v${VERSION}-linux-amd64.tar.gz`]);
    expect(existsSync(path.join(engine.scratch, `home/plugins/resource-ops-v${VERSION}/pulumi-resource-ops`))).toBe(true);
    expect(writes()).toEqual([]);
  });

  it("3. up creates in three services; the invoke's result and the secret reach the outputs, the secret stays secret", async () => {
    const up = await engine.stack.up();
    expect(up.summary.resourceChanges?.create).toBe(RESOURCES);
    // The thread the plugin built: its posts published in order, the second replying to the first.
    threadIds = up.outputs.threadPostIds.value as string[];
    const [first, second] = threadIds;
    expect(posts.posts.get(first)).toMatchObject({ text: "Our sourdough, step by step" });
    expect(posts.posts.get(second)).toMatchObject({ text: "1. Feed the starter the night before.", replied_to: first });
    const zone = [...edge.zones.values()].find((z) => z.name === "example.com")!;
    expect(up.outputs.zoneId.value).toBe(zone.id);
    expect(up.outputs.hostname.value).toBe("www.example.com");
    expect(
      records()
        .map((r) => `${r.type} ${r.content}`)
        .sort(),
    ).toEqual(["A 203.0.113.10", "MX mail.example.com", `TXT ${VERIFICATION}`]);
    expect(up.outputs.records.secret).toBe(true);
    expect(skills.skills.has("oven-care")).toBe(true);
    expect(runner.models.has("qwen2.5:0.5b")).toBe(true);
    for (const secret of [VERIFICATION, DEMO_TOKEN, SKILLS_PUBLISH_TOKEN]) expect(engine.backendText()).not.toContain(secret);
  });

  it("4. a second up changes nothing; refresh finds no drift", async () => {
    for (const e of [edge, skills, runner, posts]) e.log.length = 0;
    const again = await engine.stack.up({ expectNoChanges: true });
    expect(again.summary.resourceChanges).toEqual({ same: RESOURCES });
    expect(writes()).toEqual([]);
    const refresh = await engine.stack.refresh();
    expect(refresh.summary.resourceChanges).toEqual({ same: RESOURCES });
  });

  it("5. a changed config value updates the record in place", async () => {
    await engine.stack.setConfig("yaml-door:address", { value: "203.0.113.20" });
    const up = await engine.stack.up();
    expect(up.summary.resourceChanges).toMatchObject({ update: 1 });
    expect(records().find((r) => r.type === "A")!.content).toBe("203.0.113.20");
  });

  it("6. destroy leaves nothing", async () => {
    await engine.stack.destroy();
    expect(records()).toEqual([]);
    expect(skills.skills.size).toBe(0);
    expect(runner.models.has("qwen2.5:0.5b")).toBe(false);
    expect(posts.posts.size).toBe(0);
    // The thread's posts deleted the reply first (the emulator would delete a parent before its reply as well).
    expect(posts.log.filter((e) => e.method === "DELETE").map((e) => e.path.split("/").at(-1))).toEqual([...threadIds].reverse());
  });
});

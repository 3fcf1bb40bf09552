/**
 * An upgrade never breaks a stack: an edge stack made by the previous release (0.18.0, built from its commit in this
 * repository's history and packed as users get it) is upgraded in place to this one (packed the same way): the
 * state's serialized providers still load (their module paths exist), the preview shows no change, the up and a
 * refresh send nothing and change nothing, and a setting then works on the upgraded stack
 * (test/programs/upgrade: every edge resource a site has, declared with the previous release's inputs alone).
 */
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_ACCOUNT, DEMO_TOKEN, EdgeEmulator } from "../../emulators";
import { engineStack, ROOT } from "../../scripts/engine";
import { withoutEnvFallback, type EngineStack } from "../helpers/engine";

/** The previous release: the last commit of 0.18.0 (what CI ran for it: the release command, every language from a release folder). */
const PREVIOUS = { version: "0.18.0", commit: "e31b3d1b0057618296e9fffc634fd582d25c4b6a" };
const work = path.join(ROOT, "test/.work/upgrade"); // inside the repository: the program finds @pulumi/pulumi as a project does
const scratch = mkdtempSync(path.join(tmpdir(), "pulumi-ops-upgrade-"));
let edge: EdgeEmulator;
let engine: EngineStack;
const writes = () => edge.log.filter((e) => e.method !== "GET" && !e.path.startsWith("/__")).map((e) => `${e.method} ${e.path}`);

/** `npm pack` of a source tree, built with this repository's TypeScript and dependencies; the tarball's path. */
function packed(tree: string): string {
  if (!existsSync(path.join(tree, "node_modules"))) symlinkSync(path.join(ROOT, "node_modules"), path.join(tree, "node_modules"));
  execFileSync(path.join(ROOT, "node_modules/.bin/tsc"), ["-p", "tsconfig.json"], { cwd: tree, stdio: "pipe" });
  const name = execFileSync("npm", ["pack", "--silent", "--pack-destination", scratch], { cwd: tree, encoding: "utf8" })
    .trim()
    .split("\n")
    .pop()!;
  return path.join(scratch, name);
}

/** The package as users have it: the tarball unpacked into the program's node_modules. */
function install(tarball: string): void {
  const pkg = path.join(work, "node_modules/pulumi-ops");
  rmSync(pkg, { recursive: true, force: true });
  mkdirSync(pkg, { recursive: true });
  execFileSync("tar", ["-xzf", tarball, "-C", pkg, "--strip-components=1"]);
}

let current: string;
const installed = () => JSON.parse(readFileSync(path.join(work, "node_modules/pulumi-ops/package.json"), "utf8")).version as string;

beforeAll(async () => {
  withoutEnvFallback();
  // The previous release's source, from history.
  const old = path.join(scratch, "previous");
  mkdirSync(old);
  execFileSync("bash", ["-c", `git archive ${PREVIOUS.commit} | tar -x -C ${old}`], { cwd: ROOT });
  const previous = packed(old);
  expect(path.basename(previous)).toBe(`pulumi-ops-${PREVIOUS.version}.tgz`);
  current = execFileSync("npm", ["pack", "--silent", "--pack-destination", scratch], { cwd: ROOT, encoding: "utf8" })
    .trim()
    .split("\n")
    .pop()!;
  current = path.join(scratch, current);
  expect(current).not.toBe(previous); // two releases: the second pack must not overwrite the first
  rmSync(work, { recursive: true, force: true });
  cpSync(path.join(ROOT, "test/programs/upgrade"), work, { recursive: true });
  install(previous);
  edge = await new EdgeEmulator().start();
  engine = await engineStack(
    work,
    {
      "ops:edgeApiToken": { value: DEMO_TOKEN, secret: true },
      "ops:edgeBaseUrl": { value: edge.url },
      "ops:edgeAccountId": { value: DEMO_ACCOUNT },
    },
    "upgrade",
    { PULUMI_OPS_QUIET: "1" },
  );
}, 600_000);

afterAll(async () => {
  await engine?.dispose();
  await edge?.stop();
  rmSync(work, { recursive: true, force: true });
  rmSync(scratch, { recursive: true, force: true });
});

describe(`a stack of the previous release (${PREVIOUS.version}) upgraded in place`, { timeout: 300_000 }, () => {
  it("1. the previous release makes the stack", async () => {
    expect(installed()).toBe(PREVIOUS.version);
    const up = await engine.stack.up();
    expect(up.summary.resourceChanges?.create).toBe(9); // 8 resources and the stack
    expect(writes().length).toBeGreaterThan(0);
  });

  it("2. upgraded: the preview shows no change, the up and a refresh send nothing and change nothing", async () => {
    install(current);
    expect(installed()).toBe(JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")).version);
    edge.log.splice(0);
    const preview = await engine.stack.preview();
    expect(preview.changeSummary).toEqual({ same: 9 });
    const up = await engine.stack.up();
    expect(up.summary.resourceChanges).toEqual({ same: 9 });
    const refresh = await engine.stack.refresh();
    expect(refresh.summary.resourceChanges).toEqual({ same: 9 });
    await engine.stack.preview({ expectNoChanges: true });
    expect(writes()).toEqual([]);
  });

  it("3. the upgraded stack takes a setting: ops:maxDeletes holds a destroy of the set's records", async () => {
    // A destroy runs the providers as the last up configured them (the engine reads their config from state).
    await engine.stack.setConfig("ops:maxDeletes", { value: "1" });
    await engine.stack.up();
    await expect(engine.stack.destroy()).rejects.toThrow(/would delete \d+ records?, and this run \d+ in all, over ops:maxDeletes 1/);
    expect(
      [...[...edge.zones.values()].find((z) => z.name === "example.com")!.records.values()].some((r) => r.comment === "the shop"),
    ).toBe(true);
    await engine.stack.removeConfig("ops:maxDeletes");
    await engine.stack.up();
    await engine.stack.destroy();
    expect([...[...edge.zones.values()].find((z) => z.name === "example.com")!.records.values()]).toEqual([]);
  });
});

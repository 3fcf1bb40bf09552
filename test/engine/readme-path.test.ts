/**
 * README's "Your own program, in ten minutes", run as written: its files are written from the README's own blocks
 * into a fresh folder, its commands run by bash in the order given. Three things differ, as a machine without the
 * release page must: the release folder ($RELEASE) holds the tarball `npm pack` writes here; the emulators take free ports
 * (*_EMULATOR_PORT=0, so a busy test machine cannot collide); the CLI's home and its local backend are scratch
 * folders (PULUMI_HOME, and PULUMI_BACKEND_URL, which outranks `pulumi login --local`'s `file://~`). The `export` lines the emulators print are pasted as a user would, and the services' logs show
 * what the program did.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import * as http from "node:http";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LogEntry } from "../../emulators";
import { isWrite, SERVICES, type ServiceName } from "../../scripts/demo-report";
import { ROOT } from "../../scripts/engine";
import { withoutEnvFallback } from "../helpers/engine";
import { fileOf, FREE_EMULATOR_PORTS, keepBackendMarker, newUserEnv, pastedExports, readmeBlocks } from "../helpers/readme";

const scratch = mkdtempSync(path.join(tmpdir(), "pulumi-ops-readme-"));
const folder = path.join(scratch, "my-stack");
let emulators: ChildProcess | undefined;

const env: Record<string, string> = {
  ...newUserEnv(scratch),
  PATH: `${path.join(ROOT, "node_modules/.bin")}:${path.join(ROOT, ".tools/pulumi/bin")}:${process.env.PATH}`,
};
delete env.PULUMI_CONFIG_PASSPHRASE;

let printed = "";
let pasted: Record<string, string> = {};
let writesAtPreview: string[] = [];

/** A service's request log, on a connection of its own (a kept-alive one may have been closed while the CLI ran). */
const log = (url: string) =>
  new Promise<{ method: string; path: string }[]>((resolve, reject) => {
    http
      .get(`${url}/__emulator/log`, { agent: false }, (res) => {
        let body = "";
        res.on("data", (d: Buffer) => (body += d.toString())).on("end", () => resolve(JSON.parse(body)));
      })
      .on("error", reject);
  });
/** What a service's log says was asked to change, as the demo counts it (reads sent as POST are reads). */
const writes = async (name: ServiceName) =>
  (await log(urlOf(name))).filter((e) => isWrite(name, e as LogEntry)).map((e) => `${e.method} ${e.path}`);
const urlOf = (name: ServiceName) =>
  ({
    edge: pasted.EDGE_BASE_URL,
    pages: pasted.PAGES_BASE_URL,
    posts: pasted.POSTS_BASE_URL,
    runner: `http://${pasted.RUNNER_HOST}`,
    skills: pasted.SKILLS_URL,
    control: pasted.CONTROL_URL,
  })[name];

beforeAll(async () => {
  withoutEnvFallback();
  mkdirSync(env.PULUMI_HOME, { recursive: true });
  mkdirSync(path.join(scratch, "state"));
  mkdirSync(folder, { recursive: true });
  const tarball = execFileSync("npm", ["pack", "--silent", "--pack-destination", scratch], { cwd: ROOT, encoding: "utf8" })
    .trim()
    .split("\n")
    .pop()!;
  const blocks = readmeBlocks("## Your own program, in ten minutes");
  for (const b of blocks.filter((b) => b.lang !== "sh")) writeFileSync(path.join(folder, fileOf(b)), `${b.text}\n`);
  const [install, run] = blocks.filter((b) => b.lang === "sh");
  const [npmInstall, startEmulators] = install.text.split("\n");
  expect(npmInstall).toContain(`"$RELEASE/${tarball}"`);
  execFileSync("bash", ["-c", `${npmInstall} --prefer-offline --loglevel=error`], {
    cwd: folder,
    env: { ...env, RELEASE: scratch },
    stdio: "pipe",
    timeout: 240_000,
  });
  expect(startEmulators).toBe("npx pulumi-ops emulators");
  emulators = spawn("bash", ["-c", `exec ${startEmulators}`], {
    cwd: folder,
    env: { ...env, ...FREE_EMULATOR_PORTS },
    stdio: ["ignore", "pipe", "inherit"],
    detached: true,
  });
  pasted = await pastedExports(emulators);
  // The commands up to the preview, then (the services' logs read) the rest, in one shell as a user types them.
  const lines = run.text.split("\n");
  const cut = lines.indexOf("pulumi preview") + 1;
  expect(cut).toBeGreaterThan(0);
  const exports = Object.entries(pasted)
    .map(([k, v]) => `export ${k}=${v}`)
    .join("\n");
  const shell = (commands: string[]) => {
    const result = spawnSync("bash", ["-c", `set -euo pipefail\n${exports}\n${commands.join("\n")}\n`], {
      cwd: folder,
      env,
      encoding: "utf8",
      timeout: 280_000,
    });
    printed += `${result.stdout}\n${result.stderr}`;
    if (result.status !== 0) throw new Error(`the README's commands failed (exit ${result.status}):\n${printed}`);
  };
  shell(lines.slice(0, cut));
  writesAtPreview = (await Promise.all(SERVICES.map(writes))).flat();
  // The passphrase line again: the second part is the same terminal, so what it exported still holds.
  shell([...lines.slice(0, cut).filter((l) => l.startsWith("export ")), ...lines.slice(cut)]);
}, 600_000);

const restoreBackendMarker = keepBackendMarker();

afterAll(() => {
  if (emulators?.pid) process.kill(-emulators.pid, "SIGTERM");
  restoreBackendMarker();
  rmSync(scratch, { recursive: true, force: true });
});

describe("README's package-user path, run as written", { timeout: 600_000 }, () => {
  it("the emulators print a variable for every service", () => {
    expect(Object.keys(pasted).sort()).toEqual([
      "CONTROL_URL",
      "EDGE_ACCOUNT_ID",
      "EDGE_API_TOKEN",
      "EDGE_BASE_URL",
      "PAGES_ACCESS_TOKEN",
      "PAGES_BASE_URL",
      "POSTS_ACCESS_TOKEN",
      "POSTS_BASE_URL",
      "RUNNER_HOST",
      "SKILLS_TOKEN",
      "SKILLS_URL",
    ]);
  });

  it("preview, up, the output and destroy go through, across the services", () => {
    expect(printed).toMatch(/\+ 7 to create/);
    expect(printed).toMatch(/\+ 7 created/);
    expect(printed).toMatch(/^https:\/\/www\.example\.com$/m);
    expect(printed).toMatch(/- 7 deleted/);
  });

  it("each service's log shows the program's writes, and none at preview", async () => {
    expect(writesAtPreview).toEqual([]);
    expect(await writes("edge")).toEqual(
      expect.arrayContaining([expect.stringMatching(/^POST .*\/dns_records$/), expect.stringMatching(/^DELETE .*\/dns_records\/\w+$/)]),
    );
    expect(await writes("pages")).toEqual(
      expect.arrayContaining([expect.stringMatching(/^POST .*\/200000000000001\/feed$/), expect.stringMatching(/^DELETE /)]),
    );
    expect(await writes("posts")).toEqual(
      expect.arrayContaining([expect.stringMatching(/threads_publish$/), expect.stringMatching(/^DELETE /)]),
    );
    expect(await writes("runner")).toEqual(expect.arrayContaining(["POST /api/pull", "DELETE /api/delete"]));
    expect(await writes("skills")).toEqual(expect.arrayContaining(["PUT /api/skills/site-care"]));
    expect((await log(pasted.CONTROL_URL)).length).toBeGreaterThan(0);
  });
});

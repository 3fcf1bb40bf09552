/**
 * README's "From Python", run as written: the wheel built in the clone with the machine's python3, the emulators
 * started there and their `export` lines pasted, then an empty folder with the section's three files and its
 * commands in order (passphrase, `pulumi login --local`, `stack init`, `pulumi install`, preview, up, output,
 * destroy), by bash, as a user types them. What differs, as a machine without the release page must: the plugin's
 * release host is a local server (PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES, Pulumi's documented mirror setting); the
 * emulators take free ports; the CLI's home and local backend are scratch folders; the clone is this repository
 * seen through links (so the wheel's build leaves nothing in the work tree but what .gitignore names).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../../scripts/engine";
import { withoutEnvFallback } from "../helpers/engine";
import { fileOf, FREE_EMULATOR_PORTS, keepBackendMarker, newUserEnv, pastedExports, readmeBlocks } from "../helpers/readme";
import { startReleaseHost, type ReleaseHost } from "../helpers/release-host";

const scratch = mkdtempSync(path.join(tmpdir(), "pulumi-ops-readme-python-"));
const clone = path.join(scratch, "pulumi-ops");
const folder = path.join(scratch, "my-python-stack");
let emulators: ChildProcess | undefined;
let releaseHost: ReleaseHost | undefined;
let printed = "";
let status: number | null = null;
let pasted: Record<string, string> = {};

/** A service's request log (the emulators run in their own process). */
const log = async (url: string) => (await (await fetch(`${url}/__emulator/log`)).json()) as { method: string; path: string }[];

const restoreBackendMarker = keepBackendMarker();

beforeAll(async () => {
  withoutEnvFallback();
  const blocks = readmeBlocks("### From Python");
  const [build, run] = blocks.filter((b) => b.lang === "sh");
  // The clone: this repository's SDK and examples, through links.
  mkdirSync(clone);
  for (const d of ["sdk", "examples"]) symlinkSync(path.join(ROOT, d), path.join(clone, d));
  mkdirSync(folder);
  for (const b of blocks.filter((b) => b.lang !== "sh")) writeFileSync(path.join(folder, fileOf(b)), `${b.text}\n`);
  releaseHost = await startReleaseHost();
  // `npm run emulators` is the clone's setup, then this.
  emulators = spawn(path.join(ROOT, "node_modules/.bin/node"), [path.join(ROOT, "dist/emulators/main.js")], {
    env: { ...process.env, ...FREE_EMULATOR_PORTS },
    stdio: ["ignore", "pipe", "inherit"],
  });
  pasted = await pastedExports(emulators);
  const env: Record<string, string> = {
    ...newUserEnv(scratch),
    PULUMI_OPS_QUIET: "0",
    // The CLI and its language hosts; the machine's python3 and the rest of its PATH, not this repository's
    // node_modules/.bin (its plugin there would be used instead of the one `pulumi install` fetches).
    PATH: [
      path.join(ROOT, ".tools/pulumi/bin"),
      ...(process.env.PATH ?? "").split(":").filter((d) => !d.startsWith(path.join(ROOT, "node_modules"))),
    ].join(":"),
    ...releaseHost.env,
  };
  delete env.PULUMI_CONFIG_PASSPHRASE;
  delete env.PIP_FIND_LINKS;
  mkdirSync(env.PULUMI_HOME, { recursive: true });
  mkdirSync(path.join(scratch, "state"));
  const exports = Object.entries(pasted)
    .map(([k, v]) => `export ${k}=${v}`)
    .join("\n");
  const script = ["set -euo pipefail", exports, `cd "${clone}"`, build.text, `cd "${folder}"`, run.text].join("\n");
  // Not spawnSync: the release host answers from this process, so its event loop must run meanwhile.
  const result = await new Promise<{ status: number | null; out: string }>((resolve) => {
    const shell = spawn("bash", ["-c", script], { env, stdio: ["ignore", "pipe", "pipe"], timeout: 900_000 });
    let out = "";
    shell.stdout.on("data", (d: Buffer) => (out += d.toString()));
    shell.stderr.on("data", (d: Buffer) => (out += d.toString()));
    shell.on("close", (code) => resolve({ status: code, out }));
  });
  printed = result.out;
  status = result.status;
}, 960_000);

afterAll(() => {
  emulators?.kill("SIGTERM");
  releaseHost?.stop();
  rmSync(path.join(ROOT, "sdk/python/build"), { recursive: true, force: true });
  restoreBackendMarker();
  rmSync(scratch, { recursive: true, force: true });
});

describe("README's Python path, run as written from an empty folder", { timeout: 60_000 }, () => {
  it("every command goes through: the wheel, login, stack init, install, preview, up, output, destroy", () => {
    expect(status, printed).toBe(0);
    expect(printed).toMatch(/\+ 3 to create/); // the record, the skill and the stack (get_zone is a function)
    expect(printed).not.toMatch(/using pulumi-resource-ops from \$PATH/);
    expect(printed).toMatch(/^www\.example\.com$/m);
    expect(printed).toMatch(/- \d+ deleted/);
    expect(releaseHost!.fetched).toHaveLength(1); // the plugin, fetched by `pulumi install`
  });

  it("the services saw the program: the record made and removed, the skill published", async () => {
    const edge = await log(pasted.EDGE_BASE_URL);
    expect(edge.map((e) => `${e.method} ${e.path}`)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^POST .*\/dns_records$/), expect.stringMatching(/^DELETE .*\/dns_records\/\w+$/)]),
    );
    expect((await log(pasted.SKILLS_URL)).map((e) => `${e.method} ${e.path}`)).toContain("PUT /api/skills/oven-care");
  });
});

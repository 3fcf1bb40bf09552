/**
 * pulumi-ops from Python installed the way a Python team installs a Pulumi provider, through the real engine: the
 * SDK generated into the repository (sdk/python, checked against the generator here) built as a wheel, found by pip
 * through PIP_FIND_LINKS; `pulumi install` makes the clean virtual environment Pulumi.yaml's `virtualenv` names and
 * installs requirements.txt into it; `pulumi` runs with **no Node on PATH** and an empty PULUMI_HOME.
 * The wheel's pulumi-plugin.json names the plugin and where releases live; the engine fetches the plugin tarball
 * itself, from a local HTTP server standing in for the release host (PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES, as
 * Pulumi documents for mirrors), and runs the standalone executable (scripts/build-plugin.ts). The program
 * (test/programs/python) creates, updates and destroys DNS records and a skill and calls two functions, with
 * credentials from the same stack config keys as a TypeScript program's (`ops:edgeApiToken`, ...).
 */
import { execFile, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_TOKEN, EdgeEmulator, SKILLS_PUBLISH_TOKEN, SkillsEmulator } from "../../emulators";
import { engineStack, ROOT } from "../../scripts/engine";
import { withoutEnvFallback, type EngineStack } from "../helpers/engine";
import { startReleaseHost, VERSION, type ReleaseHost } from "../helpers/release-host";

const run = promisify(execFile); // async: the emulators answer from this process
const PROJECT_PYTHON = path.join(ROOT, ".tools/python/bin/python");
const PROGRAM = path.join(ROOT, "test/programs/python");
const VENV = path.join(PROGRAM, "venv"); // Pulumi.yaml's `virtualenv: venv`

let edge: EdgeEmulator, skills: SkillsEmulator;
let engine: EngineStack;
let scratch: string;
let releaseHost: ReleaseHost;
const records = () => [...[...edge.zones.values()].find((z) => z.name === "example.com")!.records.values()];
const writes = () => [...edge.log, ...skills.log].filter((e) => e.method !== "GET");
const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((n) => (statSync(path.join(dir, n)).isDirectory() ? files(path.join(dir, n)).map((f) => path.join(n, f)) : [n]));

beforeAll(async () => {
  withoutEnvFallback();
  scratch = mkdtempSync(path.join(tmpdir(), "pulumi-ops-python-"));
  releaseHost = await startReleaseHost();
  // The package: a wheel of sdk/python, where pip finds it (a release's wheel; here PIP_FIND_LINKS, as a user would).
  await run(PROJECT_PYTHON, [
    "-m",
    "pip",
    "wheel",
    "--quiet",
    "--no-deps",
    "--no-build-isolation",
    "-w",
    path.join(scratch, "wheels"),
    path.join(ROOT, "sdk/python"),
  ]);
  rmSync(path.join(ROOT, "sdk/python/build"), { recursive: true, force: true });
  rmSync(VENV, { recursive: true, force: true }); // a clean virtual environment, made by `pulumi install` below
  // The machine's Python, and nothing else of this machine: no Node on the engine's PATH.
  const base = (await run(PROJECT_PYTHON, ["-c", "import sys; print(sys._base_executable)"])).stdout.trim();
  mkdirSync(path.join(scratch, "bin"));
  symlinkSync(base, path.join(scratch, "bin/python3"));
  [edge, skills] = await Promise.all([
    new EdgeEmulator().start(),
    new SkillsEmulator({ publishToken: SKILLS_PUBLISH_TOKEN, allowDelete: true }).start(),
  ]);
  // The same stack config keys a TypeScript program uses: a stack moved to Python keeps its config.
  engine = await engineStack(
    PROGRAM,
    {
      "ops:edgeBaseUrl": { value: edge.url },
      "ops:edgeApiToken": { value: DEMO_TOKEN, secret: true },
      "ops:skillsUrl": { value: skills.url },
      "ops:skillsToken": { value: SKILLS_PUBLISH_TOKEN, secret: true },
    },
    "python",
    {
      PULUMI_OPS_QUIET: "0",
      PIP_FIND_LINKS: path.join(scratch, "wheels"),
      // No Node, no npm, no repository tools, no active environment: the machine's python3 and the Pulumi CLI with
      // its Python host, which runs the program in Pulumi.yaml's `virtualenv`.
      PATH: `${path.join(scratch, "bin")}:${path.join(ROOT, ".tools/pulumi/bin")}`,
      ...releaseHost.env,
    },
  );
}, 900_000);

afterAll(async () => {
  await engine?.dispose();
  await Promise.all([edge?.stop(), skills?.stop()]);
  releaseHost?.stop();
  rmSync(VENV, { recursive: true, force: true });
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe("a Python program through the generated SDK and the plugin", { timeout: 300_000 }, () => {
  it("1. sdk/python is what the generator makes of schema.json today, and names the plugin and its release host", async () => {
    const fresh = path.join(scratch, "generated");
    await run(path.join(ROOT, ".tools/pulumi/bin/pulumi-ops-sdkgen"), [path.join(ROOT, "schema.json"), fresh]);
    const committed = path.join(ROOT, "sdk/python");
    const listed = files(fresh).sort();
    expect(
      files(committed)
        .filter((f) => !f.startsWith("build/") && !f.includes(".egg-info"))
        .sort(),
      "regenerate: .tools/pulumi/bin/pulumi-ops-sdkgen schema.json sdk/python",
    ).toEqual(listed);
    for (const f of listed)
      expect(readFileSync(path.join(committed, f), "utf8"), `sdk/python/${f} is stale`).toBe(readFileSync(path.join(fresh, f), "utf8"));
    const plugin = JSON.parse(readFileSync(path.join(committed, "pulumi_ops/pulumi-plugin.json"), "utf8"));
    expect(plugin).toEqual({
      resource: true,
      name: "ops",
      version: JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")).version,
      server: expect.stringMatching(/\/releases\/download\/v\$\{VERSION\}$/),
    });
    const record = readFileSync(path.join(committed, "pulumi_ops/edge/dns_record.py"), "utf8");
    expect(record).toContain(`super(DnsRecord, __self__).__init__(\n            'ops:edge:DnsRecord'`);
    // The engine's PATH has no Node: what runs the plugin is the downloaded executable.
    expect(spawnSync("/bin/sh", ["-c", "command -v node || command -v npm"], { env: { PATH: engine.cli.env.PATH } }).status).not.toBe(0);
  });

  it("1b. `pulumi install` makes the virtual environment Pulumi.yaml names and installs requirements.txt into it", async () => {
    const { stdout, stderr } = await run(engine.cli.command, ["install"], { cwd: PROGRAM, env: engine.cli.env, timeout: 600_000 });
    expect(stdout + stderr).toMatch(/pulumi-ops/);
    const installed = (await run(path.join(VENV, "bin/python"), ["-c", "import pulumi_ops, pulumi; print(pulumi_ops.__file__)"])).stdout;
    expect(installed).toContain(path.join(VENV, "lib"));
    // ... and fetches the plugin the wheel names into the empty PULUMI_HOME, as for any provider.
    expect(releaseHost.fetched).toEqual([`/pulumi-resource-ops-v${VERSION}-linux-amd64.tar.gz`]);
  });

  it("2. preview runs the fetched plugin (not one from PATH), shows the creates, runs the functions, and sends no write", async () => {
    const preview = await engine.stack.preview();
    expect(preview.changeSummary.create).toBe(4); // two records, the skill, the stack
    expect(writes()).toEqual([]);
    expect(releaseHost.fetched).toHaveLength(1); // not fetched again
    const installed = path.join(engine.scratch, `home/plugins/resource-ops-v${VERSION}/pulumi-resource-ops`);
    expect(existsSync(installed)).toBe(true);
    expect(preview.stderr + preview.stdout).not.toMatch(/using pulumi-resource-ops from \$PATH/);
  });

  it("3. bad input is refused at preview, naming the property and the fix, in one line: no traceback from the program", async () => {
    await engine.stack.setConfig("python-door:address", { value: "203.0.113.300" });
    let out = "";
    const failed = await engine.stack.preview({ onOutput: (o) => (out += o) }).catch((e: Error) => e);
    await engine.stack.removeConfig("python-door:address");
    expect(String(failed)).toMatch(/content/);
    expect(String(failed)).toMatch(/IPv4/);
    // The engine ends the language host with SIGINT: the program dies at once, as a Node one does, instead of
    // printing KeyboardInterrupt's traceback and hanging until the SIGKILL 5 s later (scripts/install-python.sh).
    const all = `${out}\n${String(failed)}`;
    expect(all).not.toMatch(/Traceback|KeyboardInterrupt/);
    const diagnostics = out.slice(out.indexOf("Diagnostics:"));
    expect(diagnostics.split("must be an IPv4 address").length - 1, diagnostics).toBe(1);
    expect(engine.running(), "processes of the failed preview still alive").toEqual([]);
    expect(writes()).toEqual([]);
  });

  it("4. up creates the records and the skill; the functions' results reach the outputs", async () => {
    const up = await engine.stack.up();
    expect(up.summary.resourceChanges?.create).toBe(4);
    const zone = [...edge.zones.values()].find((z) => z.name === "example.com")!;
    expect(up.outputs.zoneId.value).toBe(zone.id); // edge.get_zone, invoked through the plugin
    expect(up.outputs.hostname.value).toBe("www.example.com");
    expect(up.outputs.skillName.value).toBe(skills.skills.get("oven-care")!.name);
    expect(
      records()
        .map((r) => `${r.type} ${r.name} ${r.content}`)
        .sort(),
    ).toEqual(["A www.example.com 203.0.113.10", "CNAME api.example.com www.example.com"]);
    const state = await engine.stack.exportStack();
    expect(state.deployment.resources.map((r: { type: string }) => r.type)).toEqual(
      expect.arrayContaining(["ops:edge:DnsRecord", "ops:skills:Skill", "pulumi:providers:ops"]),
    );
    expect(engine.backendText()).not.toContain(DEMO_TOKEN);
    expect(engine.backendText()).not.toContain(SKILLS_PUBLISH_TOKEN);
  });

  it("5. a second up changes nothing, and search_skills now finds the skill", async () => {
    const up = await engine.stack.up();
    expect(up.summary.resourceChanges).toEqual({ same: 4 });
    expect(up.outputs.skillsFound.value).toEqual(["oven-care"]);
  });

  it("6. changed inputs update the record and the skill in place", async () => {
    await engine.stack.setConfig("python-door:address", { value: "203.0.113.20" });
    await engine.stack.setConfig("python-door:skillVersion", { value: "1.1.0" });
    const before = records().find((r) => r.type === "A")!.id;
    const up = await engine.stack.up();
    expect(up.summary.resourceChanges).toMatchObject({ update: 2, same: 2 });
    const a = records().find((r) => r.type === "A")!;
    expect([a.id, a.content]).toEqual([before, "203.0.113.20"]);
    expect(skills.skills.get("oven-care")!.version).toBe("1.1.0");
  });

  it("6b. refresh reads everything back and finds no drift", async () => {
    const refresh = await engine.stack.refresh();
    expect(refresh.summary.resourceChanges).toEqual({ same: 4 });
  });

  it("7. destroy leaves nothing", async () => {
    await engine.stack.destroy();
    expect(records()).toEqual([]);
    expect(skills.skills.size).toBe(0);
  });
});

/**
 * A stack moved from the TypeScript classes (dynamic resources, `pulumi-nodejs:dynamic/edge:DnsRecord`) to the
 * plugin's types (`ops:edge:DnsRecord`), as docs/reference/README.md says to do it, with 0 writes to the service:
 * `pulumi state delete` of each dynamic resource (it forgets, the object stays), then `pulumi import --file` with the
 * ids the old state held takes them over through the plugin (downloaded from the release host stood in for on
 * loopback), and the program in the new language, declaring the same resources, previews with no change. Both programs share one project name, stack and backend, as a team's move does.
 */
import { execFile, execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_TOKEN, EdgeEmulator } from "../../emulators";
import { engineStack, ROOT } from "../../scripts/engine";
import { withoutEnvFallback, type EngineStack } from "../helpers/engine";
import { startReleaseHost, VERSION, type ReleaseHost } from "../helpers/release-host";

const run = promisify(execFile);
let edge: EdgeEmulator;
let ts: EngineStack, yaml: EngineStack | undefined;
let releaseHost: ReleaseHost;
const writes = () => edge.log.filter((e) => e.method !== "GET").map((e) => `${e.method} ${e.path}`);
const ids: Record<string, string> = {};

beforeAll(async () => {
  withoutEnvFallback();
  releaseHost = await startReleaseHost();
  edge = await new EdgeEmulator().start();
  ts = await engineStack(
    path.join(ROOT, "test/programs/migrate/ts"),
    { "ops:edgeBaseUrl": { value: edge.url }, "ops:edgeApiToken": { value: DEMO_TOKEN, secret: true } },
    "prod",
  );
}, 600_000);

afterAll(async () => {
  await yaml?.dispose();
  await ts?.dispose();
  await edge?.stop();
  releaseHost?.stop();
});

describe("from the TypeScript classes to the plugin's types, 0 writes", { timeout: 300_000 }, () => {
  it("1. the TypeScript stack makes a record and a page rule (dynamic resources)", async () => {
    const up = await ts.stack.up();
    ids.www = up.outputs.wwwId.value;
    ids.cache = up.outputs.cacheId.value;
    const state = await ts.stack.exportStack();
    expect(state.deployment.resources.map((r: { type: string }) => r.type)).toEqual(
      expect.arrayContaining(["pulumi-nodejs:dynamic/edge:DnsRecord", "pulumi-nodejs:dynamic/edge:PageRule"]),
    );
  });

  it("2. pulumi state delete forgets them and their dynamic provider, and writes nothing", async () => {
    edge.log.length = 0;
    const state = await ts.stack.exportStack();
    // The resources, then their dynamic provider (the new program's engine has no Node to load it with).
    const dynamic = state.deployment.resources.filter((x: { type: string }) => x.type.startsWith("pulumi-nodejs:dynamic/"));
    const provider = state.deployment.resources.filter((x: { type: string }) => x.type === "pulumi:providers:pulumi-nodejs");
    for (const r of [...dynamic, ...provider]) {
      execFileSync(ts.cli.command, ["state", "delete", r.urn, "--yes", "--stack", "prod"], {
        env: ts.cli.env,
        cwd: ts.cli.cwd,
        stdio: "pipe",
      });
    }
    expect(writes()).toEqual([]);
    expect([...[...edge.zones.values()].find((z) => z.name === "example.com")!.records.values()]).toHaveLength(1);
  });

  it("3. pulumi import --file takes both over by id through the plugin with 0 writes; the YAML program then shows no change", async () => {
    yaml = await engineStack(
      path.join(ROOT, "test/programs/migrate/yaml"),
      {
        "ops:edgeBaseUrl": { value: edge.url },
        "ops:edgeApiToken": { value: DEMO_TOKEN, secret: true },
      },
      "prod",
      { PATH: path.join(ROOT, ".tools/pulumi/bin"), PULUMI_BACKEND_URL: `file://${ts.scratch}/state`, ...releaseHost.env },
    );
    const plugin = { version: VERSION, pluginDownloadURL: "https://github.com/pulumi-ops/pulumi-ops/releases/download/v${VERSION}" };
    const file = path.join(yaml.scratch, "import.json");
    writeFileSync(
      file,
      JSON.stringify({
        resources: [
          { type: "ops:edge:DnsRecord", name: "www", id: ids.www, ...plugin },
          { type: "ops:edge:PageRule", name: "cache", id: ids.cache, ...plugin },
        ],
      }),
    );
    edge.log.length = 0;
    // Asynchronously: the emulator and the release host answer from this process.
    const { stdout: imported } = await run(
      yaml.cli.command,
      ["import", "--file", file, "--yes", "--generate-code=false", "--stack", "prod", "--non-interactive"],
      { env: yaml.cli.env, cwd: yaml.cli.cwd, encoding: "utf8" },
    ).catch((e: Error & { stdout: string; stderr: string }) => {
      throw new Error(`pulumi import failed:\n${e.stdout}\n${e.stderr}`);
    });
    expect(imported).toMatch(/2 imported/);
    expect(writes()).toEqual([]);
    const preview = await yaml.stack.preview({ expectNoChanges: true });
    expect(preview.changeSummary).toEqual({ same: 3 });
    expect(writes()).toEqual([]);
    const state = await yaml.stack.exportStack();
    expect(state.deployment.resources.map((r: { type: string }) => r.type)).toEqual(
      expect.arrayContaining(["ops:edge:DnsRecord", "ops:edge:PageRule"]),
    );
    expect(state.deployment.resources.some((r: { type: string }) => r.type.startsWith("pulumi-nodejs:dynamic/"))).toBe(false);
  });
});

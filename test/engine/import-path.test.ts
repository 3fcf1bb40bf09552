/**
 * `pulumi-ops import` as a user runs it (issue 43): pulumi-ops installed from its packed tarball into a tools folder,
 * `npx pulumi-ops import <dir> --zone …` run from a folder with no package.json, the written program installed with
 * npm in a fresh folder, then the engine:
 * - the preview says what each resource will adopt and sends no write; the up takes every object over with 0 writes;
 * - every resource is protected: `pulumi destroy` fails with the engine's message and deletes nothing;
 * - with protection lifted, destroy deletes the zone's records and the next up has every record back (records of
 *   one type and name included: two MX, two A, two TXT, two CAA), each once.
 */
import { execFile, execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_TOKEN, EdgeEmulator } from "../../emulators";
import { call, checkForEngine } from "../../provider/door";
import { engineStack, ROOT } from "../../scripts/engine";
import { withoutEnvFallback, type EngineStack } from "../helpers/engine";

const run = promisify(execFile); // async: the emulator answers from this process
const scratch = mkdtempSync(path.join(tmpdir(), "pulumi-ops-import-path-"));
const tools = path.join(scratch, "tools");
const imported = path.join(scratch, "imported");
let edge: EdgeEmulator;
let engine: EngineStack;
let cliOutput = "";

const zone = () => [...edge.zones.values()].find((z) => z.name === "example.com")!;
const contents = () => [...zone().records.values()].map((r) => `${r.type} ${r.name} ${r.content}`).sort();
const writes = () =>
  edge.log.filter((l) => !["GET", "HEAD"].includes(l.method) && !l.path.startsWith("/__")).map((l) => `${l.method} ${l.path}`);
let seeded: string[] = [];

const SEED: Record<string, unknown>[] = [
  { type: "MX", name: "@", content: "mx1.example.net", priority: 10 },
  { type: "MX", name: "@", content: "mx2.example.net", priority: 20 },
  { type: "A", name: "www", content: "203.0.113.1", ttl: 300 },
  { type: "A", name: "www", content: "203.0.113.2", ttl: 300 },
  { type: "TXT", name: "@", content: "v=spf1 -all" },
  { type: "TXT", name: "@", content: "site-verification=abc123" },
  { type: "CAA", name: "@", data: { flags: 0, tag: "issue", value: "letsencrypt.org" } },
  { type: "CAA", name: "@", data: { flags: 0, tag: "iodef", value: "mailto:security@example.com" } },
  { type: "CNAME", name: "api", content: "www.example.com", proxied: true },
];

beforeAll(async () => {
  withoutEnvFallback();
  edge = await new EdgeEmulator().start();
  Object.assign(process.env, { EDGE_BASE_URL: edge.url, EDGE_API_TOKEN: DEMO_TOKEN });
  // Made out of band (by hand, by another tool), as the import finds a zone.
  for (const r of SEED) {
    const checked = await checkForEngine("edge:DnsRecord", {}, { zoneName: "example.com", ...r });
    expect(checked.failures).toEqual([]);
    await call("edge:DnsRecord", "create", [checked.inputs]);
  }
  seeded = contents();
  // Installed as a user installs it: the packed tarball, into a tools folder.
  const tarball = execFileSync("npm", ["pack", "--silent", "--pack-destination", scratch], { cwd: ROOT, encoding: "utf8" })
    .trim()
    .split("\n")
    .pop()!;
  mkdirSync(tools, { recursive: true });
  writeFileSync(
    path.join(tools, "package.json"),
    JSON.stringify({ name: "tools", private: true, dependencies: { "pulumi-ops": `file:../${tarball}`, "@pulumi/pulumi": "3.259.0" } }),
  );
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"], {
    cwd: tools,
    stdio: "pipe",
    timeout: 240_000,
  });
}, 600_000);

afterAll(async () => {
  await engine?.dispose();
  await edge?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

describe("pulumi-ops import, installed from its tarball, into a fresh folder", { timeout: 600_000 }, () => {
  it("writes a protected program into the folder given as <dir>, depending on the tarball it was installed from, and says what to run next", async () => {
    // Run from a folder with no package.json: the dependency still follows the install, not the npm registry.
    const { stdout } = await run(
      process.execPath,
      [path.join(tools, "node_modules/pulumi-ops/dist/provider/cli/main.js"), "import", "imported", "--zone", "example.com"],
      { cwd: scratch, env: process.env },
    );
    cliOutput = stdout;
    expect(stdout).toMatch(/12 objects written/); // nine records and the zone's three documented settings
    const pkg = JSON.parse(readFileSync(path.join(imported, "package.json"), "utf8"));
    expect(pkg.dependencies["pulumi-ops"]).toMatch(/^file:\.\.\/pulumi-ops-[\d.]+\.tgz$/);
    const index = readFileSync(path.join(imported, "index.ts"), "utf8");
    expect(index.match(/, \{ protect: true \}\);/g)).toHaveLength(12);
    expect(stdout).toMatch(/Next:\n {2}cd imported\n {2}npm install\n {2}pulumi stack init/);
    expect(stdout).toMatch(/pulumi state delete <urn>/);
  });

  it("installs with npm in its folder; the preview says what it adopts and writes nothing; the up takes every object over with 0 writes", async () => {
    execFileSync("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"], {
      cwd: imported,
      stdio: "pipe",
      timeout: 240_000,
    });
    engine = await engineStack(
      imported,
      { "ops:edgeBaseUrl": { value: edge.url }, "ops:edgeApiToken": { value: DEMO_TOKEN, secret: true } },
      "imported",
      { PULUMI_OPS_QUIET: "0" },
    );
    edge.log.splice(0);
    let said = "";
    await engine.stack.preview({ onOutput: (o) => (said += o) });
    expect(new Set(said.match(/will adopt [^\n]*/g)).size).toBe(9);
    expect(said).not.toMatch(/warning:/);
    expect(writes()).toEqual([]);
    await engine.stack.up();
    expect(writes()).toEqual([]);
    expect(contents()).toEqual(seeded);
    await engine.stack.preview({ expectNoChanges: true });
  });

  it("a protected resource survives pulumi destroy, with the engine's message", async () => {
    edge.log.splice(0);
    const failed = await engine.stack.destroy().then(
      () => "destroyed",
      (e: Error) => String(e),
    );
    expect(failed).toMatch(/protected/);
    expect(writes()).toEqual([]);
    expect(contents()).toEqual(seeded);
  });

  it("with protection lifted, destroy deletes them, and the next up has every record back, each once", async () => {
    const index = path.join(imported, "index.ts");
    writeFileSync(index, readFileSync(index, "utf8").replaceAll(", { protect: true });", ");"));
    await engine.stack.up();
    await engine.stack.destroy();
    expect(contents()).toEqual([]);
    await engine.stack.up();
    expect(contents()).toEqual(seeded);
    const ids = [...zone().records.keys()];
    expect(new Set(ids).size).toBe(seeded.length);
    expect(cliOutput).toBeTruthy();
  });
});

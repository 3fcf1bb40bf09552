/**
 * pulumi-ops installed the way users install it: `npm pack`, then the npm client installs the tarball into a fresh
 * program outside the repository (no links, no repository paths) beside the program's own, newer @pulumi/pulumi.
 * @pulumi/pulumi is a peer dependency, so the program has exactly one copy of the SDK (a pinned dependency made
 * two), and the real engine takes that program through preview, up, a no-op up and destroy against the emulator.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_TOKEN, EdgeEmulator } from "../../emulators";
import { engineStack, ROOT } from "../../scripts/engine";
import { withoutEnvFallback, type EngineStack } from "../helpers/engine";

/** A newer SDK than the one this repository pins, as a user's program would have. */
const USER_SDK = "3.270.0";
const scratch = mkdtempSync(path.join(tmpdir(), "pulumi-ops-install-"));
const program = path.join(scratch, "program");
let edge: EdgeEmulator;
let engine: EngineStack;

beforeAll(async () => {
  withoutEnvFallback();
  const tarball = execFileSync("npm", ["pack", "--silent", "--pack-destination", scratch], { cwd: ROOT, encoding: "utf8" }).trim().split("\n").pop()!;
  execFileSync("mkdir", ["-p", program]);
  writeFileSync(path.join(program, "Pulumi.yaml"), "name: installed\nruntime: nodejs\n");
  writeFileSync(path.join(program, "package.json"), JSON.stringify({
    name: "installed", private: true, main: "index.ts",
    dependencies: { "pulumi-ops": `file:${path.join(scratch, tarball)}`, "@pulumi/pulumi": USER_SDK, typescript: "5.9.3" },
  }));
  writeFileSync(path.join(program, "index.ts"), [
    'import * as ops from "pulumi-ops";',
    'const www = new ops.edge.DnsRecord("www", { zoneName: "example.com", type: "A", name: "www", content: "203.0.113.10", ttl: 300 });',
    "export const hostname = www.hostname;",
    "",
  ].join("\n"));
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"], { cwd: program, stdio: "pipe", timeout: 240_000 });
  edge = await new EdgeEmulator().start();
  engine = await engineStack(program, { "ops:edgeBaseUrl": { value: edge.url }, "ops:edgeApiToken": { value: DEMO_TOKEN, secret: true } }, "installed");
}, 300_000);

afterAll(async () => {
  await engine?.stack.destroy().catch(() => undefined);
  await engine?.dispose();
  await edge?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

describe("installed from the packed tarball", { timeout: 300_000, sequential: true }, () => {
  it("the program has one copy of @pulumi/pulumi: its own", () => {
    // Every installed copy, by its directory (a deduped reference is listed once).
    const copies = execFileSync("npm", ["ls", "@pulumi/pulumi", "--all", "--parseable"], { cwd: program, encoding: "utf8" }).trim().split("\n");
    expect([...new Set(copies)]).toEqual([path.join(program, "node_modules/@pulumi/pulumi")]);
    expect(JSON.parse(execFileSync("node", ["-p", "JSON.stringify(require('@pulumi/pulumi/package.json').version)"], { cwd: program, encoding: "utf8" }))).toBe(USER_SDK);
  });

  it("previews, applies, changes nothing on a second up, and destroys through the engine", async () => {
    const preview = await engine.stack.preview();
    expect(preview.changeSummary.create).toBe(2);
    expect(edge.log.filter((e) => e.method !== "GET")).toEqual([]);
    const up = await engine.stack.up();
    expect(up.outputs.hostname.value).toBe("www.example.com");
    await engine.stack.up({ expectNoChanges: true });
    // Installed under node_modules, the provider is stored in state as a require of its module, not as code.
    const state = await engine.stack.exportStack();
    const record = state.deployment.resources.find((r: { type: string }) => r.type === "pulumi-nodejs:dynamic/edge:DnsRecord");
    expect(record.outputs.__provider).toMatch(/require\("pulumi-ops\/dist\/provider\/providers\/edge-DnsRecord(\.js)?"\)/);
    const destroy = await engine.stack.destroy();
    expect(destroy.summary.resourceChanges).toMatchObject({ delete: 2 });
  });
});

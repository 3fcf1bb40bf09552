/**
 * Moving in with zero writes, through the real engine (issue 49). One zone — records, a redirect rule, a page rule, two
 * settings, a Worker and its route — made on the edge emulator as the service's Terraform provider makes it
 * (test/helpers/cloudflare-states.ts). Its Terraform v5 state migrates to a TypeScript program, and a pulumi-cloudflare
 * export of it to a YAML program run by the YAML language host through the provider plugin: each previews with nothing
 * sent, its first up sends nothing, and the next preview shows no change.
 */
import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DEMO_ACCOUNT, DEMO_TOKEN, EdgeEmulator } from "../../emulators";
import { buildPlugin } from "../../scripts/build-plugin";
import { engineStack, ROOT } from "../../scripts/engine";
import { pulumiCloudflareV6, seedZone, terraformV4SettingsOverride, terraformV5 } from "../helpers/cloudflare-states";
import { withoutEnvFallback, type EngineStack } from "../helpers/engine";
import { VERSION } from "../helpers/release-host";

const run = promisify(execFile); // async: the emulator answers from this process
const BIN = path.join(ROOT, ".tools/pulumi/bin");
const scratch = mkdtempSync(path.join(tmpdir(), "pulumi-ops-migrate-in-"));
let edge: EdgeEmulator;
let engine: EngineStack | undefined;
const zoneId = () => [...edge.zones.values()].find((z) => z.name === "example.com")!.id;
const writes = () => edge.log.filter((l) => l.method !== "GET" && !l.path.startsWith("/__")).map((l) => `${l.method} ${l.path}`);
const config = () => ({ "ops:edgeApiToken": { value: DEMO_TOKEN, secret: true }, "ops:edgeBaseUrl": { value: edge.url } });

/** The zone as the old tool left it, and its state file in the old tool's form. */
async function zoneFrom(state: (zoneId: string, accountId: string) => unknown, file: string): Promise<string> {
  edge.reset();
  await seedZone(edge.url, DEMO_TOKEN, zoneId(), DEMO_ACCOUNT);
  edge.log.splice(0);
  writeFileSync(path.join(scratch, file), JSON.stringify(state(zoneId(), DEMO_ACCOUNT), null, 2));
  return path.join(scratch, file);
}

/** Preview and first up send nothing; the next preview shows no change. */
async function movesInWithZeroWrites(stack: EngineStack): Promise<void> {
  const preview = await stack.stack.preview();
  expect(preview.changeSummary.create).toBe(8); // a set, a rule, a page rule, 2 settings, a script, a route, the stack
  expect(preview.stdout).toMatch(/DnsRecordSet will adopt 6 records already in zone example\.com, making none of them/);
  expect(preview.stdout).toMatch(
    /RulesetRule "old-blog" will adopt the existing http_request_dynamic_redirect rule \(id [0-9a-f]+\) in example\.com: nothing to change/,
  );
  expect(writes()).toEqual([]);
  const up = await stack.stack.up();
  expect(up.summary.resourceChanges?.create).toBe(8);
  expect(writes()).toEqual([]);
  await stack.stack.preview({ expectNoChanges: true });
  expect(writes()).toEqual([]);
}

beforeAll(async () => {
  withoutEnvFallback();
  edge = await new EdgeEmulator().start();
}, 300_000);

afterEach(async () => {
  await engine?.dispose();
  engine = undefined;
});

afterAll(async () => {
  await edge?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

describe("moving in from Terraform and pulumi-cloudflare with zero writes", { timeout: 600_000 }, () => {
  it("a Terraform v5 state, migrated to TypeScript", async () => {
    const state = await zoneFrom(terraformV5, "terraform.tfstate");
    const program = path.join(scratch, "from-terraform");
    const { stdout } = await run(process.execPath, [path.join(ROOT, "dist/provider/cli/main.js"), "migrate", state, "--out", program]);
    expect(stdout).toMatch(/7 resources written/);
    expect(readFileSync(path.join(program, "MIGRATION.md"), "utf8")).toMatch(/cloudflare_zone_dnssec\.main`: no pulumi-ops resource/);
    symlinkSync(path.join(ROOT, "node_modules"), path.join(program, "node_modules"));
    engine = await engineStack(program, config(), "from-terraform", { PULUMI_OPS_QUIET: "0" });
    await movesInWithZeroWrites(engine);
  });

  it("two zones' v4 settings overrides (28 settings read each), migrated one by one onto one backend: three settings each, projects of their own, previews and first ups that send nothing (issue 57)", async () => {
    edge.reset();
    const backend = mkdtempSync(path.join(scratch, "backend-"));
    const stacks: EngineStack[] = [];
    try {
      for (const name of ["example.com", "example.org"]) {
        const z = [...edge.zones.values()].find((x) => x.name === name)!;
        // The zone as the old program left it: three settings changed from what the zone had.
        Object.assign(z.settings, {
          ssl: { value: "full", modified_on: null },
          min_tls_version: { value: "1.2", modified_on: null },
          always_use_https: { value: "on", modified_on: null },
        });
        const file = path.join(scratch, `${name}.tfstate`);
        writeFileSync(file, JSON.stringify(terraformV4SettingsOverride(z.id, name)));
        const program = path.join(scratch, `settings-${name}`);
        const { stdout } = await run(process.execPath, [path.join(ROOT, "dist/provider/cli/main.js"), "migrate", file, "--out", program]);
        expect(stdout).toMatch(/3 resources written/);
        expect(stdout).toMatch(
          /not carried: cloudflare_zone_settings_override\.main\.settings\.binary_ast: binary_ast is not a zone setting the service lists today/,
        );
        expect(readFileSync(path.join(program, "Pulumi.yaml"), "utf8")).toMatch(new RegExp(`^name: ${name.replace(".", "-")}$`, "m"));
        symlinkSync(path.join(ROOT, "node_modules"), path.join(program, "node_modules"));
        // The same stack name on one backend: the projects keep them apart.
        const s = await engineStack(program, config(), "dev", { PULUMI_BACKEND_URL: `file://${backend}`, PULUMI_OPS_QUIET: "0" });
        stacks.push(s);
        edge.log.splice(0);
        const preview = await s.stack.preview();
        expect(preview.changeSummary.create).toBe(4); // three settings and the stack
        const up = await s.stack.up();
        expect(up.summary.resourceChanges?.create).toBe(4);
        await s.stack.preview({ expectNoChanges: true });
        expect(writes()).toEqual([]);
      }
    } finally {
      for (const s of stacks) await s.dispose();
    }
  });

  it("a pulumi-cloudflare v6 export, migrated to Pulumi YAML and run through the plugin", async () => {
    const exported = await zoneFrom(pulumiCloudflareV6, "stack.json");
    const program = path.join(scratch, "from-pulumi-cloudflare");
    const { stdout } = await run(process.execPath, [
      path.join(ROOT, "dist/provider/cli/main.js"),
      "migrate",
      exported,
      "--out",
      program,
      "--language",
      "yaml",
    ]);
    expect(stdout).toMatch(
      /not carried: cloudflare:index\/workersScript:WorkersScript site binding API_KEY: a secret: it stays on the script/,
    );
    expect(stdout).toMatch(/1 objects of other providers left out/);
    engine = await engineStack(program, config(), "from-pulumi-cloudflare", { PATH: BIN, PULUMI_OPS_QUIET: "0" });
    // No registry serves the plugin: installed from the release tarball, as the README says for YAML.
    const [tarball] = buildPlugin(["linux-amd64"]);
    execFileSync(path.join(BIN, "pulumi"), ["plugin", "install", "resource", "ops", VERSION, "--file", tarball], {
      env: { PATH: BIN, PULUMI_HOME: path.join(engine.scratch, "home"), PULUMI_SKIP_UPDATE_CHECK: "true" },
      stdio: "pipe",
    });
    await movesInWithZeroWrites(engine);
  });
});

/**
 * pulumi-ops from Python through the real engine: the Python SDK is generated from schema.json here (never
 * committed), installed into the project's Python (scripts/install-python.sh), and a Python program
 * (test/programs/python) creates, updates and destroys DNS records and a skill, and calls two functions, through
 * the resource plugin `pulumi-resource-ops` found on PATH, with credentials from the same stack config keys as a
 * TypeScript program's (`ops:edgeApiToken`, ...), which the plugin reads through Configure.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_TOKEN, EdgeEmulator, SKILLS_PUBLISH_TOKEN, SkillsEmulator } from "../../emulators";
import { engineStack, ROOT } from "../../scripts/engine";
import { withoutEnvFallback, type EngineStack } from "../helpers/engine";

const run = promisify(execFile); // async: the emulators answer from this process
const PYTHON = path.join(ROOT, ".tools/python/bin/python");

let edge: EdgeEmulator, skills: SkillsEmulator;
let engine: EngineStack;
let sdk: string;
const records = () => [...[...edge.zones.values()].find((z) => z.name === "example.com")!.records.values()];
const writes = () => [...edge.log, ...skills.log].filter((e) => e.method !== "GET");

beforeAll(async () => {
  withoutEnvFallback();
  sdk = mkdtempSync(path.join(tmpdir(), "pulumi-ops-python-sdk-"));
  await run(path.join(ROOT, ".tools/pulumi/bin/pulumi-ops-sdkgen"), [path.join(ROOT, "schema.json"), path.join(sdk, "python")]);
  await run(PYTHON, ["-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation", "--force-reinstall", path.join(sdk, "python")]);
  [edge, skills] = await Promise.all([new EdgeEmulator().start(), new SkillsEmulator({ publishToken: SKILLS_PUBLISH_TOKEN, allowDelete: true }).start()]);
  // The same stack config keys a TypeScript program uses: a stack moved to Python keeps its config.
  engine = await engineStack(path.join(ROOT, "test/programs/python"), {
    "ops:edgeBaseUrl": { value: edge.url },
    "ops:edgeApiToken": { value: DEMO_TOKEN, secret: true },
    "ops:skillsUrl": { value: skills.url },
    "ops:skillsToken": { value: SKILLS_PUBLISH_TOKEN, secret: true },
  }, "python", {
    PULUMI_OPS_QUIET: "0",
    // An activated virtual environment, as a Python user or a CI job has: the Python host (v3.68.0) takes
    // Pulumi.yaml's `virtualenv` option only as a flag, which today's engine no longer passes.
    VIRTUAL_ENV: path.dirname(path.dirname(PYTHON)),
    PATH: `${path.dirname(PYTHON)}:${path.join(ROOT, "node_modules/.bin")}:${path.join(ROOT, ".tools/pulumi/bin")}:${process.env.PATH}`,
  });
}, 300_000);

afterAll(async () => {
  await engine?.dispose();
  await Promise.all([edge?.stop(), skills?.stop()]);
  if (sdk) rmSync(sdk, { recursive: true, force: true });
});

describe("a Python program through the generated SDK and the plugin", { timeout: 300_000, sequential: true }, () => {
  it("1. the SDK generated from schema.json has a module per service, a class per resource and a function per invoke", () => {
    const edgeInit = readFileSync(path.join(sdk, "python/pulumi_ops/edge/__init__.py"), "utf8");
    for (const m of ["dns_record", "page_rule", "get_zone", "get_zone_analytics"]) expect(edgeInit).toContain(`from .${m} import *`);
    const record = readFileSync(path.join(sdk, "python/pulumi_ops/edge/dns_record.py"), "utf8");
    expect(record).toContain(`super(DnsRecord, __self__).__init__(\n            'ops:edge:DnsRecord'`);
  });

  it("2. preview shows the creates, runs the functions, and sends no write", async () => {
    const preview = await engine.stack.preview();
    expect(preview.changeSummary.create).toBe(4); // two records, the skill, the stack
    expect(writes()).toEqual([]);
  });

  it("3. bad input is refused at preview, naming the property and the fix", async () => {
    await engine.stack.setConfig("python-door:address", { value: "203.0.113.300" });
    const failed = await engine.stack.preview().catch((e: Error) => e);
    await engine.stack.removeConfig("python-door:address");
    expect(String(failed)).toMatch(/content/);
    expect(String(failed)).toMatch(/IPv4/);
    expect(writes()).toEqual([]);
  });

  it("4. up creates the records and the skill; the functions' results reach the outputs", async () => {
    const up = await engine.stack.up();
    expect(up.summary.resourceChanges?.create).toBe(4);
    const zone = [...edge.zones.values()].find((z) => z.name === "example.com")!;
    expect(up.outputs.zoneId.value).toBe(zone.id); // edge.get_zone, invoked through the plugin
    expect(up.outputs.hostname.value).toBe("www.example.com");
    expect(up.outputs.skillName.value).toBe(skills.skills.get("oven-care")!.name);
    expect(records().map((r) => `${r.type} ${r.name} ${r.content}`).sort()).toEqual(["A www.example.com 203.0.113.10", "CNAME api.example.com www.example.com"]);
    const state = await engine.stack.exportStack();
    expect(state.deployment.resources.map((r: { type: string }) => r.type)).toEqual(expect.arrayContaining(["ops:edge:DnsRecord", "ops:skills:Skill", "pulumi:providers:ops"]));
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

  it("7. destroy leaves nothing", async () => {
    await engine.stack.destroy();
    expect(records()).toEqual([]);
    expect(skills.skills.size).toBe(0);
  });
});

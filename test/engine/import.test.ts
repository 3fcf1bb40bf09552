/**
 * Taking over what exists, through the real engine. Objects are made out of band in every service; then
 * - `pulumi-ops import` reads a zone, the runner and the registry and writes a TypeScript program: its first up
 *   takes every object over (no object made twice) and the next preview shows no change;
 * - the plugin door imports every importable type by the id the reference gives (`pulumi import --file`);
 * - on the dynamic door the `import` option fails at preview, naming what works instead.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DEMO_ACCOUNT,
  DEMO_TOKEN,
  EdgeEmulator,
  PAGES_APP,
  PAGES_PAGE_TOKEN,
  PagesEmulator,
  POSTS_USER_TOKEN,
  PostsEmulator,
  RunnerEmulator,
  SKILLS_PUBLISH_TOKEN,
  SkillsEmulator,
} from "../../emulators";
import { call, checkForEngine } from "../../provider/door";
import { engineStack, ROOT } from "../../scripts/engine";
import type { EngineStack } from "../helpers/engine";

const run = promisify(execFile); // async: the emulators answer from this process
const scratch = mkdtempSync(path.join(tmpdir(), "pulumi-ops-import-"));
const SKILL_MD = path.join(ROOT, "examples/ai-host/skills/oven-care/SKILL.md");
let edge: EdgeEmulator, pages: PagesEmulator, posts: PostsEmulator, runner: RunnerEmulator, skills: SkillsEmulator;
const engines: EngineStack[] = [];
/** Each object made out of band: its type and the id the reference gives for import. */
const made: { type: string; id: string }[] = [];

/** Every object in the services, counted, and the creates sent since `mark()`: nothing may be made twice. */
const census = () => ({
  records: [...edge.zones.values()].find((z) => z.name === "example.com")!.records.size,
  models: runner.models.size,
  skills: skills.skills.size,
  ruleCreates: edge.log.filter((e) => e.method === "POST" && /pagerules|rulesets|dns_records$/.test(e.path)).length,
  postCreates: [...pages.log, ...posts.log].filter((e) => e.method === "POST" && /feed|threads/.test(e.path)).length,
});
const mark = () => [edge, pages, posts, runner, skills].forEach((e) => e.log.splice(0));
/** Every write sent to a service since `mark()` (a takeover of objects equal to the program sends none). */
const writes = () =>
  [edge, pages, posts, runner, skills].flatMap((e) =>
    e.log
      .filter((l) => l.method !== "GET" && l.method !== "HEAD" && !l.path.startsWith("/__"))
      .map((l) => `${e.name} ${l.method} ${l.path}`),
  );

async function make(type: string, inputs: Record<string, unknown>): Promise<void> {
  const checked = await checkForEngine(type, {}, inputs);
  expect(checked.failures).toEqual([]);
  made.push({ type, id: (await call(type, "create", [checked.inputs])).id });
}

/** A program directory that resolves pulumi-ops and @pulumi/pulumi from this repository's install. */
function programDir(name: string, index: string): string {
  const dir = path.join(scratch, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "Pulumi.yaml"), `name: ${name}\nruntime: nodejs\n`);
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name, private: true, main: "index.ts" }));
  writeFileSync(path.join(dir, "index.ts"), index);
  symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"));
  return dir;
}

beforeAll(async () => {
  [edge, pages, posts, runner, skills] = await Promise.all([
    new EdgeEmulator().start(),
    new PagesEmulator().start(),
    new PostsEmulator({ processingMs: 200 }).start(),
    new RunnerEmulator({ pullStepMs: 5 }).start(),
    new SkillsEmulator({ publishToken: SKILLS_PUBLISH_TOKEN, allowDelete: true }).start(),
  ]);
  Object.assign(process.env, {
    PULUMI_OPS_QUIET: "1",
    EDGE_BASE_URL: edge.url,
    EDGE_API_TOKEN: DEMO_TOKEN,
    EDGE_ACCOUNT_ID: DEMO_ACCOUNT,
    PAGES_BASE_URL: pages.url,
    PAGES_ACCESS_TOKEN: PAGES_PAGE_TOKEN,
    PAGES_APP_ID: PAGES_APP.id,
    POSTS_BASE_URL: posts.url,
    POSTS_ACCESS_TOKEN: POSTS_USER_TOKEN,
    RUNNER_HOST: runner.url,
    SKILLS_URL: skills.url,
    SKILLS_TOKEN: SKILLS_PUBLISH_TOKEN,
  });
  // Made out of band: by hand, by another tool, before pulumi-ops.
  await make("edge:DnsRecord", { zoneName: "example.com", type: "A", name: "www", content: "203.0.113.10", ttl: 300 });
  await make("edge:DnsRecord", { zoneName: "example.com", type: "CNAME", name: "api", content: "www.example.com", proxied: true });
  await make("edge:DnsRecord", { zoneName: "example.com", type: "MX", name: "@", content: "mail.example.com", priority: 10 });
  await make("edge:DnsRecord", {
    zoneName: "example.com",
    type: "SRV",
    name: "_sip._tcp",
    data: { priority: 10, weight: 5, port: 5060, target: "sip.example.com" },
  });
  await make("edge:DnsRecord", {
    zoneName: "example.com",
    type: "CAA",
    name: "@",
    data: { flags: 0, tag: "issue", value: "letsencrypt.org" },
  });
  await make("edge:PageRule", {
    zoneName: "example.com",
    targets: ["example.com/static/*"],
    actions: [{ id: "cache_level", value: "cache_everything" }],
  });
  await make("edge:FirewallRule", {
    zoneName: "example.com",
    filter: { expression: 'http.request.uri.path eq "/admin"' },
    action: "block",
    description: "admin",
  });
  await make("edge:RateLimit", {
    zoneName: "example.com",
    threshold: 10,
    period: 10,
    action: { mode: "ban", timeout: 10 },
    match: { request: { url: "*/login*" } },
    description: "login",
  });
  await make("runner:RunnerModel", { name: "qwen2.5:0.5b" });
  await make("skills:Skill", { slug: "oven-care", source: SKILL_MD, category: "ops" });
  // A skill published by another tool, outside the skill guide (no prerequisites, no workflows): the registry takes it.
  const loose = await fetch(`${skills.url}/api/skills/quick-note`, {
    method: "PUT",
    headers: { authorization: `Bearer ${SKILLS_PUBLISH_TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify({
      name: "quick-note",
      description: "A short note on proofing dough.",
      instruction: "# Quick note\n\nProof the dough for an hour.\n",
    }),
  });
  expect(loose.ok).toBe(true);
  made.push({ type: "skills:Skill", id: "quick-note" });
  // Types the command does not list, imported through the plugin by their documented ids.
  await make("edge:WorkerScript", {
    accountId: DEMO_ACCOUNT,
    name: "edge-headers",
    content: "export default { fetch() { return new Response('ok') } }",
  });
  await make("edge:ZoneSetting", { zoneName: "example.com", settingId: "ssl", value: "full" });
  await make("pages:PagePost", { pageId: "200000000000001", message: "Hello", published: false });
  await make("pages:PageRole", { pageId: "200000000000001", user: "300000000000003", role: "EDITOR" });
  await make("pages:PageSubscription", { pageId: "200000000000001", subscribedFields: ["feed"] });
  await make("posts:Post", { mediaType: "TEXT", text: "Fresh bread at 7." });
  // A Worker's storage, made by wrangler or the dashboard.
  await make("edge:KvNamespace", { accountId: DEMO_ACCOUNT, title: "site-sessions" });
  await make("edge:R2Bucket", { accountId: DEMO_ACCOUNT, name: "site-files", jurisdiction: "eu" });
  await make("edge:D1Database", { accountId: DEMO_ACCOUNT, name: "site-orders" });
}, 300_000);

afterAll(async () => {
  for (const e of engines) await e.dispose();
  await Promise.all([edge, pages, posts, runner, skills].map((e) => e?.stop()));
  rmSync(scratch, { recursive: true, force: true });
});

describe("taking over what exists", { timeout: 300_000 }, () => {
  let program: string;

  it("1. pulumi-ops import writes a program and an import file for a zone, the runner and the registry", async () => {
    program = path.join(scratch, "imported");
    const { stdout } = await run(
      process.execPath,
      [path.join(ROOT, "dist/provider/cli/main.js"), "import", "--zone", "example.com", "--runner", "--skills", "--out", program],
      { env: process.env },
    );
    expect(stdout).toMatch(/14 objects written/);
    // Run from this clone (not an install): the clone by its path, which `npm install` there links; never a registry
    // version npm cannot find (import-path.test.ts runs it installed from the packed tarball).
    expect(JSON.parse(readFileSync(path.join(program, "package.json"), "utf8")).dependencies["pulumi-ops"]).toBe(
      `file:${path.relative(program, ROOT)}`,
    );
    expect(readFileSync(path.join(program, "index.ts"), "utf8")).toContain(", { protect: true });");
    expect(stdout).toMatch(
      /skill "quick-note" does not follow the skill guide \(line \d+: the prerequisites section .* is missing.*\); written with followGuide: false/,
    );
    const index = readFileSync(path.join(program, "index.ts"), "utf8");
    for (const kind of ["edge.PageRule", "edge.FirewallRule", "edge.RateLimit", "edge.ZoneSetting", "runner.RunnerModel", "skills.Skill"])
      expect(index).toContain(`new ops.${kind}(`);
    expect(index).toMatch(/"settingId": "ssl",\s+"value": "full"/);
    expect(index.match(/new ops\.edge\.DnsRecord\(/g)).toHaveLength(5);
    expect(index).toContain('"data": {');
    expect(index).toContain('"followGuide": false');
    const file = JSON.parse(readFileSync(path.join(program, "import.json"), "utf8"));
    // The edge ids carry their zone (`<zoneId>/<id>`), so the plugin need not search the account's zones.
    expect(file.resources.map((r: { id: string }) => r.id.split("/").pop()).sort()).toEqual(
      [...made.slice(0, 11).map((m) => m.id), "ssl", "always_use_https", "security_level"].sort(),
    );
  });

  it("2. its first up takes every object over, none made twice; the next preview shows no change", async () => {
    symlinkSync(path.join(ROOT, "node_modules"), path.join(program, "node_modules"));
    const engine = await engineStack(program, {}, "imported");
    engines.push(engine);
    mark();
    const before = census();
    const up = await engine.stack.up();
    expect(up.summary.resourceChanges?.create).toBe(15); // fourteen objects and the stack
    expect(census()).toEqual(before);
    // A takeover of objects already as the program says writes nothing, but for the owner's label on each skill
    // (its metadata): the one write that makes it this stack's, so no other stack takes it silently.
    expect(writes().sort()).toEqual(["skills PUT /api/skills/oven-care", "skills PUT /api/skills/quick-note"]);
    expect(skills.skills.get("oven-care")!.metadata).toMatchObject({ "pulumi-ops-stack": "imported/imported" });
    await engine.stack.preview({ expectNoChanges: true });
  });

  it("3. the plugin imports every importable type by the id the reference gives", async () => {
    const dir = programDir("plugin-import", "export {};\n");
    const engine = await engineStack(dir, {}, "plugin-import");
    engines.push(engine);
    const names = made.map((m, i) => `${m.type.split(":")[1].toLowerCase()}-${i}`);
    writeFileSync(
      path.join(dir, "import.json"),
      JSON.stringify({ resources: made.map((m, i) => ({ type: `ops:${m.type}`, name: names[i], id: m.id })) }),
    );
    mark();
    const before = census();
    await run(
      engine.cli.command,
      [
        "import",
        "--file",
        "import.json",
        "--yes",
        "--protect=false",
        "--generate-code=false",
        "--stack",
        "plugin-import",
        "--non-interactive",
      ],
      { cwd: dir, env: engine.cli.env },
    );
    const state = await engine.stack.exportStack();
    const imported = state.deployment.resources.filter((r: { type: string }) => r.type.startsWith("ops:"));
    expect(imported.map((r: { type: string; id: string }) => `${r.type} ${r.id}`).sort()).toEqual(
      made.map((m) => `ops:${m.type} ${m.id}`).sort(),
    );
    expect(census()).toEqual(before);
  });

  it("4. the import option works through the plugin: the resource is taken over, not made again", async () => {
    const dir = programDir(
      "plugin-import-option",
      [
        'import * as pulumi from "@pulumi/pulumi";',
        "class Ops extends pulumi.CustomResource {",
        "  constructor(token: string, name: string, props: pulumi.Inputs, opts?: pulumi.CustomResourceOptions) { super(token, name, props, opts); }",
        "}",
        `new Ops("ops:edge:DnsRecord", "www", { zoneName: "example.com", type: "A", name: "www", content: "203.0.113.10", ttl: 300 }, { import: "${made[0].id}" });`,
        `new Ops("ops:skills:Skill", "oven-care", { slug: "oven-care", source: ${JSON.stringify(SKILL_MD)}, category: "ops" }, { import: "oven-care" });`,
        "",
      ].join("\n"),
    );
    const engine = await engineStack(dir, {}, "plugin-import-option");
    engines.push(engine);
    mark();
    const before = census();
    const preview = await engine.stack.preview();
    expect(preview.changeSummary).toMatchObject({ import: 2 });
    const up = await engine.stack.up();
    expect(up.summary.resourceChanges).toMatchObject({ import: 2 });
    expect(census()).toEqual(before);
    await engine.stack.preview({ expectNoChanges: true });
  });

  it("5. the import option on the dynamic door fails at preview, naming adopt, get and the plugin", async () => {
    const record = made[0].id;
    const dir = programDir(
      "import-option",
      `import * as ops from "pulumi-ops";\nnew ops.edge.DnsRecord("www", { zoneName: "example.com", type: "A", name: "www", content: "203.0.113.10" }, { import: "${record}" });\n`,
    );
    const engine = await engineStack(dir, {}, "import-option");
    engines.push(engine);
    const failed = await engine.stack.preview().catch((e: Error) => e);
    expect(String(failed)).toMatch(
      /the import option cannot work for a TypeScript \(dynamic\) resource\. Declare it with `adopt: true`.*ops\.edge\.DnsRecord\.get\("www", "[0-9a-f]+"\).*pulumi import ops:edge:DnsRecord www <id>/,
    );
  });
});

/**
 * The provider-plugin door through the real engine: a program that registers resources by their schema tokens
 * (test/programs/plugin) is served by `pulumi-resource-ops` found on PATH, with credentials from the environment.
 * Preview without writes, up, no-op up, an update in place, drift found by refresh, destroy; the secret input
 * stays secret (wrapped again by the plugin), and no credential is at rest. Credentials come from the environment here.
 */
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_TOKEN, EdgeEmulator, POSTS_USER_TOKEN, PostsEmulator, SKILLS_PUBLISH_TOKEN, SkillsEmulator } from "../../emulators";
import { engineStack, ROOT } from "../../scripts/engine";
import { withoutEnvFallback, type EngineStack } from "../helpers/engine";

let edge: EdgeEmulator, posts: PostsEmulator, skills: SkillsEmulator;
let engine: EngineStack;
const records = () => [...[...edge.zones.values()].find((z) => z.name === "example.com")!.records.values()];
const writes = () => [...edge.log, ...posts.log, ...skills.log].filter((e) => e.method !== "GET");

beforeAll(async () => {
  withoutEnvFallback();
  [edge, posts, skills] = await Promise.all([
    new EdgeEmulator().start(),
    new PostsEmulator({ processingMs: 0 }).start(),
    new SkillsEmulator({ publishToken: SKILLS_PUBLISH_TOKEN, allowDelete: true }).start(),
  ]);
  // Credentials from the environment, the fallback of both doors (stack config: test/engine/accounts.test.ts).
  engine = await engineStack(path.join(ROOT, "test/programs/plugin"), {}, "plugin", {
    PULUMI_OPS_QUIET: "0",
    EDGE_BASE_URL: edge.url,
    EDGE_API_TOKEN: DEMO_TOKEN,
    POSTS_BASE_URL: posts.url,
    POSTS_ACCESS_TOKEN: POSTS_USER_TOKEN,
    SKILLS_URL: skills.url,
    SKILLS_TOKEN: SKILLS_PUBLISH_TOKEN,
  });
}, 300_000);

afterAll(async () => {
  await engine?.dispose();
  await Promise.all([edge?.stop(), posts?.stop(), skills?.stop()]);
});

describe("the provider plugin through the Pulumi engine", { timeout: 300_000 }, () => {
  it("1. preview shows the creates under the schema's tokens and sends no write", async () => {
    const preview = await engine.stack.preview({ diff: true });
    expect(preview.changeSummary.create).toBe(4); // and the stack
    expect(preview.stdout).toMatch(/wwwHost\s*:\s*"www\.example\.com"/); // an output the inputs decide, known at preview
    expect(writes()).toEqual([]);
  });

  it("2. bad input is refused at preview, with the property and the fix", async () => {
    await engine.stack.setConfig("plugin-door:ttl", { value: "20" });
    const failed = await engine.stack.preview().catch((e: Error) => e);
    await engine.stack.removeConfig("plugin-door:ttl");
    expect(String(failed)).toMatch(/ttl must be 1 \(automatic\) or from 60 to 86400 seconds/);
    expect(writes()).toEqual([]);
  });

  it("3. up creates through the plugin; a second up changes nothing", async () => {
    const up = await engine.stack.up();
    expect(up.summary.resourceChanges?.create).toBe(4);
    expect(up.outputs.hostname.value).toBe("www.example.com");
    expect(records().map((r) => r.name)).toEqual(["www.example.com"]);
    expect([...posts.posts.values()].map((p) => p.text)).toEqual(["a text kept secret through the plugin"]);
    expect([...skills.skills.keys()]).toEqual(["oven-care"]);
    const state = await engine.stack.exportStack();
    const types = state.deployment.resources.map((r: { type: string }) => r.type);
    expect(types).toEqual(expect.arrayContaining(["ops:edge:DnsRecord", "ops:posts:Post", "ops:skills:Skill", "pulumi:providers:ops"]));
    await engine.stack.up({ expectNoChanges: true });
  });

  it("4. the secret input stays secret in outputs, and no credential is at rest", async () => {
    const state = await engine.stack.exportStack();
    const note = state.deployment.resources.find((r: { type: string }) => r.type === "ops:posts:Post");
    expect(JSON.stringify(note.outputs.text)).toMatch(/4dabf18193072939515e22adb298388d/); // a secret in state
    const atRest = engine.backendText();
    for (const s of ["a text kept secret through the plugin", DEMO_TOKEN, POSTS_USER_TOKEN, SKILLS_PUBLISH_TOKEN])
      expect(atRest).not.toContain(s);
  });

  it("5. an input change updates in place; drift made out of band is found by refresh and undone by up", async () => {
    await engine.stack.setConfig("plugin-door:skillVersion", { value: "1.1.0" });
    const up = await engine.stack.up();
    expect(up.summary.resourceChanges).toMatchObject({ update: 1, same: 3 });
    expect(skills.skills.get("oven-care")!.version).toBe("1.1.0");

    records()[0].ttl = 7200; // changed by hand
    const refresh = await engine.stack.refresh();
    expect(refresh.summary.resourceChanges?.update).toBe(1);
    await engine.stack.up();
    expect(records()[0].ttl).toBe(300);
    await engine.stack.up({ expectNoChanges: true });
  });

  it("6. progress and notes appear under the resource they belong to, once (warnings go to the stack level: docs/reviewing.md)", async () => {
    await fetch(`${edge.url}/client/v4/zones/${[...edge.zones.values()][0].id}/dns_records`, {
      method: "POST",
      headers: { authorization: `Bearer ${DEMO_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ type: "A", name: "legacy.example.com", content: "203.0.113.99", ttl: 300 }),
    });
    await engine.stack.setConfig("plugin-door:adoptName", { value: "legacy" });
    const said: { urn?: string; severity?: string; message?: string }[] = [];
    await engine.stack.up({ onEvent: (e) => e.diagnosticEvent && said.push(e.diagnosticEvent) });
    const adoption = said.filter((d) => /adopting the existing A record legacy\.example\.com/.test(d.message ?? ""));
    expect(adoption).toEqual([expect.objectContaining({ severity: "info", urn: expect.stringMatching(/::ops:edge:DnsRecord::adopted$/) })]);
    expect(records().filter((r) => r.name === "legacy.example.com")).toHaveLength(1); // taken over, not made twice
    await engine.stack.removeConfig("plugin-door:adoptName");
    await engine.stack.up();
  });

  it("7. destroy leaves nothing", async () => {
    await engine.stack.destroy();
    expect(records()).toEqual([]);
    expect(posts.posts.size).toBe(0);
    expect(skills.skills.size).toBe(0);
  });
});

/**
 * The read-only functions as the provider plugin serves them (door.invoke, under schema.json's function tokens):
 * every function of the registry against its emulator, its result checked against its result schema; bad
 * arguments come back as failures naming the argument, with nothing sent.
 */
import * as path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ControlEmulator, PAGE_ID } from "../../emulators";
import { call, invoke } from "../../provider/door";
import { functions } from "../../provider/function-registry";
import { useAi } from "../helpers/ai";
import { useEdge, zoneId } from "../helpers/edge";
import { useSocial } from "../helpers/social";

const edge = useEdge();
const { pages, posts } = useSocial();
const { runner, skills } = useAi();
let control: ControlEmulator;
beforeAll(async () => (control = await new ControlEmulator().start()));
afterAll(() => control.stop());
beforeEach(() => {
  control.reset();
  process.env.CONTROL_URL = control.url;
});

const requests = () => edge.log.length + pages.log.length + posts.log.length + runner.log.length + skills.log.length + control.calls.length;

async function publishSkill(): Promise<void> {
  const source = path.resolve(__dirname, "../../examples/ai-host/skills/oven-care/SKILL.md");
  const { inputs } = await call("skills:Skill", "check", [{}, { slug: "oven-care", source, category: "ops" }]);
  await call("skills:Skill", "create", [inputs]);
}

let lastPost = "";
async function publishPost(): Promise<void> {
  const { inputs } = await call("posts:Post", "check", [{}, { text: "Counted." }]);
  lastPost = (await call("posts:Post", "create", [inputs])).id;
}

let lastPagePost = "";
async function publishPagePost(): Promise<void> {
  const { inputs } = await call("pages:PagePost", "check", [{}, { pageId: PAGE_ID, message: "Counted." }]);
  lastPagePost = (await call("pages:PagePost", "create", [inputs])).id;
}

/** Arguments for each function, and what its result must show. */
const cases: Record<string, { args: () => Record<string, unknown>; before?: () => Promise<void>; shows: (r: any) => void }> = {
  "control:listTools": { args: () => ({}), shows: (r) => expect(r.tools.map((t: { name: string }) => t.name)).toContain("screenshot") },
  "control:screenshot": {
    args: () => ({}),
    shows: (r) =>
      expect([r.points.width * 2, Buffer.from(r.pngBase64, "base64").subarray(1, 4).toString()]).toEqual([r.pixels.width, "PNG"]),
  },
  "edge:getCacheStats": { args: () => ({ zoneId: zoneId(edge) }), shows: (r) => expect(r.colos[0]).toHaveProperty("hitRatio") },
  "edge:getSecurityEvents": { args: () => ({ zoneId: zoneId(edge) }), shows: (r) => expect(Array.isArray(r.events)).toBe(true) },
  "edge:getZone": {
    args: () => ({ name: "example.com" }),
    shows: (r) => expect(r).toEqual({ id: zoneId(edge), name: "example.com", status: "active" }),
  },
  "edge:getZoneAnalytics": {
    args: () => ({ zoneId: zoneId(edge), since: -1440 }),
    shows: (r) => expect(r.requests.all).toBeGreaterThanOrEqual(r.requests.cached),
  },
  "edge:getUnmanagedRecords": {
    args: () => ({ zoneName: "example.com" }),
    shows: (r) =>
      expect(r).toMatchObject({ zoneId: zoneId(edge), zoneName: "example.com", total: r.unmanaged.length, apart: [], labelled: [] }),
  },
  "edge:listWorkerScripts": { args: () => ({}), shows: (r) => expect(r.scripts).toEqual([]) },
  "edge:parseZoneFile": {
    args: () => ({ text: "$TTL 300\n@ IN A 203.0.113.10\nwww CNAME @\n", origin: "example.com" }),
    shows: (r) =>
      expect(r).toEqual({
        records: {
          "A:@": { type: "A", name: "@", content: "203.0.113.10", ttl: 300 },
          "CNAME:www": { type: "CNAME", name: "www", content: "example.com", ttl: 300 },
        },
        skipped: [],
        lines: { "A:@": 2, "CNAME:www": 3 },
      }),
  },
  "edge:toZoneFile": {
    args: () => ({
      origin: "example.com",
      records: {
        apex: { type: "A", name: "@", content: "203.0.113.10", ttl: 300 },
        srv: { type: "SRV", name: "_sip._tcp", data: { priority: 10, weight: 5, port: 5060, target: "sip.example.com" }, ttl: 1 },
      },
    }),
    shows: (r) =>
      expect(r.text).toBe(
        "$ORIGIN example.com.\n@           300 IN A      203.0.113.10\n_sip._tcp     1 IN SRV    10 5 5060 sip.example.com.\n",
      ),
  },
  "edge:verifyToken": { args: () => ({}), shows: (r) => expect(r.status).toBe("active") },
  "pages:getPage": { args: () => ({ pageId: PAGE_ID }), shows: (r) => expect(r.name).toBeTruthy() },
  "pages:getPageInsights": {
    args: () => ({ pageId: PAGE_ID, metrics: ["page_follows"] }),
    shows: (r) => expect(r.insights[0].metric).toBe("page_follows"),
  },
  "pages:getPagePostInsights": {
    before: publishPagePost,
    args: () => ({ postId: lastPagePost, metrics: ["post_clicks"] }),
    shows: (r) => expect(r.insights[0]).toEqual({ metric: "post_clicks", period: "lifetime", value: expect.any(Number) }),
  },
  "pages:getPosts": { args: () => ({ pageId: PAGE_ID, limit: 5 }), shows: (r) => expect(Array.isArray(r.posts)).toBe(true) },
  "pages:getRateLimitInfo": { args: () => ({ pageId: PAGE_ID }), shows: (r) => expect(r.pageUsage.callCount).toBeGreaterThanOrEqual(0) },
  "posts:getPostInsights": {
    before: publishPost,
    args: () => ({ postId: lastPost }),
    shows: (r) => expect(r).toEqual({ views: 0, likes: 0, replies: 0, reposts: 0, quotes: 0, shares: 0 }),
  },
  "posts:getPublishingLimit": {
    args: () => ({}),
    shows: (r) => expect(r).toEqual({ quotaUsage: 0, quotaTotal: 250, quotaDurationSeconds: 86_400 }),
  },
  "posts:getPosts": { args: () => ({ limit: 5 }), shows: (r) => expect(Array.isArray(r.posts)).toBe(true) },
  "posts:getProfile": { args: () => ({}), shows: (r) => expect(r.username).toBeTruthy() },
  "runner:listModels": { args: () => ({}), shows: (r) => expect(Array.isArray(r.models)).toBe(true) },
  "runner:listRunningModels": { args: () => ({}), shows: (r) => expect(Array.isArray(r.models)).toBe(true) },
  "skills:getSkill": {
    before: publishSkill,
    args: () => ({ slug: "oven-care" }),
    shows: (r) => expect(r).toMatchObject({ slug: "oven-care", category: "ops" }),
  },
  "skills:getSkillMarkdown": {
    before: publishSkill,
    args: () => ({ slug: "oven-care" }),
    shows: (r) => expect(r.markdown).toMatch(/^---\n/),
  },
  "skills:searchSkills": {
    before: publishSkill,
    args: () => ({ q: "oven" }),
    shows: (r) => expect(r.skills.map((s: { slug: string }) => s.slug)).toEqual(["oven-care"]),
  },
};

describe("functions served as invokes", () => {
  it("every function of the registry has a case here", () => {
    expect(Object.keys(cases).sort()).toEqual(Object.keys(functions).sort());
  });

  for (const [token, c] of Object.entries(cases)) {
    it(`${token} answers in the shape of its result schema`, async () => {
      await c.before?.();
      const { outputs, failures } = await invoke(token, c.args());
      expect(failures).toBeUndefined();
      expect(functions[token].result.parse(outputs)).toEqual(outputs);
      c.shows(outputs);
    });
  }

  it("bad arguments come back as failures naming the argument and the fix, with nothing sent", async () => {
    const before = requests();
    expect((await invoke("edge:getZone", {})).failures).toEqual([{ property: "name", reason: "name is required: set it to text" }]);
    expect((await invoke("edge:getZoneAnalytics", { zoneId: "nope" })).failures).toEqual([
      { property: "zoneId", reason: "zoneId must be the zone's 32-character hexadecimal id" },
    ]);
    expect((await invoke("edge:parseZoneFile", { text: "@ A 203.0.113.1", origin: "example com" })).failures).toEqual([
      { property: "origin", reason: "origin must be the zone's name, such as example.com" },
    ]);
    expect((await invoke("pages:getPosts", { pageId: PAGE_ID, limit: 500 })).failures).toEqual([
      { property: "limit", reason: "limit must be at most 100" },
    ]);
    expect(requests()).toBe(before);
  });

  it("an unknown function says to upgrade; a service error keeps no credential", async () => {
    await expect(invoke("edge:getEverything", {})).rejects.toThrow(/no function edge:getEverything: upgrade/);
    process.env.EDGE_API_TOKEN = "tok-ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcd";
    const err = (await invoke("edge:verifyToken", {}).catch((e: Error) => e)) as Error;
    expect(err.message).toMatch(/token/i);
    expect(err.message).not.toContain("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcd");
  });
});

/**
 * Replacements keep their promise, for every resource type, through the real engine (test/programs/replacements):
 * step 2 replaces each of the 17 resources, and afterwards each service holds the new object once and the old one
 * no more — also where old and new stand for the same thing (a record's type at one name, a subscription or a model
 * moved to another account name for the same service, one host's session, one command's marker), which a
 * create-before-delete replacement would undo with the old object's delete.
 */
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ControlEmulator, DEMO_TOKEN, PAGE_ID, PAGES_USER_TOKEN, POSTS_USER_TOKEN } from "../../emulators";
import { engineStack, ROOT } from "../../scripts/engine";
import { everyServiceConfig, startEveryService, type EveryService } from "../helpers/every-service";
import { withoutEnvFallback, type EngineStack } from "../helpers/engine";

let s: EveryService;
let engine: EngineStack;

async function edgeList(zone: string, what: string): Promise<any[]> {
  const z = [...s.edge.zones.values()].find((x) => x.name === zone)!;
  const res = await fetch(`${s.edge.url}/client/v4/zones/${z.id}/${what}`, { headers: { authorization: `Bearer ${DEMO_TOKEN}` } });
  const result = ((await res.json()) as { result: any[] | { rules: any[] } | null }).result;
  return Array.isArray(result) ? result : (result?.rules ?? []); // a phase's entry point answers its rules
}
const records = (zone: string, name: string) =>
  [...[...s.edge.zones.values()].find((z) => z.name === zone)!.records.values()]
    .filter((r) => r.name === `${name}.${zone}`)
    .map((r) => r.type);
const level = (zone: string) => [...s.edge.zones.values()].find((z) => z.name === zone)!.settings.security_level.value;

beforeAll(async () => {
  withoutEnvFallback();
  s = await startEveryService(true);
  await s.control.stop();
  s.control = await new ControlEmulator({ dialogDelayMs: 300 }).start();
  const config = everyServiceConfig(s);
  engine = await engineStack(
    path.join(ROOT, "test/programs/replacements"),
    {
      ...config,
      "ops:controlUrl": { value: s.control.url },
      "ops:edgeAccountId": { value: "0a1b2c3d4e5f60718293a4b5c6d7e8f9" },
      "replacements:vncPassword": { value: "kiosk-password-1", secret: true },
      "replacements:step": { value: "1" },
    },
    "replacements",
    { PULUMI_OPS_QUIET: "0" },
  );
  // Account `b`: the same services and credentials under another name, so a move is the same object on the service.
  for (const [k, v] of Object.entries({
    pagesBaseUrl: s.pages.url,
    pagesAccessToken: PAGES_USER_TOKEN,
    postsBaseUrl: s.posts.url,
    postsAccessToken: POSTS_USER_TOKEN,
    runnerHost: s.runner.url,
  })) {
    await engine.stack.setConfig(`ops:accounts.b.${k}`, { value: v, secret: /Token$/.test(k) }, true);
  }
}, 300_000);

afterAll(async () => {
  await engine?.dispose();
  await Promise.all(Object.values(s ?? {}).map((e) => e.stop()));
});

describe("every type replaced through the engine leaves what it promised", { timeout: 600_000 }, () => {
  it("1. up makes one of each", async () => {
    const up = await engine.stack.up();
    expect(up.summary.resourceChanges?.create).toBe(17); // 16 resources and the stack
    expect(records("example.com", "www")).toEqual(["A"]);
    expect(s.control.screen.state).toBe("connected");
  });

  it("2. step 2 replaces all 16; each service holds the new object once and the old one no more", async () => {
    await engine.stack.setConfig("replacements:step", { value: "2" });
    const preview = await engine.stack.preview();
    expect(preview.changeSummary.replace).toBe(16);
    const up = await engine.stack.up();
    expect(up.summary.resourceChanges?.replace).toBe(16);
    // edge: a record whose type changed at one name (deleted first: A and CNAME cannot share it), five moved zones, a renamed script
    expect(records("example.com", "www")).toEqual(["CNAME"]);
    expect(records("example.org", "api")).toEqual(["A"]);
    expect(records("example.com", "api")).toEqual([]);
    expect([level("example.org"), level("example.com")]).toEqual(["high", "medium"]); // the old zone's setting as it was
    for (const [what, count] of [
      ["pagerules", 1],
      ["rulesets/phases/http_request_firewall_custom/entrypoint", 1],
      ["rulesets/phases/http_ratelimit/entrypoint", 1],
    ] as const) {
      expect((await edgeList("example.org", what)).length, `${what} in the new zone`).toBe(count);
      expect((await edgeList("example.com", what)).length, `${what} in the old zone`).toBe(0);
    }
    expect([...s.edge.scripts.keys()]).toEqual(["edge-b"]);
    // pages: the post made anew with its link; the role moved to another user; the subscription moved account, still there
    expect([...s.pages.posts.values()].map((p) => p.link)).toEqual(["https://example.com/menu"]);
    const page = s.pages.pages.get(PAGE_ID)!;
    expect([page.assigned.get("300000000000002"), page.assigned.get("300000000000003")]).toEqual([
      undefined,
      ["CREATE_CONTENT", "MODERATE", "MESSAGING", "ADVERTISE", "ANALYZE"],
    ]);
    expect([...page.apps.values()]).toHaveLength(1);
    // posts: the new post, the old deleted
    expect([...s.posts.posts.values()].map((p) => p.text)).toEqual(["Fresh bread from 7."]);
    // runner: the model moved account, still there; skills: the new slugs, the old ones gone
    expect([...s.runner.models.keys()].filter((m) => m.startsWith("baker"))).toEqual(["baker:latest"]);
    expect([...s.skills.skills.keys()].sort()).toEqual(["oven-care-v2", "oven-runbook-v2"]);
    // control: the session open after its replacement; the command's marker made again after the old one's delete
    expect([s.control.screen.state, s.control.screen.host]).toEqual(["connected", "kiosk.local"]);
    expect(s.control.machine.files.get("/tmp/marker")).toBe("deployed\n");
  });

  it("3. a second up changes nothing; destroy leaves nothing", async () => {
    await engine.stack.up({ expectNoChanges: true });
    await engine.stack.destroy();
    expect(records("example.com", "www")).toEqual([]);
    expect([...s.edge.scripts.keys()]).toEqual([]);
    expect([...s.skills.skills.keys()]).toEqual([]);
    expect(s.control.machine.files.get("/tmp/marker")).toBeUndefined();
  });
});

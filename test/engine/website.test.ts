/**
 * The website example through the real Pulumi engine against the edge emulator: preview, up, no-op up, update
 * vs replace, drift revealed by refresh, out-of-band deletion, destroy, and a state that holds no token.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_ACCOUNT, DEMO_TOKEN, EdgeEmulator } from "../../emulators";
import * as path from "node:path";
import { engineStack, ROOT } from "../../scripts/engine";
import { exampleStack, timed, timings, withoutEnvFallback, type EngineStack } from "../helpers/engine";

let edge: EdgeEmulator;
let engine: EngineStack;
const zone = () => [...edge.zones.values()].find((z) => z.name === "example.com")!;
const records = () => [...zone().records.values()];
const record = (name: string, type?: string) => records().find((r) => r.name === name && (!type || r.type === type));
/** The API's own view (the emulator keeps rules behind its routes). */
async function api(path: string, init: RequestInit = {}): Promise<any> {
  const res = await fetch(`${edge.url}/client/v4${path}`, {
    ...init,
    headers: { authorization: `Bearer ${DEMO_TOKEN}`, "content-type": "application/json", ...init.headers },
  });
  const text = await res.text();
  return text.startsWith("{") ? JSON.parse(text).result : text;
}
const pageRules = () => api(`/zones/${zone().id}/pagerules`);
/** A phase's rules as the service lists them (its entry point ruleset; none yet is none). */
const phase = async (name: string) =>
  ((await api(`/zones/${zone().id}/rulesets/phases/${name}/entrypoint`)) ?? { rules: [] }) as { id: string; rules: any[] };
const firewallRules = async () => (await phase("http_request_firewall_custom")).rules;
const rateLimits = async () => (await phase("http_ratelimit")).rules;
/** Changes or deletes one rule of a phase out of band, as the dashboard would. */
async function editRule(name: string, ruleId: string, init: RequestInit) {
  return api(`/zones/${zone().id}/rulesets/${(await phase(name)).id}/rules/${ruleId}`, init);
}
const scripts = () => [...edge.scripts.keys()];
const RESOURCES = 19; // 3 zone settings, 7 records, 2 page rules, a firewall rule, a rate limit, an edge script and its route, its storage (KV, R2, D1)

beforeAll(async () => {
  withoutEnvFallback();
  edge = await new EdgeEmulator().start();
  engine = await exampleStack("website", {
    "ops:edgeBaseUrl": { value: edge.url },
    "ops:edgeApiToken": { value: DEMO_TOKEN, secret: true },
    "ops:edgeAccountId": { value: DEMO_ACCOUNT },
  });
}, 300_000);

afterAll(async () => {
  await engine?.dispose();
  await edge?.stop();
  console.log(`engine scenario timings (ms): ${JSON.stringify(timings)}`);
});

describe("website example through the Pulumi engine", { timeout: 300_000 }, () => {
  it("1. preview lists the creates and sends no write request", async () => {
    const preview = await timed("preview", () => engine.stack.preview());
    expect(preview.changeSummary.create).toBe(RESOURCES + 1); // and the stack
    expect(edge.log.filter((e) => e.method !== "GET" && !e.path.endsWith("/graphql"))).toEqual([]); // a GraphQL query reads
    expect(records()).toHaveLength(0);
  });

  it("2. up creates everything; a second up changes nothing (proxied, label-named, IPv6 spelling)", async () => {
    let printed = "";
    const up = await timed("up", () => engine.stack.up({ onOutput: (o) => (printed += o), debug: true }));
    expect(printed).toContain("created");
    expect(printed).not.toContain(DEMO_TOKEN); // not even with debug logging on
    expect(up.summary.resourceChanges?.create).toBe(RESOURCES + 1);
    expect(records()).toHaveLength(7);
    expect((await pageRules()).map((r: { priority: number }) => r.priority).sort()).toEqual([1, 2]);
    expect(await firewallRules()).toHaveLength(1);
    expect(await rateLimits()).toHaveLength(1);
    expect(scripts()).toEqual(["site-edge"]);
    expect([...edge.namespaces.values()].map((n) => [n.id, n.title])).toEqual([[up.outputs.sessionsId.value, "site-sessions"]]);
    // The zone serves the script on its route, and the script reads a session through its KV binding.
    edge.namespaces.get(up.outputs.sessionsId.value)!.values.set("abc", "signed in as ops");
    expect(await edge.serve("https://example.com/edge/session?id=abc")).toMatchObject({
      status: 200,
      body: "signed in as ops",
      script: "site-edge",
    });
    // An object of its R2 bucket and a row of its D1 database, through their bindings.
    edge.buckets.get("default/site-files")!.objects.set("menu.txt", "rye, spelt, brioche");
    edge.databases
      .get(up.outputs.ordersId.value)!
      .db.exec("create table orders (id integer, item text); insert into orders values (7, 'two ryes')");
    expect((await edge.serve("https://example.com/edge/menu?order=7")).body).toBe("rye, spelt, brioche; order: two ryes");
    // A page's visits, counted by its Durable Object (the class the migration v1 made): its storage kept between requests.
    expect(edge.scripts.get("site-edge")).toMatchObject({ migration_tag: "v1" });
    const visits = async (page: string) => (await edge.serve(`https://example.com/edge/visits?page=${page}`)).body;
    expect([await visits("menu"), await visits("menu"), await visits("about")]).toEqual(["1", "2", "1"]);
    expect(up.outputs.cacheRank.value).toEqual({ asked: 10, effective: 1 });
    expect(up.outputs.zoneStatus.value).toBe("active");
    expect(up.outputs.lastDayRequests.value).toBeGreaterThan(0);
    expect(record("example.com", "A")).toMatchObject({ proxied: true, ttl: 1 });
    expect(record("api.example.com")).toMatchObject({ ttl: 300 });
    expect(record("example.com", "AAAA")?.content).toBe("2001:db8::10");
    expect(zone().settings.ssl.value).toBe("strict");
    expect(up.outputs.sslWas.value).toBe("flexible");

    const writes = edge.log.length;
    const again = await timed("up (no-op)", () => engine.stack.up({ expectNoChanges: true }));
    expect(again.summary.resourceChanges).toEqual({ same: RESOURCES + 1 });
    expect(edge.log.slice(writes).filter((e) => e.method !== "GET" && !e.path.endsWith("/graphql"))).toEqual([]);
  });

  it("3. a ttl change updates in place; a type change replaces", async () => {
    const apiId = record("api.example.com")!.id;
    await engine.stack.setConfig("apiTtl", { value: "600" });
    const update = await timed("up (ttl update)", () => engine.stack.up());
    expect(update.summary.resourceChanges).toMatchObject({ update: 1 });
    expect(record("api.example.com")).toMatchObject({ id: apiId, ttl: 600 });

    const docsId = record("docs.example.com")!.id;
    await engine.stack.setConfig("docsType", { value: "A" });
    const replace = await timed("up (type replace)", () => engine.stack.up());
    expect(replace.summary.resourceChanges).toMatchObject({ replace: 1 });
    const docs = records().filter((r) => r.name === "docs.example.com");
    expect(docs).toHaveLength(1);
    expect(docs[0]).toMatchObject({ type: "A", content: "203.0.113.30" });
    expect(docs[0].id).not.toBe(docsId);
  });

  it("3b. another stack reads the script's storage by id with get, and its destroy leaves it", async () => {
    const outs = await engine.stack.outputs();
    const reader = await engineStack(
      path.join(ROOT, "test/programs/storage-get"),
      {
        "ops:edgeBaseUrl": { value: edge.url },
        "ops:edgeApiToken": { value: DEMO_TOKEN, secret: true },
        "storage-get:accountId": { value: DEMO_ACCOUNT },
        "storage-get:namespaceId": { value: outs.sessionsId.value },
        "storage-get:bucketName": { value: "site-files" },
        "storage-get:databaseId": { value: outs.ordersId.value },
      },
      "reader",
    );
    try {
      const writes = edge.log.filter((e) => e.method !== "GET").length;
      const up = await timed("up (storage get)", () => reader.stack.up());
      expect(up.summary.resourceChanges).toEqual({ create: 1 }); // the stack alone: the three are read, not made
      expect(up.outputs.sessionsTitle.value).toBe("site-sessions");
      expect(up.outputs.filesStorageClass.value).toBe("Standard");
      expect(up.outputs.ordersName.value).toBe("site-orders");
      await reader.stack.destroy();
      expect(edge.log.filter((e) => e.method !== "GET").length).toBe(writes); // nothing written, nothing deleted
      expect(edge.namespaces.has(outs.sessionsId.value)).toBe(true);
    } finally {
      await reader.dispose();
    }
  });

  it("4. page rule, firewall rule, rate limit and script update in place; renaming the script replaces it", async () => {
    await engine.stack.setAllConfig({
      cacheLevel: { value: "aggressive" },
      firewallAction: { value: "managed_challenge" },
      loginThreshold: { value: "20" },
      workerVersion: { value: "2" },
    });
    const puts = edge.count("PUT");
    const patches = edge.count("PATCH", /\/rulesets\//);
    const update = await timed("up (rules update)", () => engine.stack.up());
    expect(update.summary.resourceChanges).toMatchObject({ update: 4 });
    expect((await pageRules()).find((r: any) => r.targets[0].constraint.value === "example.com/static/*").actions).toEqual([
      { id: "cache_level", value: "aggressive" },
    ]);
    expect((await firewallRules())[0].action).toBe("managed_challenge");
    expect((await rateLimits())[0].ratelimit.requests_per_period).toBe(20);
    expect(edge.scripts.get("site-edge")!.body).toContain("(v2)");
    expect(edge.count("PATCH", /\/rulesets\//) - patches).toBe(2); // the firewall rule and the rate limit, each its own rule
    expect(edge.count("PUT") - puts).toBe(1); // the script
    expect(edge.log.filter((e) => /\/firewall\/rules|\/rate_limits/.test(e.path))).toEqual([]); // the retired endpoints

    await engine.stack.setConfig("workerName", { value: "site-edge-next" });
    const replace = await timed("up (script rename)", () => engine.stack.up());
    expect(replace.summary.resourceChanges).toMatchObject({ replace: 1 });
    expect(scripts()).toEqual(["site-edge-next"]);
  });

  it("5. out-of-band edits of rules and the script are reported by refresh and undone by up", async () => {
    const [rule] = (await pageRules()).filter((r: any) => r.targets[0].constraint.value === "example.com/static/*");
    await api(`/zones/${zone().id}/pagerules/${rule.id}`, { method: "PATCH", body: JSON.stringify({ status: "disabled" }) });
    const [fw] = await firewallRules();
    await editRule("http_request_firewall_custom", fw.id, { method: "PATCH", body: JSON.stringify({ ...fw, action: "js_challenge" }) });
    const [rl] = await rateLimits();
    await editRule("http_ratelimit", rl.id, {
      method: "PATCH",
      body: JSON.stringify({ ...rl, ratelimit: { ...rl.ratelimit, requests_per_period: 999 } }),
    });
    edge.editScript("site-edge-next", "export default {} // hot-fixed by hand");
    const [sessions] = edge.namespaces.values();
    sessions.title = "renamed-in-the-dashboard";

    const refresh = await timed("refresh (rules drift)", () => engine.stack.refresh());
    expect(refresh.summary.resourceChanges).toMatchObject({ update: 5 });
    const up = await timed("up (rules restore)", () => engine.stack.up());
    expect(up.summary.resourceChanges).toMatchObject({ update: 5 });
    expect(edge.namespaces.get(sessions.id)!.title).toBe("site-sessions"); // renamed back in place, its id kept
    expect((await pageRules()).find((r: any) => r.id === rule.id).status).toBe("active");
    expect((await firewallRules())[0].action).toBe("managed_challenge");
    expect((await rateLimits())[0].ratelimit.requests_per_period).toBe(20);
    expect(edge.scripts.get("site-edge-next")!.body).toContain("(v2)");
  });

  it("6. rules and the script deleted out of band are dropped by refresh and recreated by up", async () => {
    for (const r of await pageRules()) await api(`/zones/${zone().id}/pagerules/${r.id}`, { method: "DELETE" });
    for (const r of await firewallRules()) await editRule("http_request_firewall_custom", r.id, { method: "DELETE" });
    for (const r of await rateLimits()) await editRule("http_ratelimit", r.id, { method: "DELETE" });
    edge.scripts.clear();
    const refresh = await timed("refresh (rules deleted)", () => engine.stack.refresh());
    expect(refresh.summary.resourceChanges).toMatchObject({ delete: 5 });
    const up = await timed("up (rules recreate)", () => engine.stack.up());
    expect(up.summary.resourceChanges).toMatchObject({ create: 5 });
    expect(await pageRules()).toHaveLength(2);
    expect(scripts()).toEqual(["site-edge-next"]);
    const again = await engine.stack.preview({ expectNoChanges: true });
    expect(again.changeSummary).toEqual({ same: RESOURCES + 1 });
  });

  it("7. a change made out of band is reported by refresh and undone by up", async () => {
    const api = record("api.example.com")!;
    const res = await fetch(`${edge.url}/client/v4/zones/${zone().id}/dns_records/${api.id}`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${DEMO_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ content: "198.51.100.99", ttl: 120 }),
    });
    expect(res.status).toBe(200);
    zone().settings.security_level.value = "low";

    const refresh = await timed("refresh (drift)", () => engine.stack.refresh());
    expect(refresh.summary.resourceChanges).toMatchObject({ update: 2 });
    const up = await timed("up (restore)", () => engine.stack.up());
    expect(up.summary.resourceChanges).toMatchObject({ update: 2 });
    expect(record("api.example.com")).toMatchObject({ content: "203.0.113.20", ttl: 600 });
    expect(zone().settings.security_level.value).toBe("high");
  });

  it("8. a record deleted out of band is dropped by refresh and recreated by up", async () => {
    const spf = records().find((r) => r.type === "TXT")!;
    zone().records.delete(spf.id);
    const refresh = await timed("refresh (deleted)", () => engine.stack.refresh());
    expect(refresh.summary.resourceChanges).toMatchObject({ delete: 1 });
    const up = await timed("up (recreate)", () => engine.stack.up());
    expect(up.summary.resourceChanges).toMatchObject({ create: 1 });
    expect(records().filter((r) => r.type === "TXT")).toHaveLength(1);
  });

  it("9. the state holds no token; __provider is small", async () => {
    // At rest: every file the backend wrote (current state, history, backups). The engine keeps stack config on
    // its default provider, where a secret is stored encrypted; the Automation API's exportStack decrypts it
    // (--show-secrets), so it is not the place to look.
    const atRest = engine.backendText();
    expect(atRest.length).toBeGreaterThan(10_000);
    expect(atRest).not.toContain(DEMO_TOKEN);
    expect(atRest).toContain("ciphertext");
    const state = await engine.stack.exportStack();
    const text = JSON.stringify(state);
    // Decrypted, the token shows only as the secret config value of the default provider, never in a resource.
    const resourcesText = JSON.stringify(
      state.deployment.resources.filter((r: { type: string }) => r.type !== "pulumi:providers:pulumi-nodejs"),
    );
    expect(resourcesText).not.toContain(DEMO_TOKEN);
    const resources = (state.deployment.resources as { type: string; outputs?: { __provider?: string } }[]).filter((r) =>
      r.type.startsWith("pulumi-nodejs:dynamic/"),
    );
    expect(resources).toHaveLength(RESOURCES);
    const sizes = resources.map((r) => r.outputs!.__provider!.length);
    timings["__provider bytes per resource"] = Math.max(...sizes);
    timings["state bytes per resource"] = Math.round(text.length / resources.length);
    expect(Math.max(...sizes)).toBeLessThan(4096);
  });

  it("10. destroy leaves no record of the stack and the zone settings as they were", async () => {
    // The R2 bucket holds the menu: the service refuses to delete it, in one line with what to do, and nothing is lost.
    const refused = await engine.stack.destroy().catch((e: Error) => e);
    expect(String(refused)).toMatch(/10008.*site-files\) is not empty.*Empty the bucket first/);
    expect(edge.buckets.get("default/site-files")!.objects.get("menu.txt")).toBe("rye, spelt, brioche");
    edge.buckets.get("default/site-files")!.objects.clear();
    const destroy = await timed("destroy", () => engine.stack.destroy());
    expect(destroy.summary.resourceChanges?.delete).toBeGreaterThanOrEqual(1);
    expect((await engine.stack.exportStack()).deployment.resources ?? []).toEqual([]);
    expect(records()).toEqual([]);
    expect(await pageRules()).toEqual([]);
    expect(await firewallRules()).toEqual([]);
    expect(await rateLimits()).toEqual([]);
    expect(scripts()).toEqual([]);
    expect([edge.namespaces.size, edge.buckets.size, edge.databases.size]).toEqual([0, 0, 0]);
    expect(zone().settings.ssl.value).toBe("flexible");
    expect(zone().settings.always_use_https.value).toBe("off");
    expect(zone().settings.security_level.value).toBe("medium");
  });
});

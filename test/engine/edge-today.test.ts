/**
 * The edge network as the service is today, through the real engine: a stack whose only credentials are the
 * service's own variables (CLOUDFLARE_API_TOKEN with an account-owned token, CLOUDFLARE_ACCOUNT_ID,
 * CLOUDFLARE_BASE_URL) previews and applies; FirewallRule and RateLimit live on the rulesets engine with nothing
 * sent to the retired endpoints; a period the zone's plan refuses fails the preview; 400-character TXT values (a
 * record and a set) and module / service-worker scripts show no change on the next preview; the analytics come from
 * GraphQL; a 0.3.0 stack's firewall rule and rate limit (legacy ids in state) move with one up and no write.
 */
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_ACCOUNT, DEMO_ACCOUNT_TOKEN, EdgeEmulator } from "../../emulators";
import { engineStack, ROOT } from "../../scripts/engine";
import { withoutEnvFallback, type EngineStack } from "../helpers/engine";

let edge: EdgeEmulator;
let engine: EngineStack;
const zone = () => [...edge.zones.values()].find((z) => z.name === "example.com")!;
const writes = () =>
  edge.log
    .filter((e) => e.method !== "GET" && !e.path.startsWith("/__") && !e.path.endsWith("/graphql"))
    .map((e) => `${e.method} ${e.path.replace(/^\/client\/v4/, "")}`);
const retired = () => edge.log.filter((e) => /\/firewall\/rules|\/rate_limits|\/analytics\/|\/security\/events/.test(e.path));
const LEGACY = { firewall: "372e67954025e0ba6aaa6d586b9e0b59", rateLimit: "4a5f1c0d9e8b7a6f5e4d3c2b1a0f9e8d" };

beforeAll(async () => {
  withoutEnvFallback();
  edge = await new EdgeEmulator().start();
  engine = await engineStack(path.join(ROOT, "test/programs/edge-today"), {}, "today", {
    CLOUDFLARE_API_TOKEN: DEMO_ACCOUNT_TOKEN,
    CLOUDFLARE_ACCOUNT_ID: DEMO_ACCOUNT,
    CLOUDFLARE_BASE_URL: `${edge.url}/client/v4`,
  });
}, 300_000);

afterAll(async () => {
  await engine?.dispose();
  await edge?.stop();
});

describe("the edge as the service is today, through the engine", { timeout: 300_000 }, () => {
  it("1. an account-owned token in CLOUDFLARE_API_TOKEN is enough: preview sends no write, up applies", async () => {
    const preview = await engine.stack.preview();
    expect(preview.changeSummary.create).toBe(7);
    expect(writes()).toEqual([]);
    expect(edge.log.some((e) => e.path.endsWith(`/accounts/${DEMO_ACCOUNT}/tokens/verify`) && e.status === 200)).toBe(true);
    const up = await engine.stack.up();
    expect(up.summary.resourceChanges?.create).toBe(7);
    expect(up.outputs.token.value).toBe("account");
    expect(up.outputs.requestsLastDay.value).toBeGreaterThan(0);
    expect(edge.count("POST", /\/graphql$/)).toBeGreaterThan(0);
    const rules = (phase: string) => edge.rulesets.entrypoint(zone().id, phase)?.rules ?? [];
    expect(rules("http_request_firewall_custom").map((r) => r.action)).toEqual(["block"]);
    expect(rules("http_ratelimit")[0]).toMatchObject({
      action: "block",
      ratelimit: { period: 10, requests_per_period: 20, mitigation_timeout: 10 },
    });
    expect(edge.scripts.get("site-module")).toMatchObject({ format: "module", main: "worker.js" });
    expect(edge.scripts.get("site-sw")).toMatchObject({ format: "service-worker", compatibility_date: "2024-09-23" });
    expect([...zone().records.values()].filter((r) => r.name.includes("_domainkey")).map((r) => r.content.split('" "').length)).toEqual([
      2, 2,
    ]);
    expect(retired()).toEqual([]);
  });

  it("2. the next preview and refresh show no change: long TXT values, scripts and rules read back as they were written", async () => {
    edge.log.splice(0);
    const refresh = await engine.stack.refresh();
    expect(refresh.summary.resourceChanges).not.toHaveProperty("update");
    const preview = await engine.stack.preview();
    expect(preview.changeSummary).toEqual({ same: 7 }); // six resources and the stack
    expect(writes()).toEqual([]);
  });

  it("3. a period the zone's Free plan does not allow fails the preview, naming the plan and what it allows", async () => {
    await engine.stack.setConfig("period", { value: "60" });
    edge.log.splice(0);
    const failed = await engine.stack.preview().catch((e: Error) => e);
    expect(String(failed)).toMatch(/period 60 is not allowed on the zone's Free plan: use 10 seconds/);
    expect(writes()).toEqual([]);
    await engine.stack.removeConfig("period");
  });

  it("4. a 0.3.0 stack (legacy firewall rule and rate limit ids in state) moves with one up and no write", async () => {
    const state = await engine.stack.exportStack();
    for (const r of state.deployment.resources as {
      type: string;
      id: string;
      inputs: Record<string, any>;
      outputs: Record<string, any>;
    }[]) {
      if (r.type.endsWith("edge:FirewallRule")) {
        r.id = LEGACY.firewall;
        const { ruleId: _r, rulesetId: _s, enabled: _e, ref: _f, expression, ...rest } = r.outputs;
        r.outputs = { ...rest, filter: { expression }, filterId: "a".repeat(32) };
        delete r.inputs.expression;
        r.inputs.filter = { expression };
      }
      if (r.type.endsWith("edge:RateLimit")) {
        r.id = LEGACY.rateLimit;
        const { ruleId: _r, rulesetId: _s, ref: _f, expression: _e, ...rest } = r.outputs;
        r.outputs = rest;
      }
    }
    await engine.stack.importStack(state);
    // The service's upgrade kept the legacy id as each converted rule's ref.
    for (const phase of ["http_request_firewall_custom", "http_ratelimit"]) {
      edge.rulesets.entrypoint(zone().id, phase)!.rules[0].ref = phase === "http_ratelimit" ? LEGACY.rateLimit : LEGACY.firewall;
    }
    edge.log.splice(0);
    const preview = await engine.stack.preview();
    expect(preview.changeSummary).toMatchObject({ update: 2 });
    const up = await engine.stack.up();
    expect(up.summary.resourceChanges).toMatchObject({ update: 2 });
    expect(writes()).toEqual([]);
    await engine.stack.up({ expectNoChanges: true });
    expect(retired()).toEqual([]);
  });

  it("5. a changed firewall action is one PATCH of its own rule; destroy deletes the rules one by one and leaves the rest", async () => {
    const other = edge.rulesets.seedRule(zone().id, "http_request_firewall_custom", {
      action: "managed_challenge",
      expression: 'http.request.uri.path eq "/made-elsewhere"',
    });
    await engine.stack.setConfig("firewallAction", { value: "managed_challenge" });
    edge.log.splice(0);
    await engine.stack.up();
    expect(writes()).toEqual([expect.stringMatching(/^PATCH \/zones\/\w+\/rulesets\/\w+\/rules\/\w+$/)]);
    await engine.stack.destroy();
    expect(edge.rulesets.entrypoint(zone().id, "http_request_firewall_custom")!.rules.map((r) => r.id)).toEqual([other.id]);
    expect(edge.rulesets.entrypoint(zone().id, "http_ratelimit")!.rules).toEqual([]);
    expect(edge.scripts.size).toBe(0);
    expect(retired()).toEqual([]);
  });
});

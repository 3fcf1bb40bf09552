/**
 * Edge rules as the ruleset engine keeps them (issue 45), through the real engine on a Pro zone whose custom rules
 * already hold a block rule made in the dashboard, with logging off and a custom response:
 * 1. the preview says an allow rule will go before that block rule, and writes nothing; up puts it there, and takes
 *    the block rule over keeping its logging and response; a rate limit of period 30, timeout 600 and threshold 1
 *    (what the plan's table allows) is made;
 * 2. a new description of the block rule keeps them too; the next preview shows no change;
 * 3. a period of 120 fails the preview, naming the Pro plan and what it allows, with nothing sent;
 * 4. RulesetRules in three more phases (a cache rule placed before a rule the zone had, a redirect rule, a
 *    configuration rule): made with the rest, updated in place, a cache rule moved in the dashboard found by refresh
 *    and put back by up; destroy leaves the zone's own rules (and removes the block rule it took over).
 */
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EdgeEmulator } from "../../emulators";
import { engineStack, ROOT } from "../../scripts/engine";
import { withoutEnvFallback, type EngineStack } from "../helpers/engine";
import { everyServiceConfig } from "../helpers/every-service";

const FW = "http_request_firewall_custom";
const RESPONSE = { status_code: 403, content_type: "text/plain", content: "no API for you" };
let edge: EdgeEmulator;
let engine: EngineStack;
const zone = () => [...edge.zones.values()].find((z) => z.name === "example.com")!;
const rules = (phase: string) => edge.rulesets.entrypoint(zone().id, phase)?.rules ?? [];
const writes = () => edge.log.filter((e) => e.method !== "GET" && !e.path.startsWith("/__")).map((e) => `${e.method} ${e.path}`);

beforeAll(async () => {
  withoutEnvFallback();
  edge = await new EdgeEmulator({ plans: { "example.com": "pro" } }).start();
  edge.rulesets.seedRule(zone().id, "http_request_cache_settings", {
    action: "set_cache_settings",
    expression: "true",
    action_parameters: { cache: false },
    ref: "bypass_all",
  });
  edge.rulesets.seedRule(zone().id, FW, {
    action: "block",
    expression: 'http.request.uri.path wildcard "/api/*"',
    ref: "block_api",
    description: "made in the dashboard",
    logging: { enabled: false },
    action_parameters: { response: RESPONSE },
  });
  engine = await engineStack(path.join(ROOT, "test/programs/rules-order"), everyServiceConfig({ edge }), "order", {
    PULUMI_OPS_QUIET: "0",
  });
}, 300_000);

afterAll(async () => {
  await engine?.dispose();
  await edge?.stop();
});

describe("edge rules in their place, merged, within the plan's limits", { timeout: 300_000 }, () => {
  it("1. the preview says where the allow rule goes; up puts it before the block rule, which keeps its logging and response", async () => {
    edge.log.splice(0);
    let said = "";
    await engine.stack.preview({ onOutput: (o) => (said += o) });
    expect(said).toMatch(
      /FirewallRule "allow_partner" \(allow\) will be added before rule block_api \(block\), the first that is not a skip/,
    );
    expect(writes()).toEqual([]);
    await engine.stack.up();
    expect(rules(FW).map((r) => r.ref)).toEqual(["allow_partner", "block_api"]);
    expect(rules(FW)[1]).toMatchObject({
      description: "block the API",
      logging: { enabled: false },
      action_parameters: { response: RESPONSE },
    });
    expect(rules("http_ratelimit")[0]).toMatchObject({ ratelimit: { period: 30, requests_per_period: 1, mitigation_timeout: 600 } });
    expect(rules("http_request_cache_settings").map((r) => r.ref)).toEqual(["cache_static", "bypass_all"]);
    expect(rules("http_request_dynamic_redirect")[0]).toMatchObject({
      action: "redirect",
      action_parameters: { from_value: { status_code: 301 } },
    });
    expect(rules("http_config_settings")[0]).toMatchObject({ action: "set_config", action_parameters: { security_level: "high" } });
  });

  it("2. a new description keeps what the dashboard set; the next preview shows no change", async () => {
    await engine.stack.setConfig("blockDescription", { value: "block the API, renamed" });
    await engine.stack.up();
    expect(rules(FW)[1]).toMatchObject({
      description: "block the API, renamed",
      logging: { enabled: false },
      action_parameters: { response: RESPONSE },
    });
    await engine.stack.preview({ expectNoChanges: true });
  });

  it("3. a period the Pro plan does not allow fails the preview naming the plan and its values; nothing is sent", async () => {
    await engine.stack.setConfig("period", { value: "120" });
    edge.log.splice(0);
    const failed = await engine.stack.preview().catch((e: Error) => e);
    expect(String(failed)).toMatch(/period 120 is not allowed on the zone's Pro plan: use 10, 15, 20, 30, 40, 45, 60 seconds/);
    expect(writes()).toEqual([]);
    await engine.stack.removeConfig("period");
  });

  it("4. RulesetRules: updated in place; one moved in the dashboard is found by refresh and put back; destroy leaves the zone's own rules", async () => {
    await engine.stack.setConfig("adminSecurityLevel", { value: "under_attack" });
    edge.log.splice(0);
    await engine.stack.up();
    expect(writes()).toEqual([expect.stringMatching(/^PATCH .*\/rulesets\/\w+\/rules\/\w+$/)]);
    expect(rules("http_config_settings")[0].action_parameters).toMatchObject({ security_level: "under_attack" });
    const cache = rules("http_request_cache_settings");
    cache.push(cache.shift()!); // moved after the rule it is to precede
    const refresh = await engine.stack.refresh();
    expect(refresh.summary.resourceChanges).toMatchObject({ update: 1 });
    await engine.stack.up();
    expect(rules("http_request_cache_settings").map((r) => r.ref)).toEqual(["cache_static", "bypass_all"]);
    await engine.stack.preview({ expectNoChanges: true });
    await engine.stack.destroy();
    expect(rules("http_request_cache_settings").map((r) => r.ref)).toEqual(["bypass_all"]);
    expect(rules("http_request_dynamic_redirect")).toEqual([]);
    expect(rules("http_config_settings")).toEqual([]);
    expect(rules(FW)).toEqual([]); // the block rule was taken over (adopt): the stack's now, so its destroy removes it
  });
});

/**
 * RulesetRule: one rule in any zone entry point phase (issue 45) — a cache rule, a redirect rule and a configuration
 * rule made in their phases' entry points beside rules made elsewhere; no change on the next diff and read; an
 * update by PATCH that keeps what the program does not declare; a rule moved out of its place is drift and goes
 * back; adopt takes a rule by ref with nothing sent when it is as the program says; get by `<zoneId>/<phase>/<id>`;
 * destroy deletes only its own.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { importCommand } from "../../provider/cli/import";
import { call } from "../../provider/door";
import { forgetRuleListings } from "../../provider/edge/rule-listing";
import { forgetPreviewChecks } from "../../provider/preflight";
import { useEdge, zoneId } from "../helpers/edge";

const edge = useEdge();
beforeEach(() => forgetPreviewChecks());

const T = "edge:RulesetRule";
async function make(args: Record<string, unknown>) {
  const { inputs, failures } = await call(T, "check", [{}, args]);
  expect(failures).toEqual([]);
  return { inputs, ...(await call(T, "create", [inputs])) };
}
const rules = (phase: string) => edge.rulesets.entrypoint(zoneId(edge), phase)?.rules ?? [];
const writes = () => edge.log.filter((e) => e.method !== "GET").length;

const CACHE = {
  zoneName: "example.com",
  phase: "http_request_cache_settings",
  expression: 'http.request.uri.path wildcard "/static/*"',
  action: "set_cache_settings",
  actionParameters: { cache: true, edge_ttl: { mode: "override_origin", default: 3600 } },
  ref: "cache_static",
};
const REDIRECT = {
  zoneName: "example.com",
  phase: "http_request_dynamic_redirect",
  expression: 'http.request.uri.path eq "/old"',
  action: "redirect",
  actionParameters: { from_value: { target_url: { value: "https://example.com/new" }, status_code: 301 } },
};
const CONFIG = {
  zoneName: "example.com",
  phase: "http_config_settings",
  expression: 'http.request.uri.path wildcard "/admin/*"',
  action: "set_config",
  actionParameters: { security_level: "high" },
};

describe("RulesetRule in any phase", () => {
  it("three phases: made beside rules made elsewhere, no change after, updated keeping what it does not declare, destroyed alone", async () => {
    const other = edge.rulesets.seedRule(zoneId(edge), "http_request_cache_settings", {
      action: "set_cache_settings",
      expression: 'http.request.uri.path wildcard "/img/*"',
      action_parameters: { cache: false },
      ref: "dashboard",
    });
    const made = await Promise.all([make(CACHE), make(REDIRECT), make(CONFIG)]);
    expect(rules("http_request_cache_settings").map((r) => r.ref)).toEqual(["dashboard", "cache_static"]);
    expect(rules("http_request_dynamic_redirect")).toHaveLength(1);
    expect(rules("http_config_settings")[0]).toMatchObject({ action: "set_config", action_parameters: { security_level: "high" } });
    for (const m of made) {
      expect((await call(T, "diff", [m.id, m.outs, m.inputs])).changes).toBe(false);
      forgetRuleListings();
      expect((await call(T, "read", [m.id, m.outs])).inputs).toBeUndefined();
    }
    // A parameter set in the dashboard (not the program's) survives an update of the description.
    const cache = made[0];
    const stored = rules("http_request_cache_settings").find((r) => r.id === cache.id)!;
    (stored.action_parameters as Record<string, unknown>).browser_ttl = { mode: "respect_origin" };
    forgetRuleListings();
    expect((await call(T, "read", [cache.id, cache.outs])).inputs).toBeUndefined(); // not declared: not drift
    const news = (await call(T, "check", [{}, { ...CACHE, description: "static files" }])).inputs;
    expect((await call(T, "diff", [cache.id, cache.outs, news])).changes).toBe(true);
    await call(T, "update", [cache.id, cache.outs, news]);
    expect(rules("http_request_cache_settings").find((r) => r.id === cache.id)).toMatchObject({
      description: "static files",
      action_parameters: { cache: true, browser_ttl: { mode: "respect_origin" } },
    });
    // A declared parameter changed in the dashboard is drift, and up restores it.
    (rules("http_config_settings")[0].action_parameters as Record<string, unknown>).security_level = "low";
    forgetRuleListings();
    const drift = await call(T, "read", [made[2].id, made[2].outs]);
    expect(drift.inputs.actionParameters).toEqual({ security_level: "low" });
    await call(T, "update", [made[2].id, drift.props, made[2].inputs]);
    expect(rules("http_config_settings")[0].action_parameters).toMatchObject({ security_level: "high" });
    for (const m of made) await call(T, "delete", [m.id, m.outs]);
    expect(rules("http_request_cache_settings").map((r) => r.id)).toEqual([other.id]);
    expect(rules("http_request_dynamic_redirect")).toEqual([]);
  });

  it("a parameter the program gave and gives no more is removed by the update; one set in the dashboard stays", async () => {
    const r = await make(CACHE);
    const stored = rules("http_request_cache_settings").find((x) => x.id === r.id)!;
    (stored.action_parameters as Record<string, unknown>).browser_ttl = { mode: "respect_origin" };
    const news = (await call(T, "check", [{}, { ...CACHE, actionParameters: { cache: true } }])).inputs;
    expect((await call(T, "diff", [r.id, r.outs, news])).changes).toBe(true);
    await call(T, "update", [r.id, r.outs, news]);
    expect(rules("http_request_cache_settings").find((x) => x.id === r.id)!.action_parameters).toEqual({
      cache: true,
      browser_ttl: { mode: "respect_origin" },
    });
  });

  it("position: before a named rule; moved away it is drift and goes back", async () => {
    edge.rulesets.seedRule(zoneId(edge), "http_request_cache_settings", {
      action: "set_cache_settings",
      expression: "true",
      action_parameters: { cache: false },
      ref: "bypass_all",
    });
    const r = await make({ ...CACHE, position: { before: "bypass_all" } });
    expect(rules("http_request_cache_settings").map((x) => x.ref)).toEqual(["cache_static", "bypass_all"]);
    const all = rules("http_request_cache_settings");
    all.push(all.shift()!);
    forgetRuleListings();
    const drift = await call(T, "read", [r.id, r.outs]);
    expect(drift.inputs.position).toEqual({ index: 2 });
    await call(T, "update", [r.id, drift.props, r.inputs]);
    expect(rules("http_request_cache_settings").map((x) => x.ref)).toEqual(["cache_static", "bypass_all"]);
  });

  it("adopt by ref with nothing sent when it is as the program says; get by <zoneId>/<phase>/<ruleId>", async () => {
    const seeded = edge.rulesets.seedRule(zoneId(edge), "http_request_cache_settings", {
      action: "set_cache_settings",
      expression: CACHE.expression,
      action_parameters: CACHE.actionParameters,
      ref: "cache_static",
    });
    edge.log.splice(0);
    const r = await make({ ...CACHE, adopt: true });
    expect(r.id).toBe(seeded.id);
    expect(writes()).toBe(0);
    const got = await call(T, "read", [`${zoneId(edge)}/http_request_cache_settings/${seeded.id}`, {}]);
    expect(got.props).toMatchObject({
      phase: "http_request_cache_settings",
      action: "set_cache_settings",
      ruleId: seeded.id,
      actionParameters: CACHE.actionParameters,
    });
  });

  it("pulumi-ops import writes a zone's rules of other phases as adopting RulesetRules, taken over with nothing sent", async () => {
    const seeded = edge.rulesets.seedRule(zoneId(edge), "http_request_cache_settings", {
      action: "set_cache_settings",
      expression: CACHE.expression,
      action_parameters: CACHE.actionParameters,
      description: "static",
    });
    const out = mkdtempSync(path.join(tmpdir(), "import-rules-"));
    const spy = vi.spyOn(console, "log").mockImplementation(() => undefined);
    try {
      expect(await importCommand(["--zone", "example.com", "--out", out])).toBe(0);
    } finally {
      spy.mockRestore();
    }
    const index = readFileSync(path.join(out, "index.ts"), "utf8");
    const m = /new ops\.edge\.RulesetRule\("[^"]+", (\{[\s\S]*?\n\})/.exec(index)!;
    const inputs = JSON.parse(m[1]);
    expect(inputs).toMatchObject({
      zoneName: "example.com",
      phase: "http_request_cache_settings",
      action: "set_cache_settings",
      actionParameters: CACHE.actionParameters,
      adopt: true,
    });
    edge.log.splice(0);
    forgetRuleListings();
    const r = await make(inputs);
    expect(r.id).toBe(seeded.id);
    expect(writes()).toBe(0);
  });

  it("the action's parameters are checked against the phase at preview; the service's refusal of the rest is one line naming the field", async () => {
    const wrong = await call(T, "check", [{}, { ...REDIRECT, phase: "http_request_cache_settings" }]);
    expect(wrong.failures).toContainEqual({
      property: "action",
      reason: expect.stringMatching(/action redirect is not one of phase http_request_cache_settings's: use set_cache_settings/),
    });
    const noTarget = await call(T, "check", [{}, { ...REDIRECT, actionParameters: { from_value: { status_code: 301 } } }]);
    expect(noTarget.failures.map((f: { property: string }) => f.property)).toContain("actionParameters");
  });
});

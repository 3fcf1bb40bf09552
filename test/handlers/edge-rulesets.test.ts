/**
 * FirewallRule and RateLimit on the rulesets engine, as the service has them today: one rule each in the zone's
 * entry point ruleset of their phase, added, patched and deleted one by one; nothing sent to the retired firewall
 * rules and rate-limit endpoints; rules made elsewhere untouched; 0.3.0 state moved with no write; the zone's plan
 * held to at preview.
 */
import { beforeEach, describe, expect, it, vi } from "vitest";
import { call, checkForEngine } from "../../provider/door";
import { forgetRuleListings } from "../../provider/edge/rule-listing";
import { forgetPreviewChecks } from "../../provider/preflight";
import { useEdge, zoneId } from "../helpers/edge";

const edge = useEdge({ plans: { "example.com": "business" } });
beforeEach(() => forgetPreviewChecks());

async function make(type: string, args: Record<string, unknown>) {
  const { inputs, failures } = await call(type, "check", [{}, args]);
  expect(failures).toEqual([]);
  return { inputs, ...(await call(type, "create", [inputs])) };
}
const rules = (phase: string, zone = "example.com") => edge.rulesets.entrypoint(zoneId(edge, zone), phase)?.rules ?? [];
const writes = () =>
  edge.log.filter((e) => e.method !== "GET").map((e) => `${e.method} ${e.path.replace(/^\/client\/v4\/zones\/[^/]+/, "")}`);
const retired = () => edge.log.filter((e) => /\/firewall\/rules|\/rate_limits/.test(e.path)).length;

const FW = "http_request_firewall_custom";
const RL = "http_ratelimit";

describe("FirewallRule as a WAF custom rule", () => {
  const fw = {
    zoneName: "example.com",
    filter: { expression: "ip.src in {198.51.100.0/24 2001:db8::/32}" },
    action: "block",
    description: "bad net",
  };

  it("order: an allow rule goes before the block rule that was there first; a position puts a rule after a named one; a rule moved out of its place is drift, and update puts it back", async () => {
    const block = edge.rulesets.seedRule(zoneId(edge), FW, {
      action: "block",
      expression: 'http.request.uri.path wildcard "/api/*"',
      ref: "block_api",
    });
    const allow = await make("edge:FirewallRule", {
      zoneName: "example.com",
      expression: 'http.request.uri.path wildcard "/api/*" and ip.src eq 203.0.113.7',
      action: "allow",
      ref: "allow_partner",
    });
    expect(rules(FW).map((r) => r.ref)).toEqual(["allow_partner", "block_api"]);
    const log = await make("edge:FirewallRule", {
      zoneName: "example.com",
      expression: 'http.request.uri.path eq "/x"',
      action: "managed_challenge",
      ref: "challenge_x",
      position: { after: "allow_partner" },
    });
    expect(rules(FW).map((r) => r.ref)).toEqual(["allow_partner", "challenge_x", "block_api"]);
    // Moved in the dashboard to the top, before the rule it is to follow: refresh says so, up moves it back.
    const all = rules(FW);
    all.unshift(
      all.splice(
        all.findIndex((r) => r.ref === "challenge_x"),
        1,
      )[0],
    );
    forgetRuleListings();
    const drift = await call("edge:FirewallRule", "read", [log.id, log.outs]);
    expect(drift.inputs.position).toEqual({ index: 1 });
    expect((await call("edge:FirewallRule", "diff", [log.id, drift.props, log.inputs])).changes).toBe(true);
    await call("edge:FirewallRule", "update", [log.id, drift.props, log.inputs]);
    expect(rules(FW).map((r) => r.ref)).toEqual(["allow_partner", "challenge_x", "block_api"]);
    forgetRuleListings();
    expect((await call("edge:FirewallRule", "read", [log.id, log.outs])).inputs).toBeUndefined();
    // A position naming no rule of the phase fails naming the field.
    await expect(
      make("edge:FirewallRule", {
        zoneName: "example.com",
        expression: 'http.request.uri.path eq "/y"',
        action: "block",
        position: { before: "nope" },
      }),
    ).rejects.toThrow(/position.before: the phase has no rule with the ref or id nope/);
    expect(block.id).toBe(rules(FW)[2].id);
    void allow;
  });

  it("a skip's scope is the program's: changed from the current ruleset to phases, the old scope goes", async () => {
    const r = await make("edge:FirewallRule", { zoneName: "example.com", expression: "ip.src eq 203.0.113.8", action: "skip" });
    expect(rules(FW).find((x) => x.id === r.id)!.action_parameters).toEqual({ ruleset: "current" });
    const news = (
      await call("edge:FirewallRule", "check", [
        {},
        { zoneName: "example.com", expression: "ip.src eq 203.0.113.8", action: "skip", actionParameters: { phases: ["http_ratelimit"] } },
      ])
    ).inputs;
    await call("edge:FirewallRule", "update", [r.id, r.outs, news]);
    expect(rules(FW).find((x) => x.id === r.id)!.action_parameters).toEqual({ phases: ["http_ratelimit"] });
  });

  it("the preview says where a new rule will go", async () => {
    edge.rulesets.seedRule(zoneId(edge), FW, { action: "block", expression: 'http.request.uri.path wildcard "/api/*"', ref: "block_api" });
    const said: string[] = [];
    const spy = vi.spyOn(process.stderr, "write").mockImplementation((line) => (said.push(String(line)), true));
    const quiet = process.env.PULUMI_OPS_QUIET;
    process.env.PULUMI_OPS_QUIET = "0";
    try {
      await checkForEngine("edge:FirewallRule", {}, { zoneName: "example.com", expression: "ip.src eq 203.0.113.7", action: "allow" });
    } finally {
      process.env.PULUMI_OPS_QUIET = quiet;
      spy.mockRestore();
    }
    expect(said.join("")).toMatch(
      /FirewallRule "ip.src eq 203.0.113.7" \(allow\) will be added before rule block_api \(block\), the first that is not a skip, so it takes effect among the 1 http_request_firewall_custom rule of example.com/,
    );
    expect(writes()).toEqual([]);
  });

  it("a block's custom response and logging declared: sent, read back, a change in the dashboard is drift and an update restores it", async () => {
    const response = { statusCode: 429, contentType: "application/json", content: '{"error":"blocked"}' };
    const r = await make("edge:FirewallRule", { ...fw, response, logging: { enabled: false } });
    expect(rules(FW).find((x) => x.id === r.id)).toMatchObject({
      logging: { enabled: false },
      action_parameters: { response: { status_code: 429, content_type: "application/json", content: '{"error":"blocked"}' } },
    });
    expect(r.outs).toMatchObject({ response, logging: { enabled: false } });
    (rules(FW).find((x) => x.id === r.id)!.action_parameters as { response: { status_code: number } }).response.status_code = 403;
    forgetRuleListings();
    const drift = await call("edge:FirewallRule", "read", [r.id, r.outs]);
    expect(drift.inputs.response).toMatchObject({ statusCode: 403 });
    await call("edge:FirewallRule", "update", [r.id, drift.props, r.inputs]);
    expect(rules(FW).find((x) => x.id === r.id)).toMatchObject({ action_parameters: { response: { status_code: 429 } } });
    const bad = await call("edge:FirewallRule", "check", [{}, { ...fw, action: "managed_challenge", response }]);
    expect(bad.failures.map((f: { property: string }) => f.property)).toContain("response");
  });

  it("read, merge, write: logging and a block's custom response set out of band survive adopt and an update of the description (a PATCH replaces the whole rule)", async () => {
    const response = { status_code: 403, content_type: "text/plain", content: "go away" };
    const seeded = edge.rulesets.seedRule(zoneId(edge), FW, {
      action: "block",
      expression: fw.filter.expression,
      description: "dashboard",
      logging: { enabled: false },
      action_parameters: { response },
    });
    const r = await make("edge:FirewallRule", { ...fw, adopt: true });
    expect(r.id).toBe(seeded.id);
    const adopted = rules(FW).find((x) => x.id === seeded.id)!;
    expect(adopted).toMatchObject({ description: "bad net", logging: { enabled: false }, action_parameters: { response } });
    const news = (await call("edge:FirewallRule", "check", [{}, { ...fw, description: "bad net, renamed" }])).inputs;
    await call("edge:FirewallRule", "update", [r.id, r.outs, news]);
    expect(rules(FW).find((x) => x.id === seeded.id)).toMatchObject({
      description: "bad net, renamed",
      logging: { enabled: false },
      action_parameters: { response },
    });
    // The program's own fields are still the program's: a new action drops the old action's parameters.
    const challenge = (await call("edge:FirewallRule", "check", [{}, { ...fw, action: "managed_challenge" }])).inputs;
    await call("edge:FirewallRule", "update", [r.id, r.outs, challenge]);
    const now = rules(FW).find((x) => x.id === seeded.id)!;
    expect(now).toMatchObject({ action: "managed_challenge", logging: { enabled: false } });
    expect(now.action_parameters).toBeUndefined();
  });

  it("makes the zone's entry point with its first rule, adds the next one to it, and leaves rules made elsewhere alone", async () => {
    const other = edge.rulesets.seedRule(zoneId(edge), FW, {
      action: "managed_challenge",
      expression: 'http.request.uri.path eq "/dashboard-made"',
      description: "made in the dashboard",
    });
    edge.log.splice(0);
    const a = await make("edge:FirewallRule", fw);
    const b = await make("edge:FirewallRule", {
      zoneName: "example.com",
      expression: 'http.request.uri.path eq "/admin"',
      action: "managed_challenge",
      ref: "admin_challenge",
    });
    expect(writes()).toEqual([`POST /rulesets/${a.outs.rulesetId}/rules`, `POST /rulesets/${a.outs.rulesetId}/rules`]);
    expect(rules(FW).map((r) => r.id)).toEqual([other.id, a.id, b.id]);
    expect(a.outs).toMatchObject({
      action: "block",
      expression: fw.filter.expression,
      filter: fw.filter,
      ruleId: a.id,
      enabled: true,
      paused: false,
      description: "bad net",
    });
    expect(b.outs).toMatchObject({ ref: "admin_challenge", expression: 'http.request.uri.path eq "/admin"' });
    expect(b.outs.filter).toBeUndefined();
    await call("edge:FirewallRule", "delete", [a.id, a.outs]);
    await call("edge:FirewallRule", "delete", [b.id, b.outs]);
    expect(rules(FW).map((r) => r.id)).toEqual([other.id]);
    expect(retired()).toBe(0);
  });

  it("creates the entry point once when a zone's first rules are made together", async () => {
    const made = await Promise.all(
      [1, 2, 3].map((i) =>
        make("edge:FirewallRule", { zoneName: "example.com", expression: `http.request.uri.path eq "/p${i}"`, action: "block" }),
      ),
    );
    expect(edge.count("POST", /\/rulesets$/)).toBe(1);
    expect(
      rules(FW)
        .map((r) => r.id)
        .sort(),
    ).toEqual(made.map((m) => m.id).sort());
  });

  it("no-op, update by PATCH of its own rule, drift on refresh, and delete", async () => {
    const r = await make("edge:FirewallRule", fw);
    expect((await call("edge:FirewallRule", "diff", [r.id, r.outs, r.inputs])).changes).toBe(false);
    forgetRuleListings();
    const same = await call("edge:FirewallRule", "read", [r.id, r.outs]);
    expect(same.inputs).toBeUndefined();
    const news = (await call("edge:FirewallRule", "check", [{}, { ...fw, action: "managed_challenge", paused: true }])).inputs;
    expect((await call("edge:FirewallRule", "diff", [r.id, r.outs, news])).changes).toBe(true);
    edge.log.splice(0);
    const { outs } = await call("edge:FirewallRule", "update", [r.id, r.outs, news]);
    expect(writes()).toEqual([`PATCH /rulesets/${r.outs.rulesetId}/rules/${r.id}`]);
    expect(outs).toMatchObject({ action: "managed_challenge", paused: true, enabled: false });
    // Changed in the dashboard: refresh shows it as the program's inputs would have to say.
    rules(FW)[0].action = "js_challenge";
    forgetRuleListings();
    const drift = await call("edge:FirewallRule", "read", [r.id, outs]);
    expect(drift.inputs).toMatchObject({ action: "js_challenge", filter: fw.filter, paused: true });
    expect(drift.inputs.expression).toBeUndefined();
    await call("edge:FirewallRule", "delete", [r.id, outs]);
    forgetRuleListings();
    expect(await call("edge:FirewallRule", "read", [r.id, outs])).toEqual({});
    await call("edge:FirewallRule", "delete", [r.id, outs]); // already gone: fine
    expect(retired()).toBe(0);
  });

  it("sends allow and bypass as skip of the remaining custom rules, with no diff afterwards", async () => {
    const r = await make("edge:FirewallRule", { zoneName: "example.com", expression: "ip.src eq 203.0.113.7", action: "allow" });
    expect(rules(FW)[0]).toMatchObject({ action: "skip", action_parameters: { ruleset: "current" } });
    expect(r.outs.action).toBe("allow");
    expect(r.outs.actionParameters).toBeUndefined();
    forgetRuleListings();
    expect((await call("edge:FirewallRule", "read", [r.id, r.outs])).inputs).toBeUndefined();
    expect((await call("edge:FirewallRule", "diff", [r.id, r.outs, r.inputs])).changes).toBe(false);
    const phases = await make("edge:FirewallRule", {
      zoneName: "example.com",
      expression: "ip.src eq 203.0.113.8",
      action: "skip",
      actionParameters: { phases: ["http_ratelimit"] },
    });
    expect(phases.outs.actionParameters).toEqual({ phases: ["http_ratelimit"] });
    expect((await call("edge:FirewallRule", "diff", [phases.id, phases.outs, phases.inputs])).changes).toBe(false);
  });

  it("takes over a rule of the same expression and action only with adopt, writing nothing when it is the same", async () => {
    const existing = edge.rulesets.seedRule(zoneId(edge), FW, {
      action: "block",
      expression: fw.filter.expression,
      description: "bad net",
    });
    edge.log.splice(0);
    const r = await make("edge:FirewallRule", { ...fw, adopt: true });
    expect(r.id).toBe(existing.id);
    expect(writes()).toEqual([]);
    expect(rules(FW)).toHaveLength(1);
  });

  it("moves a 0.3.0 stack (a legacy firewall rule id in state) with one update that writes nothing when the converted rule is the same", async () => {
    const converted = edge.rulesets.seedRule(zoneId(edge), FW, {
      action: "block",
      expression: fw.filter.expression,
      description: "bad net",
    });
    const legacyId = "372e67954025e0ba6aaa6d586b9e0b59";
    const state = {
      zoneId: zoneId(edge),
      zoneName: "example.com",
      zoneGivenAs: "zoneName",
      filter: fw.filter,
      filterId: "a".repeat(32),
      action: "block",
      description: "bad net",
      paused: false,
      adopt: false,
    };
    const inputs = (await call("edge:FirewallRule", "check", [state, fw])).inputs;
    expect((await call("edge:FirewallRule", "diff", [legacyId, state, inputs])).changes).toBe(true);
    edge.log.splice(0);
    const { outs } = await call("edge:FirewallRule", "update", [legacyId, state, inputs]);
    expect(writes()).toEqual([]);
    expect(outs).toMatchObject({ ruleId: converted.id, action: "block" });
    expect((await call("edge:FirewallRule", "diff", [legacyId, outs, inputs])).changes).toBe(false);
    // Refresh of state not yet moved finds it too; destroy deletes the converted rule.
    forgetRuleListings();
    expect((await call("edge:FirewallRule", "read", [legacyId, state])).props).toMatchObject({ ruleId: converted.id });
    await call("edge:FirewallRule", "delete", [legacyId, state]);
    expect(rules(FW)).toHaveLength(0);
    expect(retired()).toBe(0);
  });

  it("the retired API refuses writes with 10020, which is never read as 'gone'", async () => {
    const res = await fetch(`${edge.url}/client/v4/zones/${zoneId(edge)}/firewall/rules`, {
      method: "POST",
      headers: { authorization: `Bearer ${process.env.EDGE_API_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify([{ filter: { expression: "ip.src eq 203.0.113.1" }, action: "block" }]),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).errors[0].code).toBe(10020);
  });
});

describe("RateLimit as a rate limiting rule", () => {
  const rl = {
    zoneName: "example.com",
    threshold: 10,
    period: 60,
    action: { mode: "ban", timeout: 600 },
    match: { request: { url: "example.com/login*", methods: ["POST"] } },
  };

  it("maps threshold, period, ban and timeout, the URL pattern and methods to the engine's rule", async () => {
    const r = await make("edge:RateLimit", rl);
    expect(rules(RL)[0]).toMatchObject({
      action: "block",
      expression: '(http.host eq "example.com") and (http.request.uri.path wildcard "/login*") and (http.request.method in {"POST"})',
      ratelimit: { characteristics: ["cf.colo.id", "ip.src"], period: 60, requests_per_period: 10, mitigation_timeout: 600 },
      enabled: true,
    });
    expect(r.outs).toMatchObject({
      threshold: 10,
      period: 60,
      action: { mode: "ban", timeout: 600 },
      match: rl.match,
      ruleId: r.id,
      disabled: false,
    });
    expect(retired()).toBe(0);
  });

  it("no-op, update by PATCH, drift on refresh, destroy", async () => {
    const r = await make("edge:RateLimit", rl);
    expect((await call("edge:RateLimit", "diff", [r.id, r.outs, r.inputs])).changes).toBe(false);
    forgetRuleListings();
    expect((await call("edge:RateLimit", "read", [r.id, r.outs])).inputs).toBeUndefined();
    const news = (await call("edge:RateLimit", "check", [{}, { ...rl, threshold: 20, action: { mode: "managed_challenge" } }])).inputs;
    edge.log.splice(0);
    const { outs } = await call("edge:RateLimit", "update", [r.id, r.outs, news]);
    expect(writes()).toEqual([`PATCH /rulesets/${r.outs.rulesetId}/rules/${r.id}`]);
    expect(rules(RL)[0]).toMatchObject({ action: "managed_challenge", ratelimit: { requests_per_period: 20, mitigation_timeout: 0 } });
    expect(outs.action).toEqual({ mode: "managed_challenge" });
    (rules(RL)[0].ratelimit as { requests_per_period: number }).requests_per_period = 99;
    forgetRuleListings();
    const drift = await call("edge:RateLimit", "read", [r.id, outs]);
    expect(drift.inputs).toMatchObject({ threshold: 99 });
    expect((await call("edge:RateLimit", "diff", [r.id, drift.props, news])).changes).toBe(true);
    await call("edge:RateLimit", "delete", [r.id, outs]);
    expect(rules(RL)).toHaveLength(0);
    expect(retired()).toBe(0);
  });

  it("moves a 0.3.0 stack with one update that writes nothing when the converted rule is the same", async () => {
    const { inputs } = await call("edge:RateLimit", "check", [{}, rl]);
    const converted = edge.rulesets.seedRule(zoneId(edge), RL, {
      action: "block",
      expression: '(http.host eq "example.com") and (http.request.uri.path wildcard "/login*") and (http.request.method in {"POST"})',
      ratelimit: { characteristics: ["ip.src", "cf.colo.id"], period: 60, requests_per_period: 10, mitigation_timeout: 600 },
    });
    const state = {
      zoneId: zoneId(edge),
      zoneName: "example.com",
      threshold: 10,
      period: 60,
      action: { mode: "ban", timeout: 600 },
      match: rl.match,
      disabled: false,
      adopt: false,
    };
    const legacyId = "372e67954025e0ba6aaa6d586b9e0b59";
    expect((await call("edge:RateLimit", "diff", [legacyId, state, inputs])).changes).toBe(true);
    edge.log.splice(0);
    const { outs } = await call("edge:RateLimit", "update", [legacyId, state, inputs]);
    expect(writes()).toEqual([]);
    expect(outs.ruleId).toBe(converted.id);
    expect((await call("edge:RateLimit", "diff", [legacyId, outs, inputs])).changes).toBe(false);
  });

  it("a plan's disallowed period, timeout, host or methods fail the preview, naming the plan and what it allows; nothing is sent", async () => {
    // example.org is on the Free plan (the emulator's default), example.com on Business.
    const free = { ...rl, zoneName: "example.org", match: { request: { url: "example.org/login*", methods: ["POST"] } } };
    await expect(checkForEngine("edge:RateLimit", {}, free)).rejects.toThrow(
      /period: period 60 is not allowed on the zone's Free plan: use 10 seconds; action.timeout: action.timeout 600 is not allowed on the zone's Free plan: use 10 seconds; match.request.url: rate limiting rules on the zone's Free plan match paths only: write the pattern as "\*\/login\*" \(any host\).*; match.request.methods: methods cannot be matched/,
    );
    forgetPreviewChecks();
    await expect(
      checkForEngine(
        "edge:RateLimit",
        {},
        { ...free, period: 10, action: { mode: "ban", timeout: 10 }, match: { request: { url: "*/login*" } } },
      ),
    ).resolves.toMatchObject({ failures: [] });
    expect(writes()).toEqual([]);
    // The service refuses the same at up.
    const { inputs } = await call("edge:RateLimit", "check", [{}, free]);
    await expect(call("edge:RateLimit", "create", [inputs])).rejects.toThrow(/not allowed on the free plan/);
  });

  it("read, merge, write: a counting expression, requests to origin and logging set out of band survive an update", async () => {
    const r = await make("edge:RateLimit", rl);
    const placed = rules(RL).find((x) => x.id === r.id)!;
    // Set in the dashboard: the emulator's PATCH replaces the definition as the service's does.
    await fetch(`${edge.url}/client/v4/zones/${zoneId(edge)}/rulesets/${r.outs.rulesetId}/rules/${r.id}`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${process.env.EDGE_API_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({
        ...placed,
        logging: { enabled: false },
        ratelimit: { ...placed.ratelimit, counting_expression: "http.response.code eq 401", requests_to_origin: true },
      }),
    });
    const news = (await call("edge:RateLimit", "check", [{}, { ...rl, threshold: 20, description: "login" }])).inputs;
    await call("edge:RateLimit", "update", [r.id, r.outs, news]);
    expect(rules(RL).find((x) => x.id === r.id)).toMatchObject({
      description: "login",
      logging: { enabled: false },
      ratelimit: { requests_per_period: 20, counting_expression: "http.response.code eq 401", requests_to_origin: true },
    });
  });

  it("characteristics, a counting expression and requests to origin on a Business zone; refused below Business at preview naming the plan", async () => {
    const counted = {
      ...rl,
      characteristics: ["cf.colo.id", 'http.request.headers["x-api-key"]'],
      countingExpression: "http.response.code eq 401",
      requestsToOrigin: true,
    };
    const r = await make("edge:RateLimit", counted);
    expect(rules(RL).find((x) => x.id === r.id)!.ratelimit).toMatchObject({
      characteristics: counted.characteristics,
      counting_expression: "http.response.code eq 401",
      requests_to_origin: true,
    });
    expect(r.outs).toMatchObject({
      characteristics: counted.characteristics,
      countingExpression: "http.response.code eq 401",
      requestsToOrigin: true,
    });
    forgetRuleListings();
    expect((await call("edge:RateLimit", "read", [r.id, r.outs])).inputs).toBeUndefined();
    await expect(
      checkForEngine(
        "edge:RateLimit",
        {},
        { ...counted, zoneName: "example.org", period: 10, action: { mode: "ban", timeout: 10 }, match: { request: { url: "*/login*" } } },
      ),
    ).rejects.toThrow(
      /characteristics: requests are counted by client address \(ip.src\) only on the zone's Free plan.*countingExpression: a counting expression needs a Business plan/,
    );
    expect(
      (await call("edge:RateLimit", "check", [{}, { ...rl, characteristics: ["ip.src"] }])).failures.map(
        (f: { property: string }) => f.property,
      ),
    ).toContain("characteristics");
  });

  it("complexity-based: a score per period read from an origin header, on Enterprise; refused below it at preview naming the plan", async () => {
    const { threshold: _t, ...rest } = rl;
    const scored = { ...rest, scorePerPeriod: 400, scoreResponseHeaderName: "x-score" };
    await expect(checkForEngine("edge:RateLimit", {}, scored)).rejects.toThrow(
      /scorePerPeriod: complexity-based rate limiting needs an Enterprise plan with Advanced Rate Limiting \(the zone's Business plan\)/,
    );
    expect(
      (await call("edge:RateLimit", "check", [{}, { ...scored, threshold: 5 }])).failures.map((f: { reason: string }) => f.reason),
    ).toContainEqual(expect.stringMatching(/exactly one of threshold .* and scorePerPeriod/));
    edge.plans.set(zoneId(edge, "example.org"), "enterprise");
    const r = await make("edge:RateLimit", { ...scored, zoneName: "example.org", match: { request: { url: "example.org/api/*" } } });
    expect(rules(RL, "example.org").find((x) => x.id === r.id)!.ratelimit).toMatchObject({
      score_per_period: 400,
      score_response_header_name: "x-score",
    });
    expect(r.outs).toMatchObject({ scorePerPeriod: 400, scoreResponseHeaderName: "x-score" });
    forgetRuleListings();
    expect((await call("edge:RateLimit", "read", [r.id, r.outs])).inputs).toBeUndefined();
  });

  it("each plan's limits as the availability table gives them: a Pro zone takes period 30, timeout 600 and a threshold of 1, refuses period 120 naming the plan; both as the service answers", async () => {
    edge.plans.set(zoneId(edge, "example.org"), "pro");
    // By id: the provider keeps each zone's plan for the command, and example.org was read as Free by name above.
    const { zoneName: _, ...byId } = rl;
    const pro = {
      ...byId,
      zoneId: zoneId(edge, "example.org"),
      threshold: 1,
      period: 30,
      action: { mode: "ban", timeout: 600 },
      match: { request: { url: "example.org/login*" } },
    };
    await expect(checkForEngine("edge:RateLimit", {}, pro)).resolves.toMatchObject({ failures: [] });
    forgetPreviewChecks();
    await expect(checkForEngine("edge:RateLimit", {}, { ...pro, period: 120 })).rejects.toThrow(
      /period 120 is not allowed on the zone's Pro plan: use 10, 15, 20, 30, 40, 45, 60 seconds/,
    );
    forgetPreviewChecks();
    await expect(checkForEngine("edge:RateLimit", {}, { ...pro, action: { mode: "ban", timeout: 7200 } })).rejects.toThrow(
      /action.timeout 7200 is not allowed on the zone's Pro plan: use 10, .*, 2400, 3600 seconds/,
    );
    const made = await make("edge:RateLimit", pro);
    expect(made.outs).toMatchObject({ threshold: 1, period: 30, action: { mode: "ban", timeout: 600 } });
  });

  it("a new rule where the plan's number is reached fails the preview, naming the rule there; adopt takes it over", async () => {
    const one = {
      ...rl,
      zoneName: "example.org",
      period: 10,
      action: { mode: "ban", timeout: 10 },
      match: { request: { url: "*/login*" } },
    };
    await make("edge:RateLimit", one);
    forgetPreviewChecks();
    await expect(checkForEngine("edge:RateLimit", {}, { ...one, match: { request: { url: "*/api/*" } } })).rejects.toThrow(
      /the zone's free plan allows 1 rate limiting rule\(s\) and example\.org has 1 \(\w+\): remove one, take it over with adopt: true/,
    );
    forgetPreviewChecks();
    await expect(checkForEngine("edge:RateLimit", {}, { ...one, adopt: true })).resolves.toMatchObject({ failures: [] });
  });
});

import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { successorsLine } from "../../provider/edge/page-rule/successors";
import { describe, expect, it } from "vitest";
import { forgetClaims } from "../../provider/claims";
import { call } from "../../provider/door";
import { collectWarnings } from "../../provider/log";
import { forgetPreviewChecks, previewCheck } from "../../provider/preflight";
import { forgetRuleListings } from "../../provider/edge/rule-listing";
import { useEdge, zoneId } from "../helpers/edge";

const edge = useEdge({ plans: { "example.com": "business" } });

/** What the provider prints on stderr while `f` runs (its info lines and warnings), with printing on. */
async function stderrOf(f: () => Promise<void>): Promise<string> {
  let printed = "";
  const write = process.stderr.write.bind(process.stderr);
  const quiet = process.env.PULUMI_OPS_QUIET;
  process.stderr.write = ((chunk: string) => ((printed += chunk), true)) as typeof process.stderr.write;
  process.env.PULUMI_OPS_QUIET = "0";
  try {
    await f();
  } finally {
    process.stderr.write = write;
    process.env.PULUMI_OPS_QUIET = quiet;
  }
  return printed;
}

async function make(type: string, args: Record<string, unknown>) {
  const { inputs, failures } = await call(type, "check", [{}, args]);
  expect(failures).toEqual([]);
  return { inputs, ...(await call(type, "create", [inputs])) };
}
const api = (p: string, init: RequestInit = {}) =>
  fetch(`${edge.url}/client/v4${p}`, {
    ...init,
    headers: { authorization: `Bearer ${process.env.EDGE_API_TOKEN}`, "content-type": "application/json" },
  });

const rule = (value: string, priority: number, cache = "cache_everything") => ({
  zoneName: "example.com",
  targets: [`example.com/${value}/*`],
  actions: [{ id: "cache_level", value: cache }],
  priority,
});

describe("PageRule", () => {
  it("its check says the product is deprecated (once a run, see test/unit/log.test.ts) and names, for each action, the rule that does the same", async () => {
    const { result, warnings } = collectWarnings(() =>
      call("edge:PageRule", "check", [
        {},
        {
          zoneName: "example.com",
          targets: ["example.com/old/*"],
          actions: [{ id: "forwarding_url", value: { url: "https://example.com/new/$1", status_code: 301 } }],
        },
      ]),
    );
    expect((await result).failures).toEqual([]);
    expect(warnings).toEqual([
      expect.stringMatching(
        /page rules are deprecated by the service \(.*page-rules-migration\/\): `pulumi-ops import --page-rules-as-rules` writes/,
      ),
    ]);
    expect(successorsLine("example.com/old/*", [{ id: "forwarding_url" }])).toBe(
      "edge: the page rule for example.com/old/* can move to: forwarding_url -> a redirect rule (Single Redirects, phase http_request_dynamic_redirect)",
    );
    expect(successorsLine("example.com/static/*", [{ id: "cache_level" }, { id: "security_level" }])).toMatch(
      /cache_level -> a cache rule \(http_request_cache_settings\); security_level -> a configuration rule \(http_config_settings\)/,
    );
  });

  it("keeps the ranks asked for while the service closes gaps: no churn", async () => {
    const a = await make("edge:PageRule", rule("static", 10));
    const b = await make("edge:PageRule", rule("assets", 20));
    for (const r of [a, b]) {
      const read = await call("edge:PageRule", "read", [r.id, r.outs]);
      expect(read.inputs).toBeUndefined();
      expect((await call("edge:PageRule", "diff", [r.id, read.props, r.inputs])).changes).toBe(false);
    }
    const b2 = await call("edge:PageRule", "read", [b.id, b.outs]);
    expect(b2.props).toMatchObject({ priority: 20, effectivePriority: 2 });
  });

  it("updates actions in place, reports drift, adopts by URL pattern, deletes idempotently", async () => {
    const a = await make("edge:PageRule", rule("static", 1));
    const news = (await call("edge:PageRule", "check", [{}, rule("static", 1, "aggressive")])).inputs;
    expect(await call("edge:PageRule", "diff", [a.id, a.outs, news])).toMatchObject({ changes: true, replaces: [] });
    const { outs } = await call("edge:PageRule", "update", [a.id, a.outs, news]);
    expect(outs.actions).toEqual([{ id: "cache_level", value: "aggressive" }]);

    await api(`/zones/${zoneId(edge)}/pagerules/${a.id}`, { method: "PATCH", body: JSON.stringify({ status: "disabled" }) });

    forgetRuleListings(); // the refresh that finds it is a new run, with no listing yet
    expect((await call("edge:PageRule", "read", [a.id, outs])).inputs.status).toBe("disabled");

    forgetClaims(); // a later run, another stack: the rule is no resource's of this one
    // Its preview says what it will take over, as info, with reads only.
    const printed = await stderrOf(async () => {
      forgetPreviewChecks();
      const { inputs } = await call("edge:PageRule", "check", [{}, { ...rule("static", 1), adopt: true }]);
      const before = edge.log.filter((e) => e.method !== "GET").length;
      await previewCheck("edge:PageRule", undefined, inputs, {});
      expect(edge.log.filter((e) => e.method !== "GET").length).toBe(before);
    });
    expect(printed).toMatch(
      new RegExp(
        `\\[pulumi-ops\\] edge: PageRule for example\\.com/static/\\* will adopt the existing page rule \\(id ${a.id}\\) in example\\.com: changed to the program's`,
      ),
    );
    const adopted = await make("edge:PageRule", { ...rule("static", 1), adopt: true });
    expect(adopted.id).toBe(a.id);
    forgetClaims(); // the destroy is a later run
    await call("edge:PageRule", "delete", [a.id, outs]);
    await call("edge:PageRule", "delete", [a.id, outs]);
    expect(await call("edge:PageRule", "read", [a.id, outs])).toEqual({});
  });

  it("keeps the rule the service made when the create's answer is lost", async () => {
    edge.inject({ match: { method: "POST", path: "pagerules$" }, count: 1, kind: "drop-after" });
    await make("edge:PageRule", rule("lost", 1));
    const list = (await (await api(`/zones/${zoneId(edge)}/pagerules`)).json()) as any;
    expect(list.result).toHaveLength(1);
  });

  it("refuses at check: unknown actions, bad values, a pattern outside the zone", async () => {
    const bad = await call("edge:PageRule", "check", [
      {},
      { ...rule("x", 1), actions: [{ id: "cache_level", value: "everything" }, { id: "teleport" }] },
    ]);
    expect(bad.failures.map((f: { property: string }) => f.property)).toEqual(["actions.0.value", "actions.1.value"]);
    const outside = await call("edge:PageRule", "check", [{}, { ...rule("x", 1), targets: ["other.org/*"] }]);
    expect(outside.failures[0]).toMatchObject({ property: "targets", reason: expect.stringMatching(/outside the zone/) });
  });
});

describe("FirewallRule", () => {
  const fw = {
    zoneName: "example.com",
    filter: { expression: "ip.src in {198.51.100.0/24 2001:db8::/32}" },
    action: "block",
    description: "bad net",
  };

  it.each([
    ["ip.src in {198.51.100.0/24", /unbalanced "\{"/],
    ['http.host eq "example.com', /unbalanced quote/],
    ["(ip.src eq 198.51.100.1", /unbalanced "\("/],
    ["ip.src in {198.51.100.0/33}", /not an IP address or CIDR/],
    ["ip.src in {300.1.1.1}", /not an IP address or CIDR/],
    ["ip.src eq 1.2.3", /not an IP address/],
    ['http.hots eq "example.com"', /unknown field "http.hots"/],
  ])("refuses %s", async (expression, reason) => {
    const r = await call("edge:FirewallRule", "check", [{}, { ...fw, filter: { expression } }]);
    expect(r.failures).toContainEqual({ property: "filter.expression", reason: expect.stringMatching(reason) });
    const engine = await call("edge:FirewallRule", "check", [{}, { zoneName: "example.com", expression, action: "block" }]);
    expect(engine.failures).toContainEqual({ property: "expression", reason: expect.stringMatching(reason) });
  });

  it("accepts a realistic expression with strings that look like fields", async () => {
    const expression = '(http.request.uri.path eq "/wp-login.php" and not ip.src in {203.0.113.7}) or http.user_agent contains "bad.bot"';
    expect((await call("edge:FirewallRule", "check", [{}, { ...fw, filter: { expression } }])).failures).toEqual([]);
  });

  it("takes exactly one of expression and filter.expression", async () => {
    const both = await call("edge:FirewallRule", "check", [{}, { ...fw, expression: "ip.src eq 203.0.113.9" }]);
    expect(both.failures).toContainEqual({ property: "filter", reason: "set exactly one of expression and filter.expression" });
    const none = await call("edge:FirewallRule", "check", [{}, { zoneName: "example.com", action: "block" }]);
    expect(none.failures).toContainEqual({ property: "expression", reason: "set exactly one of expression and filter.expression" });
  });
});

describe("RateLimit", () => {
  it.each([
    [{ action: { mode: "ban" } }, "action.timeout", /needs action.timeout/],
    [{ action: { mode: "challenge", timeout: 600 } }, "action.timeout", /ban and simulate only/],
    [{ action: { mode: "ban", timeout: 90_000 } }, "action.timeout", /at most 86400 seconds/],
    [{ threshold: 0 }, "threshold", /at least 1/],
    [{ period: 5 }, "period", /must be one of 10, 15, 20, 30, 40, 45, 60, .*, 3600, 65535 seconds/],
    [{ period: 86400 }, "period", /must be one of 10, 15, 20/],
    [{ action: { mode: "explode", timeout: 600 } }, "action.mode", /one of simulate, ban/],
  ])("refuses %j", async (bad, property, reason) => {
    const rl = {
      zoneName: "example.com",
      threshold: 10,
      period: 60,
      action: { mode: "ban", timeout: 600 },
      match: { request: { url: "example.com/login*" } },
    };
    const r = await call("edge:RateLimit", "check", [{}, { ...rl, ...bad }]);
    expect(r.failures).toContainEqual({ property, reason: expect.stringMatching(reason) });
  });
});

describe("WorkerScript", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "worker-"));
  const file = path.join(dir, "worker.js");

  it("deploys from a file, compares by hash, reads drift and deletes", async () => {
    writeFileSync(file, "export default { fetch() { return new Response('v1') } }");
    const r = await make("edge:WorkerScript", { name: "hello", source: file });
    expect(r.id).toMatch(/^[0-9a-f]{32}\/hello$/);
    expect(r.outs).not.toHaveProperty("content");
    expect((await call("edge:WorkerScript", "diff", [r.id, r.outs, r.inputs])).changes).toBe(false);

    writeFileSync(file, "export default { fetch() { return new Response('v2') } }");
    const v2 = (await call("edge:WorkerScript", "check", [{}, { name: "hello", source: file }])).inputs;
    expect(await call("edge:WorkerScript", "diff", [r.id, r.outs, v2])).toMatchObject({ changes: true, replaces: [] });
    const { outs } = await call("edge:WorkerScript", "update", [r.id, r.outs, v2]);
    expect(edge.scripts.get("hello")!.body).toContain("v2");

    edge.editScript("hello", "export default {} // tampered");
    expect((await call("edge:WorkerScript", "read", [r.id, outs])).inputs.contentHash).not.toBe(outs.contentHash);
    expect(await call("edge:WorkerScript", "diff", [r.id, outs, { ...v2, name: "renamed" }])).toMatchObject({ replaces: ["name"] });
    await call("edge:WorkerScript", "delete", [r.id, outs]);
    await call("edge:WorkerScript", "delete", [r.id, outs]);
    expect(await call("edge:WorkerScript", "read", [r.id, outs])).toEqual({});
  });

  it("refuses a missing file, both or neither of content and source, and a bad name", async () => {
    const check = (a: object) => call("edge:WorkerScript", "check", [{}, a]);
    expect((await check({ name: "x", source: path.join(dir, "missing.js") })).failures[0]).toMatchObject({
      property: "source",
      reason: expect.stringMatching(/ENOENT/),
    });
    expect((await check({ name: "x" })).failures[0].reason).toMatch(/exactly one of content and source/);
    expect((await check({ name: "x", content: "a", source: file })).failures[0].reason).toMatch(/exactly one/);
    expect((await check({ name: "../etc", content: "a" })).failures[0].property).toBe("name");
  });
});

describe("edge functions", () => {
  it("answer with typed, deterministic data and validate their arguments", async () => {
    const fns = await import("../../provider/edge/functions");
    const zone = await fns.getZone({ name: "example.com" });
    expect(zone).toEqual({ id: zoneId(edge), name: "example.com", status: "active" });
    await expect(fns.getZone({ name: "nope.example" })).rejects.toThrow(/no zone named "nope.example"/);
    expect(await fns.verifyToken()).toMatchObject({ status: "active" });
    const a1 = await fns.getZoneAnalytics({ zoneId: zone.id, since: -1440 });
    const a2 = await fns.getZoneAnalytics({ zoneId: zone.id, since: -1440 });
    expect(a1.requests.all).toBe(a2.requests.all);
    // Whole days, as documented: the outputs name the days counted and do not change from one run to the next.
    expect(a1.since).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(a1.until).toBe(new Date().toISOString().slice(0, 10));
    expect({ since: a2.since, until: a2.until }).toEqual({ since: a1.since, until: a1.until });
    await expect(fns.getZoneAnalytics({ zoneId: zone.id, since: 60 })).rejects.toThrow(/since.*negative offset/);
    await expect(fns.getZoneAnalytics({ zoneId: zone.id, since: "2026-11-02T00:00:00Z", until: "2026-11-01T00:00:00Z" })).rejects.toThrow(
      /before until/,
    );
    await expect(fns.getZoneAnalytics({ zoneId: zone.id, until: "tomorrow" as never })).rejects.toThrow(/until/);
    expect((await fns.getSecurityEvents({ zoneId: zone.id })).length).toBe(5);
    const stats = await fns.getCacheStats({ zoneId: zone.id });
    expect(stats[0].hitRatio).toBeGreaterThan(0);
    // From the GraphQL API, with each dataset's limits read once (example.com is a Business zone here: 3 days wide).
    expect(edge.log.filter((e) => /analytics|security\/events/.test(e.path))).toEqual([]);
    expect(edge.count("POST", /\/graphql$/)).toBe(7); // three datasets' limits, the totals twice, events, cache
    await expect(fns.getSecurityEvents({ zoneId: zone.id, since: -5 * 1440 })).rejects.toThrow(
      /outside what firewallEventsAdaptive offers for this zone: at most 3 days wide, and no earlier than .* \(31 days back\)/,
    );
    await expect(fns.getZoneAnalytics({ zoneId: zone.id, since: "2020-01-01T00:00:00Z" })).rejects.toThrow(
      /at most 366 days wide.*Ask for a window of at most 366 days within the last 366 days/,
    );
    await make("edge:WorkerScript", { name: "listed", content: "export default {}" });
    expect((await fns.listWorkerScripts()).map((s) => s.name)).toEqual(["listed"]);
  });
});

describe("get(): reading an existing object by its composite id", () => {
  it.each([
    ["edge:PageRule", rule("got", 5)],
    ["edge:FirewallRule", { zoneName: "example.com", filter: { expression: "ip.src eq 203.0.113.9" }, action: "block" }],
    [
      "edge:RateLimit",
      {
        zoneName: "example.com",
        threshold: 5,
        period: 60,
        action: { mode: "managed_challenge" },
        match: { request: { url: "example.com/api/*" } },
      },
    ],
  ])("%s reads <zoneId>/<ruleId> with no prior state", async (type, args) => {
    const made = await make(type, args);
    const got = await call(type, "read", [`${zoneId(edge)}/${made.id}`, {}]);
    expect(got.props).toMatchObject({ zoneId: zoneId(edge), zoneName: "example.com" });
  });
});

describe("a rule renamed without an alias", () => {
  it("the new resource adopts the rule, and the old one's delete in the same run leaves it (page rule, firewall rule)", async () => {
    const page = await make("edge:PageRule", rule("moved", 1));
    const fw = await make("edge:FirewallRule", {
      zoneName: "example.com",
      expression: "ip.src eq 198.51.100.7",
      action: "block",
      ref: "moved",
    });
    forgetClaims(); // the next run: the renamed resources are new, the old ones are deleted after them
    const newPage = await make("edge:PageRule", { ...rule("moved", 1), adopt: true });
    const newFw = await make("edge:FirewallRule", {
      zoneName: "example.com",
      expression: "ip.src eq 198.51.100.7",
      action: "block",
      ref: "moved",
      adopt: true,
    });
    expect([newPage.id, newFw.outs.ruleId]).toEqual([page.id, fw.outs.ruleId]);
    await call("edge:PageRule", "delete", [page.id, page.outs]);
    await call("edge:FirewallRule", "delete", [fw.id, fw.outs]);
    const pages = (await (await api(`/zones/${zoneId(edge)}/pagerules`)).json()) as any;
    expect(pages.result.map((r: { id: string }) => r.id)).toEqual([page.id]);
    const ruleset = (await (await api(`/zones/${zoneId(edge)}/rulesets/phases/http_request_firewall_custom/entrypoint`)).json()) as any;
    expect(ruleset.result.rules.map((r: { id: string }) => r.id)).toEqual([fw.outs.ruleId]);
    forgetClaims(); // a later destroy deletes them
    await call("edge:PageRule", "delete", [newPage.id, newPage.outs]);
    await call("edge:FirewallRule", "delete", [newFw.id, newFw.outs]);
    expect(((await (await api(`/zones/${zoneId(edge)}/pagerules`)).json()) as any).result).toEqual([]);
  });
});

describe("page rule ranks", () => {
  it("follow creation order on the service: created in rank order they match the ranks asked", async () => {
    const low = await make("edge:PageRule", rule("low", 10));
    const high = await make("edge:PageRule", rule("high", 20));
    expect((await call("edge:PageRule", "read", [low.id, low.outs])).props.effectivePriority).toBe(1);
    expect((await call("edge:PageRule", "read", [high.id, high.outs])).props.effectivePriority).toBe(2);
  });
});

describe("refresh of a zone's rules", () => {
  it("reads every page rule, firewall rule and rate limit of a zone from one listing of each (the entry point of each phase), never one by one", async () => {
    const made = await Promise.all([
      ...[1, 2, 3, 4].map((i) => make("edge:PageRule", rule(`r${i}`, i))),
      ...[1, 2, 3].map((i) =>
        make("edge:FirewallRule", {
          zoneName: "example.com",
          filter: { expression: `http.request.uri.path eq "/p${i}"` },
          action: "block",
        }),
      ),
      ...[1, 2, 3].map((i) =>
        make("edge:RateLimit", {
          zoneName: "example.com",
          threshold: 10,
          period: 60,
          action: { mode: "ban", timeout: 600 },
          match: { request: { url: `example.com/l${i}*` } },
        }),
      ),
    ]);
    forgetRuleListings(); // a refresh is a new run
    edge.log.splice(0);
    const types = [
      "edge:PageRule",
      "edge:PageRule",
      "edge:PageRule",
      "edge:PageRule",
      "edge:FirewallRule",
      "edge:FirewallRule",
      "edge:FirewallRule",
      "edge:RateLimit",
      "edge:RateLimit",
      "edge:RateLimit",
    ];
    const read = await Promise.all(made.map((m, i) => call(types[i], "read", [m.id, m.outs])));
    expect(read.map((r) => r.id)).toEqual(made.map((m) => m.id));
    const gets = edge.log.filter((e) => e.method === "GET").map((e) => e.path.replace(/^\/client\/v4\/zones\/[^/]+/, ""));
    expect(gets.sort()).toEqual([
      "/pagerules",
      "/rulesets/phases/http_ratelimit/entrypoint",
      "/rulesets/phases/http_request_firewall_custom/entrypoint",
    ]);
  });
});

describe("get() of rules", () => {
  it("takes the bare id each rule's .id holds, and fails clearly when nothing has it", async () => {
    const r = await make("edge:PageRule", rule("got", 1));
    const fw = await make("edge:FirewallRule", {
      zoneName: "example.com",
      filter: { expression: 'http.request.uri.path eq "/got"' },
      action: "block",
    });
    forgetRuleListings();
    expect((await call("edge:PageRule", "read", [r.id, {}])).props).toMatchObject({ zoneId: zoneId(edge) });
    expect((await call("edge:FirewallRule", "read", [fw.id, {}])).props).toMatchObject({ action: "block" });
    await expect(call("edge:RateLimit", "read", ["f".repeat(32), {}])).rejects.toThrow(
      /no rate limit has id f{32} in the zones this token can read/,
    );
  });
});

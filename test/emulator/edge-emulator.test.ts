/** The edge emulator's own contract: test hooks over HTTP, fault kinds, loopback guard, and the Cloudflare API v4's other objects. */
import * as http from "node:http";
import { describe, expect, it } from "vitest";
import { DEMO_ACCOUNT, DEMO_TOKEN } from "../../emulators";
import { call } from "../../provider/door";
import { useEdge, zoneId } from "../helpers/edge";

const edge = useEdge();

const api = (path: string, init: RequestInit = {}) =>
  fetch(`${edge.url}/client/v4${path}`, {
    ...init,
    headers: { authorization: `Bearer ${DEMO_TOKEN}`, "content-type": "application/json", ...init.headers },
  });

describe("edge emulator", () => {
  it("exposes reset, log, faults and clock as HTTP test hooks apart from the API", async () => {
    await api("/zones");
    const log = (await (await fetch(`${edge.url}/__emulator/log`)).json()) as any;
    expect(log).toEqual([expect.objectContaining({ method: "GET", path: "/client/v4/zones", status: 200 })]);
    await fetch(`${edge.url}/__emulator/faults`, {
      method: "POST",
      body: JSON.stringify({ match: { method: "GET" }, count: 1, kind: "status", status: 503 }),
    });
    expect((await api("/zones")).status).toBe(503);
    expect((await api("/zones")).status).toBe(200);
    const clock = (await (
      await fetch(`${edge.url}/__emulator/clock`, { method: "POST", body: JSON.stringify({ advanceSeconds: 3600 }) })
    ).json()) as any;
    expect(Date.parse(clock.now)).toBeGreaterThan(Date.now() + 3_500_000);
    edge.clockOffsetMs = 0;
    await fetch(`${edge.url}/__emulator/reset`, { method: "POST" });
    expect(edge.log).toEqual([]);
  });

  it("refuses a foreign Host header (DNS rebinding) and requests without credentials", async () => {
    // fetch will not send a foreign Host header, so this one goes through node:http.
    const rebound = await new Promise<number>((resolve, reject) => {
      const url = new URL(`${edge.url}/client/v4/zones`);
      http
        .get(
          {
            host: url.hostname,
            port: url.port,
            path: url.pathname,
            headers: { host: "attacker.example", authorization: `Bearer ${DEMO_TOKEN}` },
          },
          (res) => {
            res.resume();
            resolve(res.statusCode!);
          },
        )
        .on("error", reject);
    });
    expect(rebound).toBe(403);
    const anonymous = await fetch(`${edge.url}/client/v4/zones`);
    expect(anonymous.status).toBe(400);
    expect(((await anonymous.json()) as any).errors[0].code).toBe(9106);
    const legacy = await fetch(`${edge.url}/client/v4/zones`, {
      headers: { "x-auth-email": "ops@example.com", "x-auth-key": "edge-legacy-global-key" },
    });
    expect(legacy.status).toBe(200);
  });

  it("drops the connection before or after acting, as asked", async () => {
    edge.inject({ match: { method: "POST" }, count: 1, kind: "drop" });
    await expect(
      api(`/zones/${zoneId(edge)}/dns_records`, { method: "POST", body: JSON.stringify({ type: "A", name: "x", content: "203.0.113.1" }) }),
    ).rejects.toThrow();
    expect(edge.zones.get(zoneId(edge))!.records.size).toBe(0);
    edge.inject({ match: { method: "POST" }, count: 1, kind: "drop-after" });
    await expect(
      api(`/zones/${zoneId(edge)}/dns_records`, { method: "POST", body: JSON.stringify({ type: "A", name: "x", content: "203.0.113.1" }) }),
    ).rejects.toThrow();
    expect(edge.zones.get(zoneId(edge))!.records.size).toBe(1);
  });

  it("answers a slow request normally, only later", async () => {
    edge.inject({ match: { method: "POST" }, count: 1, kind: "slow", ms: 300 });
    const answered: string[] = [];
    const made = api(`/zones/${zoneId(edge)}/dns_records`, {
      method: "POST",
      body: JSON.stringify({ type: "A", name: "x", content: "203.0.113.1" }),
    }).then((r) => (answered.push("POST"), r));
    await api("/zones").then(() => answered.push("GET")); // sent after the POST, answered before it
    expect((await made).status).toBe(200);
    expect(answered).toEqual(["GET", "POST"]);
    expect(edge.zones.get(zoneId(edge))!.records.size).toBe(1);
  });

  it("a request that hangs past the provider's timeout fails clearly after its retries", async () => {
    process.env.EDGE_TIMEOUT_SECONDS = "1";
    process.env.EDGE_MAX_RETRIES = "1";
    try {
      edge.inject({ match: { method: "GET", path: "/settings/" }, count: 2, kind: "hang", ms: 5000 });
      const err = await call("edge:ZoneSetting", "read", [`${zoneId(edge)}/ssl`, { zoneName: "example.com" }]).catch((e: Error) => e);
      expect(err.message).toMatch(/no answer within 1 s.*raise ops:edgeTimeoutSeconds/);
      expect(edge.count("GET", /settings\/ssl$/)).toBe(2);
    } finally {
      process.env.EDGE_TIMEOUT_SECONDS = "30";
      process.env.EDGE_MAX_RETRIES = "3";
    }
  });

  it("renumbers page rules to close priority gaps, as the service does", async () => {
    const z = zoneId(edge);
    const rule = (priority: number) => ({
      targets: [{ target: "url", constraint: { operator: "matches", value: `example.com/${priority}/*` } }],
      actions: [{ id: "cache_level", value: "cache_everything" }],
      priority,
      status: "active",
    });
    for (const p of [10, 5]) await api(`/zones/${z}/pagerules`, { method: "POST", body: JSON.stringify(rule(p)) });
    const list = ((await (await api(`/zones/${z}/pagerules`)).json()) as any).result;
    expect(list.map((r: { priority: number }) => r.priority)).toEqual([1, 2]);
  });

  it("takes a raw body as a service worker (module syntax there is 10021), and answers a GET with the text", async () => {
    const module = "export default { fetch() { return new Response('hi') } }";
    const refused = await api(`/accounts/${DEMO_ACCOUNT}/workers/scripts/hello`, {
      method: "PUT",
      body: module,
      headers: { "content-type": "application/javascript" },
    });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as any).errors[0].code).toBe(10021);
    const body = "addEventListener('fetch', (e) => e.respondWith(new Response('hi')))";
    const put = await api(`/accounts/${DEMO_ACCOUNT}/workers/scripts/hello`, {
      method: "PUT",
      body,
      headers: { "content-type": "application/javascript" },
    });
    expect(put.status).toBe(200);
    expect((await (await api(`/accounts/${DEMO_ACCOUNT}/workers/scripts/hello/settings`)).json()) as any).toMatchObject({
      result: { compatibility_date: "2021-11-02" },
    });
    expect(await (await api(`/accounts/${DEMO_ACCOUNT}/workers/scripts/hello`)).text()).toBe(body);
    const missing = await api(`/accounts/${DEMO_ACCOUNT}/workers/scripts/nope`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as any).errors[0].code).toBe(10007);
  });

  it("refuses the retired firewall rules writes (10020) and rate limits (410), and holds rate limiting rules to the zone's plan", async () => {
    const z = zoneId(edge);
    const fw = await api(`/zones/${z}/firewall/rules`, {
      method: "POST",
      body: JSON.stringify({ filter: { expression: "ip.src in {198.51.100.0/24}" }, action: "block", description: "bad net" }),
    });
    expect(fw.status).toBe(400);
    expect(((await fw.json()) as any).errors[0].code).toBe(10020);
    expect((await api(`/zones/${z}/rate_limits`)).status).toBe(410);
    const rule = (period: number) => ({
      action: "block",
      expression: 'http.request.uri.path eq "/login"',
      ratelimit: { characteristics: ["cf.colo.id", "ip.src"], period, requests_per_period: 5, mitigation_timeout: 10 },
    });
    const tooLong = await api(`/zones/${z}/rulesets`, {
      method: "POST",
      body: JSON.stringify({ name: "rl", kind: "zone", phase: "http_ratelimit", rules: [rule(60)] }),
    });
    expect(tooLong.status).toBe(400);
    expect(((await tooLong.json()) as any).errors[0].message).toMatch(/period 60 is not allowed on the free plan: use one of 10/);
    const made = (await (
      await api(`/zones/${z}/rulesets`, {
        method: "POST",
        body: JSON.stringify({ name: "rl", kind: "zone", phase: "http_ratelimit", rules: [rule(10)] }),
      })
    ).json()) as any;
    const second = await api(`/zones/${z}/rulesets/${made.result.id}/rules`, { method: "POST", body: JSON.stringify(rule(10)) });
    expect(((await second.json()) as any).errors[0].message).toMatch(/free plan allows 1 rate limiting rule/);
  });

  it("answers the sunset analytics REST endpoints with 1015, and the GraphQL API with data or errors in 200s", async () => {
    const z = zoneId(edge);
    const sunset = await api(`/zones/${z}/analytics/dashboard?since=-1440&until=now`);
    expect(sunset.status).toBe(400);
    expect(((await sunset.json()) as any).errors[0]).toMatchObject({
      code: 1015,
      message: "Zone Analytics API is sunset and replaced by GraphQL API",
    });
    const gql = (query: string, variables: Record<string, unknown>) =>
      api("/graphql", { method: "POST", body: JSON.stringify({ query, variables }) });
    const limits = (await (
      await gql(
        "{ viewer { zones(filter: {zoneTag: $zoneTag}) { settings { firewallEventsAdaptive { enabled maxDuration notOlderThan } } } } }",
        { zoneTag: z },
      )
    ).json()) as any;
    expect(limits.data.viewer.zones[0].settings.firewallEventsAdaptive).toMatchObject({
      enabled: true,
      maxDuration: 86400,
      notOlderThan: 691200,
    });
    const now = Date.now();
    const q =
      "{ viewer { zones(filter: {zoneTag: $zoneTag}) { firewallEventsAdaptive(limit: 10, filter: {datetime_geq: $since, datetime_leq: $until}) { action datetime } } } }";
    const wide = await gql(q, { zoneTag: z, since: new Date(now - 3 * 86_400_000).toISOString(), until: new Date(now).toISOString() });
    expect(wide.status).toBe(200);
    expect(((await wide.json()) as any).errors[0].message).toMatch(/time range is too large/);
    const ok = (await (
      await gql(q, { zoneTag: z, since: new Date(now - 3_600_000).toISOString(), until: new Date(now).toISOString() })
    ).json()) as any;
    expect(ok.errors).toBeNull();
    expect(ok.data.viewer.zones[0].firewallEventsAdaptive.length).toBeGreaterThan(0);
  });
});

import { describe, expect, it } from "vitest";
import { UNKNOWN } from "../../provider/check";
import { dnsRecord } from "../../provider/edge/dns-record/handler";
import { zoneSetting } from "../../provider/edge/zone-setting/handler";

const ZONE = { zoneName: "example.com" };
const check = (news: Record<string, unknown>) => dnsRecord.check({}, { __provider: "code", ...news });

describe("DnsRecord check", () => {
  it("fills defaults and normalises, dropping __provider", async () => {
    const r = await check({ ...ZONE, type: "AAAA", name: "WWW.", content: "2001:DB8::0:1" });
    expect(r.failures).toEqual([]);
    expect(r.inputs).toEqual({ ...ZONE, type: "AAAA", name: "www", content: "2001:db8::1", ttl: 1, proxied: false, adopt: false });
  });

  const cases: [string, Record<string, unknown>, string, RegExp][] = [
    ["MX without priority", { type: "MX", name: "@", content: "mail.example.net" }, "priority", /needs a priority/],
    ["priority on an A record", { type: "A", name: "@", content: "203.0.113.1", priority: 5 }, "priority", /MX and URI records only/],
    ["proxied TXT", { type: "TXT", name: "@", content: "x", proxied: true }, "proxied", /cannot be proxied/],
    ["proxied private address", { type: "A", name: "db", content: "10.0.0.5", proxied: true }, "proxied", /set proxied to false/],
    ["malformed IPv4", { type: "A", name: "www", content: "203.0.113" }, "content", /IPv4/],
    ["malformed IPv6", { type: "AAAA", name: "www", content: "2001:db8::g" }, "content", /IPv6/],
    ["CNAME to an address", { type: "CNAME", name: "www", content: "http://x/" }, "content", /host name/],
    ["ttl too small", { type: "A", name: "www", content: "203.0.113.1", ttl: 29 }, "ttl", /60 to 86400/],
    ["ttl too large", { type: "A", name: "www", content: "203.0.113.1", ttl: 90000 }, "ttl", /60 to 86400/],
    ["unknown type", { type: "SRVX", name: "www", content: "x" }, "type", /one of A, AAAA/],
    ["path separator in name", { type: "A", name: "a/b", content: "203.0.113.1" }, "name", /label/],
    ["control character in name", { type: "A", name: "a\u0000b", content: "203.0.113.1" }, "name", /label/],
    ["very long comment", { type: "A", name: "www", content: "203.0.113.1", comment: "c".repeat(501) }, "comment", /500/],
  ];
  it.each(cases)("refuses %s, naming %s", async (_what, bad, property, reason) => {
    const r = await check({ ...ZONE, ...bad });
    expect(r.failures).toContainEqual({ property, reason: expect.stringMatching(reason) });
  });

  it("needs exactly one of zoneId and zoneName", async () => {
    expect((await check({ type: "A", name: "@", content: "203.0.113.1" })).failures[0].reason).toMatch(/exactly one/);
    const both = await check({ zoneId: "0".repeat(32), zoneName: "example.com", type: "A", name: "@", content: "203.0.113.1" });
    expect(both.failures[0].reason).toMatch(/exactly one/);
  });

  it("waits for unknown values during a preview instead of failing on them", async () => {
    // zoneId comes from another resource; priority from a computed value.
    const r = await check({ zoneId: UNKNOWN, type: "MX", name: "@", content: "mail.example.net", priority: UNKNOWN });
    expect(r.failures).toEqual([]);
    expect(r.inputs.zoneId).toBe(UNKNOWN);
    // ...but still refuses what is wrong among the known values.
    const bad = await check({ zoneId: UNKNOWN, type: "A", name: "@", content: "nope" });
    expect(bad.failures).toEqual([{ property: "content", reason: expect.stringMatching(/IPv4/) }]);
  });
});

describe("ZoneSetting check", () => {
  it("validates known settings' values, refuses ids the service does not have, and leaves other values to the service", async () => {
    const bad = await zoneSetting.check({}, { ...ZONE, settingId: "ssl", value: "maybe" });
    expect(bad.failures).toEqual([{ property: "value", reason: expect.stringMatching(/off, flexible, full, strict/) }]);
    const other = await zoneSetting.check({}, { ...ZONE, settingId: "rocket_loader", value: "on" });
    expect(other.failures).toEqual([]);
    const unknown = await zoneSetting.check({}, { ...ZONE, settingId: "some_new_setting", value: "on" });
    expect(unknown.failures).toEqual([
      { property: "settingId", reason: expect.stringMatching(/^some_new_setting is not a zone setting the service has/) },
    ]);
    const hostile = await zoneSetting.check({}, { ...ZONE, settingId: "../zones", value: "on" });
    expect(hostile.failures[0].property).toBe("settingId");
  });
});

describe("DnsRecord diff", () => {
  const olds = {
    zoneId: "z".repeat(32),
    zoneName: "example.com",
    type: "A",
    name: "www",
    content: "203.0.113.1",
    ttl: 1,
    proxied: true,
    adopt: false,
    hostname: "www.example.com",
    proxiable: true,
    __provider: "old code",
  };
  const same = {
    zoneName: "example.com",
    type: "A",
    name: "www.example.com.",
    content: "203.0.113.1",
    ttl: 300,
    proxied: true,
    adopt: false,
    __provider: "new code",
  };

  it("sees no change between equivalent spellings, a proxied ttl, or new provider code", async () => {
    expect(await dnsRecord.diff("id", olds, same)).toMatchObject({ changes: false, replaces: [] });
  });
  it("updates in place for ttl and proxied, replaces for type and zone", async () => {
    expect(await dnsRecord.diff("id", olds, { ...same, proxied: false })).toMatchObject({ changes: true, replaces: [] });
    expect(await dnsRecord.diff("id", olds, { ...same, type: "AAAA", content: "2001:db8::1" })).toMatchObject({
      replaces: ["type"],
      deleteBeforeReplace: true,
    });
    expect(await dnsRecord.diff("id", olds, { ...same, zoneName: "example.org" })).toMatchObject({ replaces: ["zoneName"] });
  });
  it("counts an unknown value as a change", async () => {
    expect(await dnsRecord.diff("id", olds, { ...same, content: UNKNOWN })).toMatchObject({ changes: true });
  });
});

describe("the door", () => {
  it("leaves undefined out of every result, at any depth (the engine's Struct cannot carry it)", async () => {
    const { withoutUndefined } = await import("../../provider/call-bags");
    expect(withoutUndefined({ a: 1, b: undefined, c: { d: undefined, e: [1, { f: undefined }] } })).toEqual({ a: 1, c: { e: [1, {}] } });
    expect(JSON.stringify(withoutUndefined({ b: undefined }))).toBe("{}");
  });
});

describe("configuration", () => {
  it("refuses at configure (so at preview) a value that is set but wrong, naming the key and the variable", async () => {
    const { configure } = await import("../../provider/door");
    const config = (values: Record<string, string>) => ({ get: (k: string) => values[k] });
    expect(() => configure(config({ "ops:edgeRateLimit": "100000000" }))).toThrow(
      /ops:edgeRateLimit \(or EDGE_RATE_LIMIT\) must be a number from 1 to 1000000; got "100000000"/,
    );
    expect(() => configure(config({ "ops:skillsUrl": "not a url" }))).toThrow(/ops:skillsUrl \(or SKILLS_URL\) must be an http\(s\) URL/);
    expect(() => configure(config({}))).not.toThrow(); // nothing set: each service judges its own credentials when used
    configure(config({}));
  });

  it("names a mistyped ops:* key with the nearest setting on the dynamic door, as the plugin's CheckConfig does", async () => {
    const { configure } = await import("../../provider/door");
    // The dynamic provider's Config (@pulumi/pulumi cmd/dynamic-provider/config.js) holds every key of the stack.
    const stack = (rawConfig: Record<string, string>) => ({ rawConfig, get: (k: string) => rawConfig[k] });
    const { checkForEngine } = await import("../../provider/door");
    // There, a problem is every check's one failure (a throw would reach the CLI with the gRPC server's stack trace).
    configure(stack({ "ops:edgeApiTokn": "t", "website:zone": "example.com" }));
    expect(
      (await checkForEngine("edge:DnsRecord", {}, { zoneName: "example.com", type: "A", name: "www", content: "203.0.113.1" })).failures,
    ).toEqual([
      { property: "", reason: "pulumi-ops configuration: ops:edgeApiTokn is not a pulumi-ops setting: did you mean ops:edgeApiToken?" },
    ]);
    configure(stack({ "ops:edgeApiToken": "t", "ops:accounts": "{}", "edge:apiToken": "legacy", "ops:previewChecks": "false" }));
    expect(
      (await checkForEngine("edge:DnsRecord", {}, { zoneName: "example.com", type: "A", name: "www", content: "203.0.113.1" })).failures,
    ).toEqual([]);
    configure({ get: () => undefined });
  });
});

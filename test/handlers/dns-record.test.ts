import { describe, expect, it } from "vitest";
import { call } from "../../provider/door";
import { forgetClaims } from "../../provider/claims";
import { READONLY_TOKEN } from "../../emulators";
import { records, useEdge, zoneId } from "../helpers/edge";

const edge = useEdge();

const T = "edge:DnsRecord";
async function create(args: Record<string, unknown>) {
  const { inputs, failures } = await call(T, "check", [{}, { zoneName: "example.com", ...args }]);
  expect(failures).toEqual([]);
  return call(T, "create", [inputs]);
}
/** A record made outside the program: through the provider, then forgotten as this run's (claims.ts). */
async function outside(args: Record<string, unknown>) {
  const made = await create(args);
  forgetClaims();
  return made;
}

describe("DnsRecord against the edge emulator", () => {
  it("creates with the zone looked up by name, reporting the full name and the proxied ttl", async () => {
    const { id, outs } = await create({ type: "A", name: "www", content: "203.0.113.10", ttl: 300, proxied: true });
    expect(outs).toMatchObject({ zoneId: zoneId(edge), name: "www", hostname: "www.example.com", ttl: 1, proxied: true, proxiable: true });
    expect(records(edge)).toHaveLength(1);
    expect(records(edge)[0].id).toBe(id);
    expect(edge.count("GET", /\/zones$/)).toBe(1);
  });

  it("reports no drift right after create, then drift after an out-of-band change, then nothing once deleted", async () => {
    const { id, outs } = await create({ type: "AAAA", name: "@", content: "2001:DB8::10" });
    const same = await call(T, "read", [id, outs]);
    expect(same.props).toEqual(outs);
    expect(same.inputs).toBeUndefined(); // nothing drifted: the program's inputs stand
    expect(
      (
        await call(T, "diff", [
          id,
          same.props,
          { zoneName: "example.com", type: "AAAA", name: "@", content: "2001:DB8::10", ttl: 1, proxied: false },
        ])
      ).changes,
    ).toBe(false);

    const rec = records(edge)[0];
    rec.content = "2001:db8::99";
    const drifted = await call(T, "read", [id, outs]);
    expect(drifted.inputs.content).toBe("2001:db8::99");
    // Only what the program set: it named the zone, so a drift diff shows no zoneId appearing (and then vanishing).
    expect(drifted.inputs).toHaveProperty("zoneName", "example.com");
    expect(drifted.inputs).not.toHaveProperty("zoneId");
    expect(drifted.inputs).not.toHaveProperty("zoneGivenAs");

    edge.zones.get(zoneId(edge))!.records.delete(id);
    expect(await call(T, "read", [id, outs])).toEqual({});
  });

  it("updates in place with a PATCH of only what changed, and leaving the proxy restores the ttl", async () => {
    const { id, outs } = await create({ type: "A", name: "api", content: "203.0.113.20", ttl: 600, proxied: true });
    const news = { zoneName: "example.com", type: "A", name: "api", content: "203.0.113.20", ttl: 600, proxied: false, adopt: false };
    const { outs: after } = await call(T, "update", [id, outs, news]);
    expect(after).toMatchObject({ proxied: false, ttl: 600 });
    expect(edge.count("PATCH")).toBe(1);
    expect(records(edge)[0]).toMatchObject({ proxied: false, ttl: 600 });
  });

  it("fails with 81044 and the remedy, or adopts when asked", async () => {
    await outside({ type: "CNAME", name: "shop", content: "shops.example.net" });
    const { inputs } = await call(T, "check", [
      {},
      { zoneName: "example.com", type: "CNAME", name: "shop", content: "shops.example.net", ttl: 300 },
    ]);
    await expect(call(T, "create", [inputs])).rejects.toThrow(/already exists.*adopt: true/);
    const adopted = await call(T, "create", [{ ...inputs, adopt: true }]);
    expect(records(edge)).toHaveLength(1);
    expect(adopted.outs.ttl).toBe(300);
  });

  it("a program that gives zoneId gets zoneId, not zoneName, in a drift diff", async () => {
    const { id, outs } = await create({ zoneName: undefined, zoneId: zoneId(edge), type: "A", name: "byid", content: "203.0.113.7" });
    records(edge).find((r) => r.id === id)!.content = "203.0.113.8";
    const drifted = await call(T, "read", [id, outs]);
    expect(drifted.inputs).toMatchObject({ zoneId: zoneId(edge), content: "203.0.113.8" });
    expect(drifted.inputs).not.toHaveProperty("zoneName");
  });

  it("with adopt, a record of that type and name with other content is someone else's: this one is made beside it", async () => {
    await outside({ type: "A", name: "old", content: "203.0.113.1" });
    const before = records(edge)[0].id;
    const adopted = await create({ type: "A", name: "old", content: "203.0.113.2", adopt: true });
    expect(adopted.id).not.toBe(before);
    expect(
      records(edge)
        .map((r) => r.content)
        .sort(),
    ).toEqual(["203.0.113.1", "203.0.113.2"]);
  });

  it("with adopt, a CNAME (one per name) is taken over with its new target, saying which", async () => {
    await outside({ type: "CNAME", name: "old", content: "a.example.net" });
    const before = records(edge)[0].id;
    let printed = "";
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string) => ((printed += chunk), true)) as typeof process.stderr.write;
    try {
      process.env.PULUMI_OPS_QUIET = "0";
      const adopted = await create({ type: "CNAME", name: "old", content: "b.example.net", adopt: true });
      expect(adopted.id).toBe(before);
    } finally {
      process.stderr.write = write;
    }
    expect(records(edge).map((r) => r.content)).toEqual(["b.example.net"]);
    expect(printed).toMatch(
      new RegExp(`adopting the existing CNAME record old.example.com \\(id ${before}, content a.example.net -> b.example.net\\)`),
    );
  });

  it("two records of one type and name, both adopting, in one run on an empty zone: two records, two ids (MX, round-robin A)", async () => {
    const mx = await Promise.all([
      create({ type: "MX", name: "@", content: "mx1.example.net", priority: 10, adopt: true }),
      create({ type: "MX", name: "@", content: "mx2.example.net", priority: 20, adopt: true }),
    ]);
    const a1 = await create({ type: "A", name: "rr", content: "203.0.113.1", adopt: true });
    const a2 = await create({ type: "A", name: "rr", content: "203.0.113.2", adopt: true });
    expect(new Set([...mx, a1, a2].map((x) => x.id)).size).toBe(4);
    expect(
      records(edge)
        .map((r) => `${r.type} ${r.content}`)
        .sort(),
    ).toEqual(["A 203.0.113.1", "A 203.0.113.2", "MX mx1.example.net", "MX mx2.example.net"]);
  });

  it("with adopt, a run never takes a record another resource of the run holds in state (its diff named it)", async () => {
    const first = await create({ type: "TXT", name: "v", content: "one" });
    forgetClaims(); // made by an earlier run: this run knows it only from the state its diff is given
    await call(T, "diff", [first.id, first.outs, { zoneName: "example.com", type: "TXT", name: "v", content: "one" }]);
    const { inputs } = await call(T, "check", [{}, { zoneName: "example.com", type: "TXT", name: "v", content: "one", adopt: true }]);
    const second = await call(T, "create", [inputs]).catch((e: Error) => e);
    expect(String(second)).toMatch(/already another resource's of this stack/);
    expect(records(edge)).toHaveLength(1);
  });

  it("a record another resource's create took over in this run is not deleted by the resource that had it (renamed, moved)", async () => {
    const old = await create({ type: "A", name: "moved", content: "203.0.113.9" });
    forgetClaims(); // an earlier run made it
    const taken = await create({ type: "A", name: "moved", content: "203.0.113.9", adopt: true });
    expect(taken.id).toBe(old.id);
    await call(T, "delete", [old.id, old.outs]);
    expect(records(edge).map((r) => r.id)).toEqual([old.id]);
  });

  it("with adopt and several records of that name, none with this content, makes its own and leaves them", async () => {
    await outside({ type: "A", name: "pool", content: "203.0.113.1" });
    await outside({ type: "A", name: "pool", content: "203.0.113.2" });
    const ids = records(edge).map((r) => r.id);
    const made = await create({ type: "A", name: "pool", content: "203.0.113.3", adopt: true });
    expect(ids).not.toContain(made.id);
    expect(records(edge)).toHaveLength(3);
  });

  it("keeps the record the service made when the answer to the create is lost", async () => {
    edge.inject({ match: { method: "POST", path: "dns_records$" }, count: 1, kind: "drop-after" });
    const { outs } = await create({ type: "TXT", name: "@", content: "v=spf1 -all" });
    expect(records(edge)).toHaveLength(1);
    expect(outs.content).toBe("v=spf1 -all");
  });

  it("waits out 429 with Retry-After and 5xx bursts", async () => {
    edge.inject({ match: { method: "POST" }, count: 1, kind: "status", status: 429, retryAfter: 1 });
    edge.inject({ match: { method: "POST" }, count: 2, kind: "status", status: 429, retryAfter: 0 });
    const { id, outs } = await create({ type: "A", name: "a", content: "203.0.113.1" });
    edge.inject({ match: { method: "PATCH" }, count: 2, kind: "status", status: 503 });
    await call(T, "update", [id, outs, { zoneName: "example.com", type: "A", name: "a", content: "203.0.113.2", ttl: 1, proxied: false }]);
    expect(records(edge)[0].content).toBe("203.0.113.2");
    expect(edge.log.filter((e) => e.fault).length).toBe(5);
  });

  it("after a 500 to a create, looks the record up and sends the create again only when it is absent", async () => {
    edge.inject({ match: { method: "POST" }, count: 1, kind: "status", status: 500 });
    edge.inject({ match: { method: "POST" }, count: 1, kind: "status", status: 503, retryAfter: 0 }); // unavailable: retried as is
    await create({ type: "A", name: "b", content: "203.0.113.1" });
    expect(records(edge)).toHaveLength(1);
    expect(edge.count("POST")).toBe(3); // 500, then (after a lookup found nothing) 503, then the create
    expect(edge.count("GET", /dns_records$/)).toBe(1);
  });

  it("gives up on a create that keeps failing with 500, with the service's answer", async () => {
    edge.inject({ match: { method: "POST" }, count: 10, kind: "status", status: 500 });
    await expect(create({ type: "A", name: "b2", content: "203.0.113.1" })).rejects.toThrow(/HTTP 500/);
    expect(edge.count("POST")).toBe(4); // CREATE_ATTEMPTS
    expect(records(edge)).toHaveLength(0);
  }, 20_000);

  it("takes over an identical record for a recovery run with ops:edgeAdoptExisting, and only then", async () => {
    await create({ type: "A", name: "left", content: "203.0.113.9" }); // what an interrupted up leaves behind
    await expect(create({ type: "A", name: "left", content: "203.0.113.9" })).rejects.toThrow(/already exists.*ops:edgeAdoptExisting/);
    process.env.EDGE_ADOPT_EXISTING = "true";
    try {
      await create({ type: "A", name: "left", content: "203.0.113.9" });
    } finally {
      delete process.env.EDGE_ADOPT_EXISTING;
    }
    expect(records(edge)).toHaveLength(1);
  });

  it("tells a token without the permission (10000) from an invalid one, naming the permission, without revealing either", async () => {
    process.env.EDGE_API_TOKEN = READONLY_TOKEN; // valid, but read-only
    const err = await create({ type: "A", name: "c", content: "203.0.113.1" }).catch((e: Error) => e);
    expect(err.message).toMatch(
      /code 10000.*the token is valid but lacks the permission Zone \/ DNS \/ Edit.*Give the token the permission "Zone \/ DNS \/ Edit"/,
    );
    expect(err.message).not.toContain(READONLY_TOKEN);
    process.env.EDGE_API_TOKEN = "a-token-the-service-never-issued";
    const invalid = await create({ type: "A", name: "c", content: "203.0.113.1" }).catch((e: Error) => e);
    expect(invalid.message).toMatch(
      /code 10000.*the token is not valid.*Set a valid API token: pulumi config set --secret ops:edgeApiToken/,
    );
    expect(invalid.message).not.toContain("a-token-the-service-never-issued");
  });

  it("names both the config key and the variable when credentials are missing", async () => {
    delete process.env.EDGE_API_TOKEN;
    await expect(create({ type: "A", name: "d", content: "203.0.113.1" })).rejects.toThrow(/ops:edgeApiToken.*EDGE_API_TOKEN/);
  });

  it("deletes, and treats an already deleted record as deleted", async () => {
    const { id, outs } = await create({ type: "MX", name: "@", content: "mail.example.net", priority: 10 });
    await call(T, "delete", [id, outs]);
    await call(T, "delete", [id, outs]);
    expect(records(edge)).toHaveLength(0);
  });

  it("reads an existing record with get()'s <zoneId>/<recordId> id", async () => {
    const { id } = await create({ type: "A", name: "legacy", content: "203.0.113.7" });
    const got = await call(T, "read", [`${zoneId(edge)}/${id}`, {}]);
    expect(got.props).toMatchObject({ hostname: "legacy.example.com", content: "203.0.113.7", zoneName: "example.com" });
  });

  it("get() takes the bare id the resource's .id holds (the zone is found), and fails clearly when nothing has it", async () => {
    const { id } = await create({ type: "A", name: "bare", content: "203.0.113.8" });
    const got = await call(T, "read", [id, {}]);
    expect(got.id).toBe(id);
    expect(got.props).toMatchObject({ hostname: "bare.example.com", zoneId: zoneId(edge) });
    await expect(call(T, "read", ["0".repeat(32), {}])).rejects.toThrow(
      /no DNS record has id 0{32} in the zones this token can read.*\.id output holds/,
    );
    await expect(call(T, "read", [`${zoneId(edge)}/${"0".repeat(32)}`, {}])).rejects.toThrow(/DnsRecord\.get: nothing has the id/);
    // A refresh (state present) of a record deleted out of band is still simply gone.
    edge.zones.get(zoneId(edge))!.records.delete(id);
    expect(await call(T, "read", [id, got.props])).toEqual({});
  });
});

describe("refresh reads batched by zone", () => {
  it("reads many records with one listing, and confirms a missing one by id before calling it gone", async () => {
    const made = [];
    for (let i = 0; i < 12; i++) made.push(await create({ type: "A", name: `b${i}`, content: `203.0.113.${i + 1}` }));
    edge.zones.get(zoneId(edge))!.records.delete(made[0].id);
    edge.log.splice(0);
    const reads = await Promise.all(made.map((m) => call(T, "read", [m.id, m.outs])));
    expect(reads[0]).toEqual({});
    expect(reads.slice(1).every((r) => r.props?.hostname?.startsWith("b"))).toBe(true);
    expect(edge.log.map((e) => `${e.method} ${e.path.replace(/[0-9a-f]{32}/g, ":id")}`)).toEqual([
      "GET /client/v4/zones/:id/dns_records",
      "GET /client/v4/zones/:id/dns_records/:id",
    ]);
  });

  it("uses single reads when only a few arrive together", async () => {
    const one = await create({ type: "A", name: "solo", content: "203.0.113.77" });
    edge.log.splice(0);
    await call(T, "read", [one.id, one.outs]);
    expect(edge.log.map((e) => e.method + (e.path.endsWith("dns_records") ? " list" : " one"))).toEqual(["GET one"]);
  });
});

describe("the zone listing serves the rest of the run's reads", () => {
  it("reads arriving in later batches use the same listing", async () => {
    const made = [];
    for (let i = 0; i < 10; i++) made.push(await create({ type: "A", name: `late${i}`, content: `203.0.113.${i + 100}` }));
    edge.log.splice(0);
    await Promise.all(made.slice(0, 5).map((m) => call(T, "read", [m.id, m.outs])));
    await new Promise((r) => setTimeout(r, 50));
    await Promise.all(made.slice(5).map((m) => call(T, "read", [m.id, m.outs])));
    expect(edge.count("GET", /dns_records$/)).toBe(1);
    expect(edge.count("GET", /dns_records\/[0-9a-f]{32}$/)).toBe(0);
  });

  it("a CNAME refused beside another record (81053 / 81054) says so, with no advice to adopt, and 'an A record' reads right", async () => {
    await create({ type: "TXT", name: "www", content: "hello" });
    const cname = await create({ type: "CNAME", name: "www", content: "target.example.net" }).catch((e: Error) => e);
    expect(String(cname)).toMatch(
      /a CNAME record cannot be added at www\.example\.com in zone example\.com: a CNAME cannot share its name with other records, and www\.example\.com already has TXT hello\. Give the CNAME another name/,
    );
    expect(String(cname)).not.toMatch(/adopt/);
    await create({ type: "CNAME", name: "alias", content: "target.example.net" });
    const a = await create({ type: "A", name: "alias", content: "203.0.113.1", adopt: true }).catch((e: Error) => e);
    expect(String(a)).toMatch(
      /an A record cannot be added at alias\.example\.com .*the name has a CNAME.*already has CNAME target\.example\.net\. Give this record another name, or remove the CNAME/,
    );
    const set = await call("edge:DnsRecordSet", "create", [
      (
        await call("edge:DnsRecordSet", "check", [
          {},
          { zoneName: "example.com", records: { x: { type: "MX", name: "alias", content: "mail.example.com", priority: 10 } } },
        ])
      ).inputs,
    ]).catch((e: Error) => e);
    expect(String(set)).toMatch(/records\.x: .*an MX record cannot be added at alias\.example\.com/);
  });
});

/**
 * DnsRecordSet through the service's batch endpoint (`POST /zones/{id}/dns_records/batch`), as it runs by default:
 * its records go `ops:edgeBatchSize` (200) changes a request, one request against the allowance; a refused batch
 * (nothing applied) goes again as single requests so each record gets its own answer; a lost answer is settled
 * from one listing before anything is sent again; a service without the endpoint gets single requests.
 */
import { afterEach, describe, expect, it } from "vitest";
import { call } from "../../provider/door";
import { DEMO_TOKEN, EdgeEmulator } from "../../emulators";
import { records, useEdge, zoneId } from "../helpers/edge";

const edge = useEdge({ zones: ["example.com"] });
const T = "edge:DnsRecordSet";
const host = (i: number) => ({ type: "A", name: `h${i}`, content: `203.0.${Math.floor(i / 250)}.${(i % 250) + 1}`, ttl: 300 });
const many = (n: number, from = 0) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`h${i + from}`, host(i + from)]));
const writes = () =>
  edge.log
    .filter((e) => e.method !== "GET" && !e.path.startsWith("/__"))
    .map((e) => `${e.method} ${e.path.replace(/^.*\/dns_records/, "dns_records").replace(/[0-9a-f]{32}$/, "<id>")}`);

async function checked(recs: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const { inputs, failures } = await call(T, "check", [{}, { zoneName: "example.com", records: recs, ...extra }]);
  expect(failures).toEqual([]);
  return inputs;
}
const create = async (recs: Record<string, unknown>) => call(T, "create", [await checked(recs)]);

afterEach(() => void delete process.env.EDGE_BATCH_SIZE);

describe("DnsRecordSet in batches", () => {
  it("creates 31 records with one listing and one batch request, and reads them back unchanged", async () => {
    const { id, outs } = await create(many(31));
    expect(writes()).toEqual(["POST dns_records/batch"]);
    expect(edge.count("GET", /dns_records$/)).toBe(1);
    expect(records(edge)).toHaveLength(31);
    expect(Object.values(outs.ids).sort()).toEqual(
      records(edge)
        .map((r) => r.id)
        .sort(),
    );
    expect(outs.records.h30).toEqual({ type: "A", name: "h30", content: "203.0.0.31", ttl: 300, proxied: false });
    const read = await call(T, "read", [id, outs]);
    expect(read.inputs).toBeUndefined();
    expect((await call(T, "diff", [id, outs, await checked(many(31))])).changes).toBe(false);
  });

  it("sends ops:edgeBatchSize changes a request: 31 records in batches of 10 are 4 requests", async () => {
    process.env.EDGE_BATCH_SIZE = "10";
    await create(many(31));
    expect(writes()).toEqual(Array(4).fill("POST dns_records/batch"));
    expect(records(edge)).toHaveLength(31);
  });

  it("an update is one batch: a removal, the old record of a new type, a change and two new records, deletes first", async () => {
    const { id, outs } = await create(many(50));
    const wanted = many(50);
    delete wanted.h7;
    wanted.h2 = { ...host(2), ttl: 600 };
    wanted.h4 = { type: "TXT", name: "h4", content: "v=spf1 -all" } as (typeof wanted)[string]; // a new type: delete the A, post the TXT
    wanted.extra = host(60);
    wanted.back = { type: "A", name: "h7", content: "198.51.100.7", ttl: 300 }; // takes the name the removal frees
    edge.log.splice(0);
    const { outs: after } = await call(T, "update", [id, outs, await checked(wanted)]);
    expect(writes()).toEqual(["POST dns_records/batch"]);
    expect(after.records.h2.ttl).toBe(600);
    expect(after.records.h4.type).toBe("TXT");
    expect(after.ids).not.toHaveProperty("h7");
    expect(after.ids.h0).toBe(outs.ids.h0);
    expect(records(edge)).toHaveLength(51);
    expect((await call(T, "diff", [id, after, await checked(wanted)])).changes).toBe(false);
  });

  it("a batch the service refuses applied nothing: its records go one by one, the good ones are made and the refused one is named", async () => {
    // Made out of band: a CNAME at h3 cannot stand beside it (81053), which only the service can tell here.
    await fetch(`${edge.url}/client/v4/zones/${zoneId(edge)}/dns_records`, {
      method: "POST",
      headers: { authorization: `Bearer ${DEMO_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ type: "A", name: "h3", content: "198.51.100.3", ttl: 300 }),
    });
    edge.log.splice(0);
    const recs = { ...many(3), bad: { type: "CNAME", name: "h3", content: "www.example.net", ttl: 300 } };
    const failed = (await create(recs).catch((e: unknown) => e)) as Error & { properties: { ids: Record<string, string> } };
    expect(String(failed)).toMatch(/1 of 4 records could not be made: records\.bad: .*CNAME/);
    expect(Object.keys(failed.properties.ids).sort()).toEqual(["h0", "h1", "h2"]);
    expect(writes()).toEqual(["POST dns_records/batch", ...Array(4).fill("POST dns_records")]);
    expect(records(edge)).toHaveLength(4); // the three and the out-of-band one
  });

  it.each([
    ["the connection dropped after acting", "drop-after"],
    ["a 500 after acting", "status-after"],
  ] as const)("%s: the zone is listed, the batch is found applied and kept, nothing is sent again", async (_, kind) => {
    edge.inject({ match: { method: "POST", path: "/dns_records/batch$" }, count: 1, kind });
    const { outs } = await create(many(5));
    expect(writes()).toEqual(["POST dns_records/batch"]);
    expect(records(edge)).toHaveLength(5);
    expect(Object.values(outs.ids).sort()).toEqual(
      records(edge)
        .map((r) => r.id)
        .sort(),
    );
  });

  it("the connection dropped before acting: the listing shows nothing applied, so the batch is sent once more", async () => {
    edge.inject({ match: { method: "POST", path: "/dns_records/batch$" }, count: 1, kind: "drop" });
    const { outs } = await create(many(5));
    expect(writes()).toEqual(["POST dns_records/batch", "POST dns_records/batch"]);
    expect(records(edge)).toHaveLength(5);
    expect(Object.keys(outs.ids)).toHaveLength(5);
  });

  it("destroy deletes in batches: 250 records are two requests", async () => {
    const { id, outs } = await create(many(250));
    edge.log.splice(0);
    await call(T, "delete", [id, outs]);
    expect(writes()).toEqual(["POST dns_records/batch", "POST dns_records/batch"]);
    expect(records(edge)).toEqual([]);
  });

  it("a record deleted out of band fails its delete batch (404): the rest are deleted one by one, the gone one counts as deleted", async () => {
    const { id, outs } = await create(many(4));
    edge.zones.get(zoneId(edge))!.records.delete(outs.ids.h1);
    edge.log.splice(0);
    await call(T, "delete", [id, outs]);
    expect(writes()).toEqual(["POST dns_records/batch", ...Array(4).fill("DELETE dns_records/<id>")]);
    expect(records(edge)).toEqual([]);
  });

  it("10,000 records within the real allowance (1,200 requests per 5 minutes): 50 batches, refresh two listing pages, no wait", async () => {
    const { id, outs } = await create(many(10_000));
    expect(writes()).toEqual(Array(50).fill("POST dns_records/batch"));
    expect(edge.log.filter((e) => e.method === "GET" && /dns_records$/.test(e.path))).toHaveLength(1); // the zone was empty
    expect(records(edge)).toHaveLength(10_000);
    edge.log.splice(0);
    expect((await call(T, "read", [id, outs])).inputs).toBeUndefined();
    expect(edge.log.map((e) => e.method)).toEqual(["GET", "GET"]);
    edge.log.splice(0);
    await call(T, "delete", [id, outs]);
    expect(writes()).toHaveLength(50);
    expect(records(edge)).toEqual([]);
  }, 120_000);

  it("a service without the endpoint: one refused request, then single requests for the rest of the run", async () => {
    const plain = await new EdgeEmulator({ zones: ["example.com"], batchLimit: 0 }).start();
    process.env.EDGE_BASE_URL = plain.url;
    try {
      await call(T, "create", [await checked(many(3))]);
      await call(T, "create", [await checked(many(2, 10))]);
      const sent = plain.log
        .filter((e) => e.method === "POST")
        .map((e) => `${e.path.replace(/^.*\/dns_records/, "dns_records")} ${e.status}`);
      expect(sent).toEqual(["dns_records/batch 400", ...Array(5).fill("dns_records 200")]);
      expect([...[...plain.zones.values()][0].records.values()]).toHaveLength(5);
    } finally {
      process.env.EDGE_BASE_URL = edge.url;
      await plain.stop();
    }
  });
});

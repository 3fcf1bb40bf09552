/**
 * DnsRecordSet against the edge emulator: validation naming the key with 0 requests, create in one listing and
 * the creates, refresh in one listing with drift per record, an update that sends only what changed, adoption,
 * no duplicate after a lost answer, a partial failure that leaves state saying exactly what exists, and destroy
 * removing exactly the set's records. Here with single requests (`ops:edgeBatchSize` 0, as for a service without the
 * batch endpoint): the request counts below are each record's own; dns-record-set-batch.test.ts sends them batched.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { forgetClaims } from "../../provider/claims";
import { call, checkForEngine } from "../../provider/door";
import { PartialCreateError } from "../../provider/handler";
import { forgetPreviewChecks } from "../../provider/preflight";
import { parseZoneFile } from "../../provider/edge/zone-file";
import { records, useEdge, zoneId } from "../helpers/edge";

const edge = useEdge();
beforeAll(() => void (process.env.EDGE_BATCH_SIZE = "0"));
afterAll(() => void delete process.env.EDGE_BATCH_SIZE);
const T = "edge:DnsRecordSet";
const host = (i: number) => ({ type: "A", name: `h${i}`, content: `203.0.113.${i + 1}`, ttl: 300 });
const many = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`h${i}`, host(i)]));

async function checked(args: Record<string, unknown>) {
  const { inputs, failures } = await call(T, "check", [{}, { zoneName: "example.com", ...args }]);
  expect(failures).toEqual([]);
  return inputs;
}
async function create(recs: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return call(T, "create", [await checked({ records: recs, ...extra })]);
}
const writes = () => edge.log.filter((e) => e.method !== "GET" && !e.path.startsWith("/__"));

describe("DnsRecordSet", () => {
  it("refuses a bad record at check, naming its key and property, with 0 requests; and two keys for one record", async () => {
    const bad = await call(T, "check", [
      {},
      {
        zoneName: "example.com",
        records: {
          ok: host(1),
          "web-a": { type: "A", name: "web", content: "not-an-ip" },
          mx: { type: "MX", name: "@", content: "mail.example.net" },
        },
      },
    ]);
    expect(bad.failures).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ property: "records.web-a.content", reason: expect.stringMatching(/IPv4/) }),
        expect.objectContaining({ property: "records.mx.priority", reason: expect.stringMatching(/MX record needs a priority/) }),
      ]),
    );
    const twice = await call(T, "check", [{}, { zoneName: "example.com", records: { a: host(1), b: { ...host(1), name: "H1" } } }]);
    expect(twice.failures[0].reason).toMatch(/records a and b are the same A record/);
    // A key outside the key's alphabet: the key's own rule, not zod's "Invalid key in record".
    const key = await call(T, "check", [{}, { zoneName: "example.com", records: { "web a": host(1) } }]);
    expect(key.failures).toEqual([
      { property: "records.web a", reason: expect.stringMatching(/^records\.web a: a record's key must be 1 to 128 letters, digits/) },
    ]);
    expect(edge.log).toEqual([]);
  });

  it("creates every record with one listing of the zone, and reads them back with one more: no drift, no perpetual diff", async () => {
    const { id, outs } = await create({ ...many(30), apex: { type: "AAAA", name: "@", content: "2001:DB8::10" } });
    expect(records(edge)).toHaveLength(31);
    expect(Object.keys(outs.ids)).toHaveLength(31);
    expect(outs.records.apex).toMatchObject({ name: "@", content: "2001:db8::10" });
    expect(edge.count("GET", /dns_records$/)).toBe(1);
    expect(edge.count("POST", /dns_records$/)).toBe(31);

    edge.log.splice(0);
    const read = await call(T, "read", [id, outs]);
    expect(read.props).toEqual(outs);
    expect(read.inputs).toBeUndefined();
    expect(edge.log.filter((e) => !e.path.startsWith("/__"))).toHaveLength(1); // one listing
    const again = await checked({ records: { ...many(30), apex: { type: "AAAA", name: "example.com", content: "2001:db8:0::10" } } });
    expect((await call(T, "diff", [id, outs, again])).changes).toBe(false);
  });

  it("refresh reports drift per record: a changed one with its new value, a deleted one gone", async () => {
    const { id, outs } = await create(many(5));
    const zone = edge.zones.get(zoneId(edge))!;
    zone.records.get(outs.ids.h1)!.content = "198.51.100.9";
    zone.records.delete(outs.ids.h3);
    const read = await call(T, "read", [id, outs]);
    expect(read.props.records.h1.content).toBe("198.51.100.9");
    expect(read.props.ids).not.toHaveProperty("h3");
    expect(read.inputs.records.h1.content).toBe("198.51.100.9");
    expect(read.inputs).not.toHaveProperty("ids");
    // The next up puts them back: one PATCH, one POST, nothing else written.
    edge.log.splice(0);
    const { outs: fixed } = await call(T, "update", [id, read.props, await checked({ records: many(5) })]);
    expect(
      writes()
        .map((e) => e.method)
        .sort(),
    ).toEqual(["PATCH", "POST"]);
    expect(fixed.records.h1.content).toBe("203.0.113.2");
    expect(records(edge)).toHaveLength(5);
  });

  it("an update sends only the records that change: one add, one change, one new type, one removal", async () => {
    const { id, outs } = await create(many(50));
    const wanted = many(50);
    delete wanted.h7;
    wanted.h2 = { ...host(2), ttl: 600 };
    wanted.h4 = { type: "TXT", name: "h4", content: "v=spf1 -all" } as (typeof wanted)[string];
    wanted.extra = host(60);
    const news = await checked({ records: wanted });
    expect((await call(T, "diff", [id, outs, news])).changes).toBe(true);
    edge.log.splice(0);
    const { outs: after } = await call(T, "update", [id, outs, news]);
    expect(
      writes()
        .map((e) => e.method)
        .sort(),
    ).toEqual(["DELETE", "DELETE", "PATCH", "POST", "POST"]);
    expect(after.records.h2.ttl).toBe(600);
    expect(after.records.h4.type).toBe("TXT");
    expect(after.ids).not.toHaveProperty("h7");
    expect(records(edge)).toHaveLength(50);
    expect((await call(T, "diff", [id, after, news])).changes).toBe(false);
  });

  it("an identical record already there fails naming the key, unless the set adopts it", async () => {
    await create({ old: host(1) });
    await expect(create({ mine: host(1) })).rejects.toThrow(
      /records\.mine: the A record h1\.example\.com 203\.0\.113\.2 already exists.*adopt: true/,
    );
    forgetClaims(); // a later run: the first set's record is no resource's of this one
    const { outs } = await create({ mine: host(1), other: host(2) }, { adopt: true });
    expect(records(edge)).toHaveLength(2); // taken over, not duplicated
    expect(outs.ids.mine).toBe(records(edge).find((r) => r.content === "203.0.113.2")!.id);
  });

  it("a lost answer to a create makes no duplicate", async () => {
    edge.inject({ match: { method: "POST", path: "dns_records$" }, count: 1, kind: "drop-after" });
    const { outs } = await create(many(3));
    expect(records(edge)).toHaveLength(3);
    expect(Object.keys(outs.ids)).toHaveLength(3);
  });

  it("a partial failure keeps exactly what was made in state; the next up makes the rest; destroy removes exactly the set", async () => {
    edge.inject({ match: { method: "POST", path: "dns_records$" }, count: 2, kind: "status", status: 400 });
    const failed = await create(many(6)).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(Error);
    expect(String(failed)).toMatch(/2 of 6 records could not be made/);
    const partial = failed as { properties: { ids: Record<string, string>; records: Record<string, unknown> }; id: string };
    expect(partial.id).toMatch(/\/set-/);
    expect(Object.keys(partial.properties.ids)).toHaveLength(4);
    expect(records(edge)).toHaveLength(4);
    expect(failed).not.toBeInstanceOf(PartialCreateError); // the door hands the engine a plain error with the state on it

    const other = await create({ keep: host(40) });
    const { outs } = await call(T, "update", [partial.id, partial.properties, await checked({ records: many(6) })]);
    expect(Object.keys(outs.ids)).toHaveLength(6);
    expect(records(edge)).toHaveLength(7);

    await call(T, "delete", [partial.id, outs]);
    expect(records(edge).map((r) => r.id)).toEqual([other.outs.ids.keep]);
  });

  it("preview checks verify the token and look the zone up once for the set", async () => {
    forgetPreviewChecks();
    await checkForEngine(T, {}, { zoneName: "example.com", records: many(3) });
    expect(edge.count("GET", /\/user\/tokens\/verify$/)).toBe(1);
    expect(edge.count("GET", /\/zones$/)).toBeLessThanOrEqual(1); // none when this run looked it up already
    expect(writes()).toEqual([]);
    forgetPreviewChecks();
  });

  it("matches records of one type and name by value: a zone file's inserted line is one POST, a removed one one DELETE, reordering nothing, a changed value one PATCH", async () => {
    const file = ["$TTL 300", "shop A 203.0.113.1", "shop A 203.0.113.2", "www CNAME shop", "@ MX 10 mail", "@ MX 20 backup"];
    const read = (lines: string[]) => parseZoneFile(lines.join("\n"), { origin: "example.com" }).records;
    const made = await create(read(file));
    const id = made.id;
    let outs = made.outs;
    const step = async (lines: string[]) => {
      edge.log.splice(0);
      const wanted = await checked({ records: read(lines) });
      const diff = await call(T, "diff", [id, outs, wanted]);
      const sent = diff.changes ? ((outs = (await call(T, "update", [id, outs, wanted])).outs), writes().map((w) => w.method)) : [];
      expect((await call(T, "diff", [id, outs, wanted])).changes).toBe(false);
      return sent;
    };
    expect(await step([file[0], ...file.slice(1).reverse()])).toEqual([]);
    expect(await step([...file, "shop A 203.0.113.3"])).toEqual(["POST"]);
    expect(await step(file)).toEqual(["DELETE"]);
    const changed = file.map((l) => l.replace("203.0.113.2", "203.0.113.9"));
    expect(await step(changed)).toEqual(["PATCH"]);
    expect(await step(changed.map((l) => l.replace("20 backup", "30 backup")))).toEqual(["PATCH"]);
    expect(
      records(edge)
        .map((r) => `${r.type} ${r.name} ${r.priority ?? ""} ${r.content}`)
        .sort(),
    ).toEqual([
      "A shop.example.com  203.0.113.1",
      "A shop.example.com  203.0.113.9",
      "CNAME www.example.com  shop.example.com",
      "MX example.com 10 mail.example.com",
      "MX example.com 30 backup.example.com",
    ]);
  });

  it("a set keyed the old way (A:@, A:@:2 in file order) moves to value keys with nothing sent", async () => {
    const old = {
      "A:@": { type: "A", name: "@", content: "203.0.113.1", ttl: 300 },
      "A:@:2": { type: "A", name: "@", content: "203.0.113.2", ttl: 300 },
    };
    const { id, outs } = await create(old);
    edge.log.splice(0);
    const wanted = await checked({
      records: parseZoneFile("$TTL 300\n@ A 203.0.113.2\n@ A 203.0.113.1\n", { origin: "example.com" }).records,
    });
    expect(Object.keys(wanted.records).sort()).toEqual(["A:@:203.0.113.1", "A:@:203.0.113.2"]);
    expect((await call(T, "diff", [id, outs, wanted])).changes).toBe(true); // the keys in state change
    const { outs: after } = await call(T, "update", [id, outs, wanted]);
    expect(writes()).toEqual([]);
    expect(after.ids["A:@:203.0.113.1"]).toBe(outs.ids["A:@"]);
    expect(after.ids["A:@:203.0.113.2"]).toBe(outs.ids["A:@:2"]);
  });
});

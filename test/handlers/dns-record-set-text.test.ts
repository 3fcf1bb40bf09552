/**
 * DnsRecordSet asked in its compact form, as the TypeScript classes ask it (the records as one text,
 * dns-record-set/text.ts): check names a bad record by key and value, every answer comes back as text (outputs with
 * each record's id in its line), drift and
 * partial failures too, and a set whose state holds maps (written before the compact form) moves to text with an
 * update that sends nothing.
 */
import { describe, expect, it } from "vitest";
import { call, checkForEngine } from "../../provider/door";
import { recordsAndIds, recordsFromText, recordsToText } from "../../provider/edge/dns-record-set/text";
import { records, useEdge, zoneId } from "../helpers/edge";

const edge = useEdge({ zones: ["example.com"] });
const T = "edge:DnsRecordSet";
const host = (i: number) => ({ type: "A", name: `h${i}`, content: `203.0.113.${i + 1}`, ttl: 300 });
const many = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`h${i}`, host(i)]));
const writes = () => edge.log.filter((e) => e.method !== "GET" && !e.path.startsWith("/__"));

async function checked(text: string) {
  const { inputs, failures } = await call(T, "check", [{}, { zoneName: "example.com", records: text }]);
  expect(failures).toEqual([]);
  return inputs;
}

describe("DnsRecordSet in its compact form", () => {
  it("check reads the text, names a bad record by key and value, and answers the checked records as text", async () => {
    const bad = await checkForEngine(
      T,
      {},
      { zoneName: "example.com", records: recordsToText({ ...many(3), "web-a": { type: "A", name: "web", content: "not-an-ip" } }) },
    );
    expect(bad.failures).toEqual([{ property: "", reason: expect.stringMatching(/^records\.web-a\.content \("not-an-ip"\): .*IPv4/) }]);
    const ok = await checked(recordsToText({ apex: { type: "AAAA", name: "@", content: "2001:DB8::10" } }));
    expect(ok.records).toBe(`@records v2\napex AAAA @ 1 2001:db8::10`); // normalised (ttl 1: automatic), as text
    const text = await call(T, "check", [{}, { zoneName: "example.com", records: "www A 203.0.113.1" }]);
    expect(text.failures).toEqual([{ property: "records", reason: expect.stringMatching(/^records must be .+, not text$/) }]); // any other text: a wrong type
    const damaged = await call(T, "check", [{}, { zoneName: "example.com", records: '@records v2\nwww A www 300 ="unterminated' }]);
    expect(damaged.failures).toEqual([
      { property: "records", reason: expect.stringMatching(/line 2 of the record set's text cannot be read.*pass the records as a map/) },
    ]);
    expect(edge.log).toEqual([]);
  });

  it("create, read, diff and update answer in text; refresh's drift is text too", async () => {
    const inputs = await checked(recordsToText(many(5)));
    const { id, outs } = await call(T, "create", [inputs]);
    expect(typeof outs.records).toBe("string");
    expect(Object.keys(recordsAndIds(outs.records).ids!)).toHaveLength(5);
    expect(recordsFromText(outs.records).h1).toEqual({ ...host(1), proxied: false });
    const read = await call(T, "read", [id, outs]);
    expect(read.props).toEqual(outs);
    expect((await call(T, "diff", [id, outs, inputs])).changes).toBe(false);

    edge.zones.get(zoneId(edge))!.records.get(recordsAndIds(outs.records).ids!.h2)!.content = "198.51.100.2";
    const drift = await call(T, "read", [id, outs]);
    expect(recordsFromText(drift.inputs.records).h2).toMatchObject({ content: "198.51.100.2" });
    expect(drift.props.records).toMatch(/\nh2 A h2 300 198\.51\.100\.2\n[\s\S]*\n@ids\n[\s\S]*\nh2 ~\S+/); // the record as the program says it; its id after the records

    const wanted = { ...many(5), h9: host(9) };
    edge.log.splice(0);
    const { outs: after } = await call(T, "update", [id, drift.props, await checked(recordsToText(wanted))]);
    expect(writes()).toHaveLength(1); // one batch: the PATCH back and the new record
    expect(Object.keys(recordsAndIds(after.records).ids!).sort()).toEqual(Object.keys(wanted).sort());
    expect(recordsFromText(after.records)).toEqual(
      Object.fromEntries(Object.entries(wanted).map(([k, r]) => [k, { ...r, proxied: false }])),
    );
  });

  it("diff on texts agrees with diff on maps: no change when only the ids differ, a change, a new zone", async () => {
    const inputs = await checked(recordsToText(many(40)));
    const { id, outs } = await call(T, "create", [inputs]);
    const onMaps = async (olds: Record<string, unknown>, news: Record<string, unknown>) => {
      const { records, ids } = recordsAndIds(olds.records as string);
      return call(T, "diff", [id, { ...olds, records, ids }, { ...news, records: recordsFromText(news.records as string) }]);
    };
    const changed = await checked(recordsToText({ ...many(40), h3: { ...host(3), ttl: 600 } }));
    const elsewhere = { ...inputs, zoneName: "example.org" };
    for (const news of [inputs, changed, elsewhere]) expect(await call(T, "diff", [id, outs, news])).toEqual(await onMaps(outs, news));
    expect((await call(T, "diff", [id, outs, inputs])).changes).toBe(false);
    expect((await call(T, "diff", [id, outs, changed])).changes).toBe(true);
    expect((await call(T, "diff", [id, outs, elsewhere])).replaces).toEqual(["zoneName"]);
  });

  it("a partial create keeps exactly what was made, as text", async () => {
    edge.inject({ match: { method: "POST", path: "/dns_records/batch$" }, count: 1, kind: "status", status: 400 });
    edge.inject({ match: { method: "POST", path: "/dns_records$" }, count: 1, kind: "status", status: 400 });
    const failed = (await call(T, "create", [await checked(recordsToText(many(3)))]).catch((e: unknown) => e)) as Error & {
      properties: { ids: string; records: string };
    };
    expect(String(failed)).toMatch(/1 of 3 records could not be made/);
    expect(Object.keys(recordsAndIds(failed.properties.records).ids!)).toHaveLength(2);
    expect(Object.keys(recordsFromText(failed.properties.records))).toHaveLength(2);
    expect(records(edge)).toHaveLength(2);
  });

  it("a set whose state holds maps (from before the compact form) moves to text with an update that sends nothing", async () => {
    const maps = await call(T, "check", [{}, { zoneName: "example.com", records: many(4) }]);
    const { id, outs } = await call(T, "create", [maps.inputs]);
    expect(typeof outs.records).toBe("object");
    const news = await checked(recordsToText(many(4)));
    const diff = await call(T, "diff", [id, outs, news]);
    expect(diff).toMatchObject({ changes: true });
    expect(diff.replaces ?? []).toEqual([]);
    edge.log.splice(0);
    const { outs: after } = await call(T, "update", [id, outs, news]);
    expect(writes()).toEqual([]);
    expect(recordsAndIds(after.records).ids!).toEqual(outs.ids);
    expect((await call(T, "diff", [id, after, news])).changes).toBe(false);
  });
});

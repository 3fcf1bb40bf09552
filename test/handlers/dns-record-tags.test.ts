/**
 * Records as the service keeps them (issue 46): tags (`name:value`, paid plans) and settings (ipv4_only, ipv6_only,
 * flatten_cname) declared, compared and restored; left as the service has them when the program does not give them;
 * the plan's limits (tags, comment length, a TTL under 60) refused at preview naming the plan. In a DnsRecord and in
 * a DnsRecordSet of 1,000 records.
 */
import { describe, expect, it } from "vitest";
import { call } from "../../provider/door";
import { forgetPreviewChecks, previewCheck } from "../../provider/preflight";
import { forgetZones } from "../../provider/edge/zones";
import { useEdge } from "../helpers/edge";

const edge = useEdge();
const zone = () => [...edge.zones.values()].find((z) => z.name === "example.com")!;
const plan = (p: "free" | "pro" | "business" | "enterprise") => {
  edge.plans.set(zone().id, p);
  forgetZones(); // the plan is read with the zone, once a run
  forgetPreviewChecks();
};
const checked = async (type: string, args: Record<string, unknown>) => {
  const { inputs, failures } = await call(type, "check", [{}, args]);
  expect(failures).toEqual([]);
  return inputs;
};
const stored = (id: string) => zone().records.get(id)!;

describe("a DnsRecord's tags and settings", () => {
  it("are sent, read back with no drift, restored when changed by hand, and left alone when not declared", async () => {
    plan("pro");
    const args = {
      zoneName: "example.com",
      type: "AAAA",
      name: "www",
      content: "2001:db8::1",
      proxied: true,
      tags: ["env:prod", "team:web"],
      settings: { ipv6Only: true },
    };
    const inputs = await checked("edge:DnsRecord", args);
    await previewCheck("edge:DnsRecord", undefined, inputs, {});
    const r = await call("edge:DnsRecord", "create", [inputs]);
    expect(stored(r.id)).toMatchObject({ tags: ["env:prod", "team:web"], settings: { ipv6_only: true } });
    expect(r.outs).toMatchObject({ tags: ["env:prod", "team:web"], settings: { ipv6Only: true } });
    const read = await call("edge:DnsRecord", "read", [r.id, r.outs]);
    expect(read.inputs).toBeUndefined();
    // Changed by hand: a tag's value and the setting. Refresh shows it; the update restores both.
    stored(r.id).tags = ["env:staging", "team:web", "owner:someone"];
    stored(r.id).settings = { ipv6_only: false, ipv4_only: true };
    const drift = await call("edge:DnsRecord", "read", [r.id, r.outs]);
    expect(drift.inputs).toMatchObject({ tags: ["env:staging", "team:web", "owner:someone"], settings: { ipv6Only: false } });
    expect((await call("edge:DnsRecord", "diff", [r.id, drift.props, inputs])).changes).toBe(true);
    await call("edge:DnsRecord", "update", [r.id, drift.props, inputs]);
    // Declared tags are the record's tags; the setting the program does not give (ipv4_only) keeps its value.
    expect(stored(r.id)).toMatchObject({ tags: ["env:prod", "team:web"], settings: { ipv6_only: true, ipv4_only: true } });
  });

  it("a record that declares no tags or settings leaves those set elsewhere: no drift, no write", async () => {
    plan("pro");
    const inputs = await checked("edge:DnsRecord", {
      zoneName: "example.com",
      type: "CNAME",
      name: "docs",
      content: "docs.example.net",
      ttl: 300,
    });
    const r = await call("edge:DnsRecord", "create", [inputs]);
    stored(r.id).tags = ["team:docs"];
    stored(r.id).settings = { flatten_cname: true };
    const read = await call("edge:DnsRecord", "read", [r.id, r.outs]);
    expect(read.inputs).toBeUndefined();
    expect((await call("edge:DnsRecord", "diff", [r.id, read.props, inputs])).changes).toBe(false);
  });

  it("the plan's limits are refused at preview, naming the plan; what the plan allows passes", async () => {
    plan("free");
    const base = { zoneName: "example.com", type: "A", name: "api", content: "203.0.113.4" };
    const refused = async (args: Record<string, unknown>, words: RegExp) => {
      forgetPreviewChecks();
      await expect(previewCheck("edge:DnsRecord", undefined, await checked("edge:DnsRecord", { ...base, ...args }), {})).rejects.toThrow(
        words,
      );
    };
    await refused({ tags: ["env:prod"] }, /Free plan.*tags need a paid plan/);
    await refused({ comment: "x".repeat(150) }, /Free plan.*comment is 150 characters/);
    await refused({ ttl: 30 }, /Free plan.*ttl 30 is under 60 seconds/);
    plan("pro");
    forgetPreviewChecks();
    await previewCheck(
      "edge:DnsRecord",
      undefined,
      await checked("edge:DnsRecord", { ...base, comment: "x".repeat(150), tags: ["env:prod"] }),
      {},
    );
    await refused({ ttl: 30 }, /Pro plan.*only Enterprise zones allow/);
    plan("enterprise");
    forgetPreviewChecks();
    const thirty = await checked("edge:DnsRecord", { ...base, ttl: 30 });
    await previewCheck("edge:DnsRecord", undefined, thirty, {});
    const r = await call("edge:DnsRecord", "create", [thirty]);
    expect(stored(r.id).ttl).toBe(30);
  });

  it("adopting a record with other tags writes the program's; a list declared for the first time is sent once", async () => {
    plan("pro");
    const made = await call("edge:DnsRecord", "create", [
      await checked("edge:DnsRecord", { zoneName: "example.com", type: "A", name: "old", content: "203.0.113.8", ttl: 300 }),
    ]);
    stored(made.id).tags = ["team:legacy"];
    forgetPreviewChecks();
    const adopting = await checked("edge:DnsRecord", {
      zoneName: "example.com",
      type: "A",
      name: "old",
      content: "203.0.113.8",
      ttl: 300,
      tags: ["team:web"],
      adopt: true,
    });
    const r = await call("edge:DnsRecord", "create", [adopting]);
    expect(r.id).toBe(made.id);
    expect(stored(r.id).tags).toEqual(["team:web"]);
    // State written without tags (before the program gave them): declared now, the list is compared and sent once.
    const { tags: _t, ...untracked } = r.outs;
    const now = await checked("edge:DnsRecord", {
      zoneName: "example.com",
      type: "A",
      name: "old",
      content: "203.0.113.8",
      ttl: 300,
      tags: [],
    });
    expect((await call("edge:DnsRecord", "diff", [r.id, untracked, now])).changes).toBe(true);
    await call("edge:DnsRecord", "update", [r.id, untracked, now]);
    expect(stored(r.id).tags).toEqual([]);
  });

  it("check refuses a tag the service does not take, and the owner label's name", async () => {
    for (const [tags, words] of [
      [["env:prod", "Env:prod"], /given twice/],
      [["no colon allowed here!"], /name:value/],
      [["pulumi-ops-stack:p/s"], /owner's label/],
      [Array.from({ length: 21 }, (_, i) => `t${i}:x`), /at most 20/],
    ] as const) {
      const { failures } = await call("edge:DnsRecord", "check", [
        {},
        { zoneName: "example.com", type: "A", name: "a", content: "203.0.113.1", tags },
      ]);
      expect(failures.map((f: { reason: string }) => f.reason).join("; ")).toMatch(words);
    }
  });
});

describe("a DnsRecordSet's tags and settings", () => {
  it("1,000 records with tags: made, read back with no drift, a tag changed by hand found and restored", { timeout: 60_000 }, async () => {
    plan("pro");
    const records = Object.fromEntries(
      Array.from({ length: 1000 }, (_, i) => [
        `h${i}`,
        { type: "A", name: `h${i}`, content: `10.0.${i >> 8}.${i & 255}`, ttl: 300, tags: [`index:${i}`, "fleet:web"] },
      ]),
    );
    records.c = { type: "CNAME", name: "c", content: "c.example.net", ttl: 300, settings: { flattenCname: true } } as never;
    const inputs = await checked("edge:DnsRecordSet", { zoneName: "example.com", records });
    const r = await call("edge:DnsRecordSet", "create", [inputs]);
    const read = await call("edge:DnsRecordSet", "read", [r.id, r.outs]);
    expect(read.inputs).toBeUndefined();
    expect((await call("edge:DnsRecordSet", "diff", [r.id, read.props, inputs])).changes).toBe(false);
    const id = r.outs.ids.h7;
    expect(stored(id).tags).toEqual(["index:7", "fleet:web"]);
    expect(stored(r.outs.ids.c).settings).toEqual({ flatten_cname: true });
    stored(id).tags = ["index:7"];
    const drift = await call("edge:DnsRecordSet", "read", [r.id, r.outs]);
    expect(drift.inputs.records.h7.tags).toEqual(["index:7"]);
    edge.log.splice(0);
    await call("edge:DnsRecordSet", "update", [r.id, drift.props, inputs]);
    expect(stored(id).tags).toEqual(["index:7", "fleet:web"]);
    expect(edge.log.filter((l) => l.method !== "GET").length).toBe(1); // one patch (or one batch of it)
    // A setting changed: the record is read first, and a setting the program does not give (set by hand) is kept.
    stored(r.outs.ids.c).settings = { flatten_cname: true, ipv6_only: true };
    const unflattened = await checked("edge:DnsRecordSet", {
      zoneName: "example.com",
      records: { ...records, c: { ...records.c, settings: { flattenCname: false } } },
    });
    const current = (await call("edge:DnsRecordSet", "read", [r.id, r.outs])).props;
    await call("edge:DnsRecordSet", "update", [r.id, current, unflattened]);
    expect(stored(r.outs.ids.c).settings).toEqual({ flatten_cname: false, ipv6_only: true });
  });
});

/**
 * A zone's records beyond the program (issue 49), against the edge emulator: getUnmanagedRecords lists what no
 * resource holds with the service's own records apart; an authoritative DnsRecordSet lists at preview and deletes at up
 * exactly the records of its names (or of the zone, with the apex and `ignore`) it does not declare, and never the
 * service's, another resource's or a labelled one; a large change fails its diff with nothing sent unless allowed;
 * ops:maxDeletes holds a run's deletes.
 */
import { afterEach, describe, expect, it } from "vitest";
import { call, checkForEngine } from "../../provider/door";
import { forgetPreviewChecks } from "../../provider/preflight";
import { functions } from "../../provider/function-registry";
import { collectWarnings, useLogSink } from "../../provider/log";
import { records, useEdge, zoneId } from "../helpers/edge";

const edge = useEdge();
const T = "edge:DnsRecordSet";
const host = (i: number, name = `h${i}`) => ({ type: "A", name, content: `203.0.113.${i + 1}`, ttl: 300 });
const many = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`h${i}`, host(i)]));
const writes = () => edge.log.filter((e) => e.method !== "GET" && !e.path.startsWith("/__")).flatMap((e) => e.changes ?? [e.method]);

afterEach(() => {
  delete process.env.PULUMI_OPS_MAX_DELETES;
  process.env.PULUMI_OPS_QUIET = "1";
  forgetPreviewChecks();
  useLogSink(undefined);
});

/** A record made out of band (the API, as another tool would), then marked as the service marks its own. */
async function outOfBand(
  type: string,
  name: string,
  content: string,
  meta: Record<string, unknown> = {},
  tags: string[] = [],
): Promise<string> {
  const res = await fetch(`${edge.url}/client/v4/zones/${zoneId(edge)}/dns_records`, {
    method: "POST",
    headers: { authorization: `Bearer ${process.env.EDGE_API_TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify({ type, name, content, ttl: 300 }),
  });
  const answer = (await res.json()) as { result: { id: string } | null; errors: unknown[] };
  if (!answer.result) throw new Error(JSON.stringify(answer.errors));
  const stored = edge.zones.get(zoneId(edge))!.records.get(answer.result.id)!;
  Object.assign(stored.meta, meta);
  stored.tags = tags; // as a paid zone's record carries them (this zone is on the Free plan)
  const id = answer.result.id;
  return id;
}

async function checked(args: Record<string, unknown>) {
  const { inputs, failures } = await call(T, "check", [{}, { zoneName: "example.com", ...args }]);
  expect(failures).toEqual([]);
  return inputs;
}

/** Lines the provider says, by severity. */
function said(): { lines: string[] } {
  const lines: string[] = [];
  process.env.PULUMI_OPS_QUIET = "0";
  useLogSink((_severity, line) => (lines.push(line), true));
  return { lines };
}

describe("a zone's records beyond the program", () => {
  it("getUnmanagedRecords lists what no resource holds, the service's own apart, the labelled apart", async () => {
    const set = await call(T, "create", [await checked({ records: many(4) })]);
    await outOfBand("A", "stray.example.com", "198.51.100.1");
    await outOfBand("TXT", "example.com", "v=spf1 include:_spf.mx.cloudflare.net ~all", { email_routing: true, read_only: true });
    edge.addWorkerRecord(zoneId(edge), "api.example.com");
    await outOfBand("A", "tunnel.example.com", "198.51.100.2", { managed_by_argo_tunnel: true });
    const r = (await functions["edge:getUnmanagedRecords"].run({
      zoneName: "example.com",
      managedIds: Object.values(set.outs.ids),
    })) as Record<string, any>;
    expect(r.total).toBe(8);
    expect(r.unmanaged.map((x: { name: string }) => x.name)).toEqual(["stray"]);
    expect(r.apart.map((x: { name: string; reason: string }) => `${x.name} ${x.reason}`).sort()).toEqual([
      "@ read-only",
      "api worker",
      "tunnel system",
    ]);
    // Without the stack's ids (a program's process, where this one's creates claimed nothing), its records are
    // unmanaged too: the free plan labels nothing.
    forgetPreviewChecks();
    const bare = (await functions["edge:getUnmanagedRecords"].run({ zoneId: zoneId(edge) })) as Record<string, any>;
    expect(bare.unmanaged).toHaveLength(5);
    expect(writes()).toHaveLength(4 + 3); // the set's and the test's own records, nothing from the function
  });

  it("an authoritative set lists at preview and deletes at up the other records of its names, and nothing else", async () => {
    await outOfBand("A", "h1.example.com", "198.51.100.9"); // at a declared name: removed
    await outOfBand("A", "other.example.com", "198.51.100.10"); // another name: left
    await outOfBand("TXT", "h2.example.com", "v=DKIM1; p=MIGf", { read_only: true }); // the service's, at a declared name: left
    const seen = said();
    const { inputs, failures } = await checkForEngine(T, {}, { zoneName: "example.com", records: many(3), authoritative: true }); // the preview's check
    expect(failures).toEqual([]);
    expect(seen.lines.join("\n")).toMatch(/deletes 1 record it does not declare:\n {2}- A h1 198\.51\.100\.9 \(id [0-9a-f]{32}\)$/);
    edge.log.splice(0);
    const set = await call(T, "create", [inputs]);
    expect(writes().filter((w) => w === "DELETE")).toHaveLength(1);
    expect(
      records(edge)
        .map((x) => `${x.name} ${x.content}`)
        .sort(),
    ).toEqual([
      "h0.example.com 203.0.113.1",
      "h1.example.com 203.0.113.2",
      "h2.example.com 203.0.113.3",
      "h2.example.com v=DKIM1; p=MIGf",
      "other.example.com 198.51.100.10",
    ]);
    // Another appears by hand: the diff lists it, the update removes it, and the set's own records are not touched.
    await outOfBand("TXT", "h0.example.com", "hand-made");
    forgetPreviewChecks(); // the next run
    const d = await call(T, "diff", [set.id, set.outs, inputs]);
    expect(d.changes).toBe(true);
    edge.log.splice(0);
    await call(T, "update", [set.id, set.outs, inputs]);
    expect(writes()).toEqual(["DELETE"]);
    expect(records(edge).some((x) => x.content === "hand-made")).toBe(false);
    forgetPreviewChecks();
    expect((await call(T, "diff", [set.id, set.outs, inputs])).changes).toBe(false);
  });

  it("with the apex declared and ignore given, the whole zone but what ignore matches; a labelled record is never removed", async () => {
    await outOfBand("A", "old.example.com", "198.51.100.1");
    await outOfBand("TXT", "_acme-challenge.example.com", "token");
    await outOfBand("CNAME", "dev.example.com", "dev.example.net");
    await outOfBand("A", "a.dev.example.com", "198.51.100.3");
    await outOfBand("A", "theirs.example.com", "198.51.100.4", {}, ["pulumi-ops-stack:other/prod"]);
    await outOfBand("A", "kept.example.com", "198.51.100.5");
    const seen = said();
    // Patterns relative to the zone, or full with the trailing dot.
    const { inputs } = await checkForEngine(
      T,
      {},
      {
        zoneName: "example.com",
        records: { apex: { type: "A", name: "@", content: "203.0.113.1" }, www: host(2, "www") },
        authoritative: true,
        ignore: ["_acme-challenge* TXT", "*dev", "kept.example.com."],
      },
    );
    expect(seen.lines.join("\n")).toMatch(/authoritative for the whole zone example\.com \(it declares the apex and gives ignore\)/);
    edge.log.splice(0);
    await call(T, "create", [inputs]);
    expect(writes().filter((w) => w === "DELETE")).toHaveLength(1);
    expect(
      records(edge)
        .map((x) => x.name)
        .sort(),
    ).toEqual([
      "_acme-challenge.example.com",
      "a.dev.example.com",
      "dev.example.com",
      "example.com",
      "kept.example.com",
      "theirs.example.com",
      "www.example.com",
    ]);
  });

  it("another resource's records are never removed: held from its state, or declared by its check earlier in the run", async () => {
    const other = await call(T, "create", [
      await checked({ records: { mail: { type: "MX", name: "@", content: "mx.example.net", priority: 10 } } }),
    ]);
    const single = await call("edge:DnsRecord", "create", [
      (await call("edge:DnsRecord", "check", [{}, { zoneName: "example.com", type: "TXT", name: "@", content: "declared" }])).inputs,
    ]);
    await outOfBand("TXT", "example.com", "stray");
    forgetPreviewChecks(); // a new run: nothing claimed or held yet
    // The set's diff holds its records; the DnsRecord's check declares its record.
    await call(T, "diff", [other.id, other.outs, other.outs]);
    const declared = { zoneName: "example.com", type: "TXT", name: "@", content: "declared" };
    expect((await checkForEngine("edge:DnsRecord", declared, declared)).failures).toEqual([]); // in state: its old inputs
    const { inputs } = await checkForEngine(
      T,
      {},
      { zoneName: "example.com", records: { apex: host(0, "@") }, authoritative: true, ignore: [] },
    );
    edge.log.splice(0);
    await call(T, "create", [inputs]);
    expect(writes()).toEqual(["DELETE", "POST"]);
    expect(
      records(edge)
        .map((x) => `${x.type} ${x.content}`)
        .sort(),
    ).toEqual(["A 203.0.113.1", "MX mx.example.net", "TXT declared"]);
    expect(single.id).toBeDefined();
  });

  it("up deletes only what this run's preview listed: a record made after the diff is left for the next run", async () => {
    const inputs = await checked({ records: many(2), authoritative: true });
    const set = await call(T, "create", [inputs]); // no preview side in this process: nothing to delete anyway
    await outOfBand("TXT", "h0.example.com", "before the preview");
    forgetPreviewChecks(); // the next run: its diff lists the zone as it is now
    expect((await call(T, "diff", [set.id, set.outs, inputs])).changes).toBe(true);
    await outOfBand("TXT", "h1.example.com", "after the preview");
    edge.log.splice(0);
    await call(T, "update", [set.id, set.outs, inputs]);
    expect(writes()).toEqual(["DELETE"]);
    expect(
      records(edge)
        .map((x) => x.content)
        .filter((c) => c.includes("preview")),
    ).toEqual(["after the preview"]);
    forgetPreviewChecks(); // the next run lists it, and deletes it
    expect((await call(T, "diff", [set.id, set.outs, inputs])).changes).toBe(true);
    await call(T, "update", [set.id, set.outs, inputs]);
    expect(records(edge).some((x) => x.content.includes("preview"))).toBe(false);
  });

  it("switching authority on or off is an update that sends nothing", async () => {
    const inputs = await checked({ records: many(2) });
    const set = await call(T, "create", [inputs]);
    const on = await checked({ records: many(2), authoritative: true });
    expect((await call(T, "diff", [set.id, set.outs, on])).changes).toBe(true);
    edge.log.splice(0);
    const updated = await call(T, "update", [set.id, set.outs, on]);
    expect(updated.outs.authoritative).toBe(true);
    expect(writes()).toEqual([]);
    expect((await call(T, "diff", [set.id, updated.outs, on])).changes).toBe(false);
    expect((await call(T, "diff", [set.id, updated.outs, inputs])).changes).toBe(true);
  });

  it("a change over maxChangePercent of a zone of 10 or more fails the diff naming the counts, with nothing sent; allowed, it goes", async () => {
    const inputs = await checked({ records: many(20) });
    const set = await call(T, "create", [inputs]);
    const smaller = await checked({ records: many(12) }); // 8 of 20 deleted: 40%
    edge.log.splice(0);
    await expect(call(T, "diff", [set.id, set.outs, smaller])).rejects.toThrow(
      /this change deletes 8 of the zone's 20 records \(40\.0%\), over maxChangePercent 30%; nothing was sent.*allowLargeChange: true/s,
    );
    expect(writes()).toEqual([]);
    expect((await call(T, "diff", [set.id, set.outs, await checked({ records: many(12), maxChangePercent: 50 })])).changes).toBe(true);
    const allowed = await checked({ records: many(12), allowLargeChange: true });
    expect((await call(T, "diff", [set.id, set.outs, allowed])).changes).toBe(true);
    await call(T, "update", [set.id, set.outs, allowed]);
    expect(records(edge)).toHaveLength(12);
    // 6 updates of the 20 (30%, not over) and the 8 deletes already made are weighed apart: no large change.
    const ttl = await checked({
      records: Object.fromEntries(Object.entries(many(20)).map(([k, r], i) => [k, i < 6 ? { ...r, ttl: 600 } : r])),
    });
    await expect(call(T, "diff", [set.id, { ...set.outs }, ttl])).resolves.toBeDefined();
  });

  it("ops:maxDeletes holds the run's deletes: a diff that passes it fails, and so does a set's destroy", async () => {
    const set = await call(T, "create", [await checked({ records: many(6) })]);
    process.env.PULUMI_OPS_MAX_DELETES = "3";
    edge.log.splice(0);
    await expect(call(T, "diff", [set.id, set.outs, await checked({ records: many(2), allowLargeChange: true })])).rejects.toThrow(
      /would delete 4 records, and this run 4 in all, over ops:maxDeletes 3/,
    );
    await expect(call(T, "delete", [set.id, set.outs])).rejects.toThrow(/over ops:maxDeletes 3/);
    expect(writes()).toEqual([]);
    expect(records(edge)).toHaveLength(6);
    process.env.PULUMI_OPS_MAX_DELETES = "6";
    forgetPreviewChecks();
    await call(T, "delete", [set.id, set.outs]);
    expect(records(edge)).toHaveLength(0);
  });

  it("a set that is not authoritative says how many records of the zone no resource holds, and deletes none", async () => {
    const set = await call(T, "create", [await checked({ records: many(2) })]);
    await outOfBand("A", "stray.example.com", "198.51.100.1");
    edge.addWorkerRecord(zoneId(edge), "api.example.com");
    const { result, warnings } = collectWarnings(() => call(T, "diff", [set.id, set.outs, set.outs]));
    const seen = said();
    await result;
    expect(warnings).toEqual([]);
    forgetPreviewChecks();
    await call(T, "diff", [set.id, set.outs, set.outs]);
    expect(seen.lines.join("\n")).toMatch(
      /zone example\.com holds 1 record that no resource of this stack checked so far in this run holds \(and 1 the service keeps itself\)/,
    );
  });
});

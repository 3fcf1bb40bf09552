/**
 * Every record type the service manages, through DnsRecord's handlers against the edge emulator: checked at preview
 * (each type's own rules, naming the field), made with the structured `data` the real API takes, no diff for the
 * same value spelled otherwise, one PATCH for a changed value, drift revealed by read, a takeover of an identical
 * record that sends nothing, and delete. The record set holds them all too.
 */
import { describe, expect, it } from "vitest";
import { forgetClaims } from "../../provider/claims";
import { call } from "../../provider/door";
import { records, useEdge } from "../helpers/edge";
import { SAMPLES } from "../helpers/record-samples";

const edge = useEdge();
const T = "edge:DnsRecord";
const writes = () => edge.log.filter((l) => l.method !== "GET").length;

async function check(args: Record<string, unknown>) {
  return call(T, "check", [{}, { zoneName: "example.com", ttl: 300, ...args }]);
}

describe.each(SAMPLES)("$type records", (s) => {
  it("lifecycle: create with the API's shape, no diff for another spelling, one PATCH for a change, drift, delete", async () => {
    const { inputs, failures } = await check({ type: s.type, name: s.name, ...s.value });
    expect(failures).toEqual([]);
    edge.captured = [];
    const { id, outs } = await call(T, "create", [inputs]);
    const stored = records(edge).find((r) => r.id === id)!;
    // What went over the wire is what the official client sends: data for structured types, content for the rest.
    const posted = JSON.parse(edge.captured.find((c) => c.body.startsWith("{"))!.body);
    edge.captured = undefined;
    expect(posted.data !== undefined).toBe(s.value.data !== undefined);
    expect(posted.content !== undefined).toBe(s.value.content !== undefined);
    expect(stored.type).toBe(s.type);
    expect(outs.content).toBe(stored.content);
    if (s.value.data) expect(outs.data).toEqual(inputs.data);

    const again = await check({ type: s.type, name: s.name, ...s.respelled });
    expect(again.failures).toEqual([]);
    expect((await call(T, "diff", [id, outs, again.inputs])).changes).toBe(false);
    const read = await call(T, "read", [id, outs]);
    expect(read.inputs).toBeUndefined();

    const changed = await check({ type: s.type, name: s.name, ...s.changed });
    expect((await call(T, "diff", [id, outs, changed.inputs])).changes).toBe(true);
    const before = writes();
    const { outs: updated } = await call(T, "update", [id, outs, changed.inputs]);
    expect(writes() - before).toBe(1);
    expect((await call(T, "diff", [id, updated, changed.inputs])).changes).toBe(false);

    // Out of band, back to the first value: read reports it as drift in the program's terms.
    const body = s.value.data ? { data: s.value.data } : { content: s.value.content };
    await fetch(`${edge.url}/client/v4/zones/${stored.zone_id}/dns_records/${id}`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${process.env.EDGE_API_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ ...body, ...(s.value.priority !== undefined ? { priority: s.value.priority } : {}) }),
    });
    const drift = await call(T, "read", [id, updated]);
    expect(drift.inputs).toBeDefined();
    expect((await call(T, "diff", [id, drift.props, inputs])).changes).toBe(false);

    await call(T, "delete", [id, drift.props]);
    expect(records(edge)).toHaveLength(0);
  });

  it("adopting an identical record sends nothing", async () => {
    const { inputs } = await check({ type: s.type, name: s.name, ...s.value });
    const { id } = await call(T, "create", [inputs]);
    forgetClaims(); // as if made outside the program: no resource of this run holds it
    const before = writes();
    const adopted = await call(T, "create", [{ ...(await check({ type: s.type, name: s.name, ...s.respelled, adopt: true })).inputs }]);
    expect(adopted.id).toBe(id);
    expect(writes() - before).toBe(0);
  });

  it("refuses a bad value at check, naming the field", async () => {
    const { failures } = await check({ type: s.type, name: s.name, ...s.bad[0] });
    expect(failures.map((f: { reason: string }) => f.reason).join("; ")).toMatch(s.bad[1]);
    expect(edge.log.filter((l) => l.method !== "GET")).toHaveLength(0);
  });
});

describe("a record set of every type", () => {
  it("makes them all, reports no change for the same values respelled, and reads no drift", async () => {
    const recs = Object.fromEntries(SAMPLES.map((s) => [s.type, { type: s.type, name: s.name, ttl: 300, ...s.value }]));
    const { inputs, failures } = await call("edge:DnsRecordSet", "check", [{}, { zoneName: "example.com", records: recs }]);
    expect(failures).toEqual([]);
    const { id, outs } = await call("edge:DnsRecordSet", "create", [inputs]);
    expect(records(edge)).toHaveLength(SAMPLES.length);
    const respelled = Object.fromEntries(SAMPLES.map((s) => [s.type, { type: s.type, name: s.name, ttl: 300, ...s.respelled }]));
    const again = await call("edge:DnsRecordSet", "check", [{}, { zoneName: "example.com", records: respelled }]);
    expect((await call("edge:DnsRecordSet", "diff", [id, outs, again.inputs])).changes).toBe(false);
    expect((await call("edge:DnsRecordSet", "read", [id, outs])).inputs).toBeUndefined();
  });
});

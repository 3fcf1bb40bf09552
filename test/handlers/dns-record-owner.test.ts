/**
 * Whose a record is, where the zone's plan takes tags (paid plans): the owner's label rides in the record's tags
 * (`pulumi-ops-stack:<project>/<stack>`). Another stack's record is refused at preview and up naming it, this stack's
 * own (left behind) is taken back with nothing sent, ops:adoptFromStack takes one for a run and re-labels it, and a
 * destroy leaves a record another stack took over. On Free (a quota of 0 tags) nothing is labelled.
 */
import { describe, expect, it } from "vitest";
import { call, checkForEngine } from "../../provider/door";
import { forgetClaims } from "../../provider/claims";
import { forgetPreviewChecks } from "../../provider/preflight";
import { records, useEdge } from "../helpers/edge";

const edge = useEdge({ plans: { "example.com": "pro" } });
const T = "edge:DnsRecord";
const S = "edge:DnsRecordSet";
const PROD = "site/prod/mx";
const STAGING = "site/staging/mx";
const MX = { zoneName: "example.com", type: "MX", name: "@", content: "mx1.example.net", priority: 10 };

async function inStack(type: string, owner: string, args: Record<string, unknown>) {
  const { inputs, failures } = await call(type, "check", [{}, { ...args, __owner: owner }]);
  expect(failures).toEqual([]);
  return inputs;
}
const writes = () => edge.log.filter((e) => e.method !== "GET").length;
const withAdoptFromStack = async <T>(stack: string, f: () => Promise<T>): Promise<T> => {
  process.env.PULUMI_OPS_ADOPT_FROM_STACK = stack;
  try {
    return await f();
  } finally {
    delete process.env.PULUMI_OPS_ADOPT_FROM_STACK;
  }
};

describe("DnsRecord: the owner's label in the record's tags", () => {
  it("a record of a paid zone carries its stack's tag; of a Free zone, none (the service refuses tags there, 9300)", async () => {
    const made = await call(T, "create", [await inStack(T, PROD, MX)]);
    expect(records(edge).find((r) => r.id === made.id)!.tags).toEqual(["pulumi-ops-stack:site/prod"]);
    expect(made.outs.tags).toBeUndefined(); // the label is not the program's: no output, no drift
    expect((await call(T, "read", [made.id, made.outs])).inputs).toBeUndefined();
    const free = await call(T, "create", [await inStack(T, PROD, { ...MX, zoneName: "example.org" })]);
    expect(records(edge, "example.org").find((r) => r.id === free.id)!.tags).toEqual([]);
    const res = await fetch(`${edge.url}/client/v4/zones/${records(edge, "example.org")[0].zone_id}/dns_records`, {
      method: "POST",
      headers: { authorization: `Bearer ${process.env.EDGE_API_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ type: "TXT", name: "t", content: "x", tags: ["team:web"] }),
    });
    expect(((await res.json()) as any).errors).toEqual([{ code: 9300, message: "DNS record has 1 tags, exceeding the quota of 0." }]);
  });

  it("another stack's record is refused at preview and up naming it, even with adopt; its destroy leaves the record", async () => {
    const made = await call(T, "create", [await inStack(T, PROD, MX)]);
    forgetClaims();
    forgetPreviewChecks();
    const theirs = await inStack(T, STAGING, { ...MX, adopt: true });
    await expect(checkForEngine(T, {}, { ...MX, adopt: true, __owner: STAGING })).rejects.toThrow(
      /belongs to stack site\/prod \(its tag pulumi-ops-stack\).*ops:adoptFromStack/,
    );
    await expect(call(T, "create", [theirs])).rejects.toThrow(
      /the MX record example\.com in zone example\.com \(id \w+\) belongs to stack site\/prod/,
    );
    await call(T, "delete", [made.id, { ...made.outs, __owner: STAGING }]);
    expect(records(edge).map((r) => r.id)).toEqual([made.id]);
  });

  it("the stack's own record, left behind, is taken back with no switch and nothing sent", async () => {
    const made = await call(T, "create", [await inStack(T, PROD, MX)]);
    forgetClaims();
    forgetPreviewChecks();
    expect((await checkForEngine(T, {}, { ...MX, __owner: PROD })).failures).toEqual([]);
    edge.log.splice(0);
    const again = await call(T, "create", [await inStack(T, PROD, MX)]);
    expect(again.id).toBe(made.id);
    expect(edge.log.filter((e) => e.method !== "GET").map((e) => e.method)).toEqual(["POST"]); // the create the service refused (81058)
    expect(records(edge)).toHaveLength(1);
  });

  it("ops:adoptFromStack takes one for a run and re-labels it; the old owner's destroy then leaves it, the new owner's deletes it", async () => {
    const made = await call(T, "create", [await inStack(T, PROD, MX)]);
    forgetClaims();
    const taken = await withAdoptFromStack("site/prod", async () => call(T, "create", [await inStack(T, STAGING, { ...MX, adopt: true })]));
    expect(taken.id).toBe(made.id);
    expect(records(edge)[0].tags).toEqual(["pulumi-ops-stack:site/staging"]);
    forgetClaims(); // the destroys are later runs
    await call(T, "delete", [made.id, { ...made.outs, __owner: PROD }]);
    expect(records(edge)).toHaveLength(1);
    await call(T, "delete", [made.id, { ...made.outs, __owner: STAGING }]);
    expect(records(edge)).toHaveLength(0);
  });

  it("an adoption that writes anyway labels an unlabelled record (tags set elsewhere kept); one that writes nothing leaves it as it is", async () => {
    const zone = records(edge).length; // 0
    const plain = await call(T, "create", [await call(T, "check", [{}, { ...MX, ttl: 300 }]).then((c) => c.inputs)]); // no owner: unlabelled
    expect(records(edge)[zone].tags).toEqual([]);
    edge.zones.get(records(edge)[0].zone_id)!.records.get(plain.id)!.tags = ["team:mail"];
    forgetClaims();
    edge.log.splice(0);
    await call(T, "create", [await inStack(T, PROD, { ...MX, ttl: 300, adopt: true })]);
    expect(writes()).toBe(0);
    expect(records(edge)[0].tags).toEqual(["team:mail"]);
    forgetClaims();
    await call(T, "create", [await inStack(T, PROD, { ...MX, ttl: 600, adopt: true })]);
    expect(records(edge)[0]).toMatchObject({ ttl: 600, tags: ["team:mail", "pulumi-ops-stack:site/prod"] });
  });
});

describe("DnsRecordSet: the same labels, per record", () => {
  const SET = {
    zoneName: "example.com",
    records: { a: { type: "A", name: "rr", content: "203.0.113.1" }, b: { type: "A", name: "rr", content: "203.0.113.2" } },
  };

  it("records it makes carry the tag; another stack's set is refused naming it and its destroy leaves them; the stack's own set takes them back", async () => {
    const made = await call(S, "create", [await inStack(S, "site/prod/rr", SET)]);
    expect(records(edge).map((r) => r.tags)).toEqual([["pulumi-ops-stack:site/prod"], ["pulumi-ops-stack:site/prod"]]);
    forgetClaims();
    await expect(call(S, "create", [await inStack(S, "site/staging/rr", { ...SET, adopt: true })])).rejects.toThrow(
      /records\.a: the A record rr\.example\.com in zone example\.com \(id \w+\) belongs to stack site\/prod/,
    );
    await call(S, "delete", [made.id, { ...made.outs, __owner: "site/staging/rr" }]);
    expect(records(edge)).toHaveLength(2);
    forgetClaims();
    edge.log.splice(0);
    const again = await call(S, "create", [await inStack(S, "site/prod/rr", SET)]);
    expect(Object.values(again.outs.ids).sort()).toEqual(Object.values(made.outs.ids).sort());
    expect(writes()).toBe(0);
    forgetClaims(); // the destroy is a later run
    await call(S, "delete", [again.id, { ...again.outs, __owner: "site/prod/rr" }]);
    expect(records(edge)).toHaveLength(0);
  });

  it("a key removed from the set whose record another stack took over is left to it, not deleted", async () => {
    const made = await call(S, "create", [await inStack(S, "site/prod/rr", SET)]);
    const taken = made.outs.ids.b;
    edge.zones.get(records(edge)[0].zone_id)!.records.get(taken)!.tags = ["pulumi-ops-stack:site/staging"];
    forgetClaims(); // the next run
    const fewer = await inStack(S, "site/prod/rr", { ...SET, records: { a: SET.records.a } });
    const updated = await call(S, "update", [made.id, made.outs, fewer]);
    expect(
      records(edge)
        .map((r) => r.id)
        .sort(),
    ).toEqual(Object.values(made.outs.ids).sort());
    expect(Object.keys(updated.outs.ids)).toEqual(["a"]);
  });
});

/**
 * `ops.edge.KvNamespace` against the edge emulator (issue 61, item 1): made by title, read back without drift, a
 * title changed on the service found by refresh and renamed back in place, a lost create answer found by title
 * (never two), a title made elsewhere refused at preview unless adopted (then taken with nothing written), a
 * replacement said at preview as the loss of its data, and destroy deleting it.
 */
import { describe, expect, it } from "vitest";
import { forgetClaims } from "../../provider/claims";
import { call } from "../../provider/door";
import { forgetPreviewChecks, previewCheck } from "../../provider/preflight";
import { DEMO_ACCOUNT } from "../../emulators";
import { useEdge } from "../helpers/edge";

const edge = useEdge();
const T = "edge:KvNamespace";
const writes = () => edge.log.filter((e) => e.method !== "GET" && !e.path.startsWith("/__")).map((e) => e.method);

async function make(args: Record<string, unknown>) {
  const { inputs, failures } = await call(T, "check", [{}, args]);
  expect(failures).toEqual([]);
  return { inputs, ...(await call(T, "create", [inputs])) };
}

describe("KvNamespace", () => {
  it("is made by title, read back without drift, renamed in place, and deleted by destroy", async () => {
    const ns = await make({ title: "bakery-sessions" });
    const id = ns.outs.namespaceId;
    expect(ns.id).toBe(`${DEMO_ACCOUNT}/${id}`);
    expect(edge.namespaces.get(id)!.title).toBe("bakery-sessions");
    const read = await call(T, "read", [ns.id, ns.outs]);
    expect(await call(T, "diff", [ns.id, read.props, ns.inputs])).toMatchObject({ changes: false });
    // A new title: a rename in place (the id and data stay).
    edge.namespaces.get(id)!.values.set("visits", "42");
    const renamed = { ...ns.inputs, title: "bakery-sessions-v2" };
    expect(await call(T, "diff", [ns.id, ns.outs, renamed])).toMatchObject({ changes: true, replaces: [] });
    const updated = await call(T, "update", [ns.id, ns.outs, renamed]);
    expect(updated.outs.namespaceId).toBe(id);
    expect(edge.namespaces.get(id)).toMatchObject({ title: "bakery-sessions-v2" });
    expect(edge.namespaces.get(id)!.values.get("visits")).toBe("42");
    await call(T, "delete", [ns.id, updated.outs]);
    expect(edge.namespaces.size).toBe(0);
    await call(T, "delete", [ns.id, updated.outs]); // gone already: nothing to do
  });

  it("a title changed on the service is found by refresh, and put back by the next up", async () => {
    const ns = await make({ title: "menu-cache" });
    edge.namespaces.get(ns.outs.namespaceId)!.title = "renamed-by-hand";
    const read = await call(T, "read", [ns.id, ns.outs]);
    expect(read.props.title).toBe("renamed-by-hand");
    expect(read.inputs).toMatchObject({ title: "renamed-by-hand" });
    expect(await call(T, "diff", [ns.id, read.props, ns.inputs])).toMatchObject({ changes: true, replaces: [] });
    await call(T, "update", [ns.id, read.props, ns.inputs]);
    expect(edge.namespaces.get(ns.outs.namespaceId)!.title).toBe("menu-cache");
  });

  it("a lost create answer is found by title: one namespace, not two", async () => {
    edge.inject({ match: { method: "POST", path: "/storage/kv/namespaces$" }, count: 1, kind: "status-after", status: 502 });
    const ns = await make({ title: "orders" });
    expect([...edge.namespaces.values()].map((n) => n.title)).toEqual(["orders"]);
    expect(ns.outs.namespaceId).toBe([...edge.namespaces.keys()][0]);
  });

  it("a title the account has already is refused at preview naming its id; with adopt it is taken, nothing written", async () => {
    const other = await make({ title: "shared" });
    forgetPreviewChecks();
    const { inputs } = await call(T, "check", [{}, { title: "shared" }]);
    await expect(previewCheck(T, undefined, inputs, {})).rejects.toThrow(
      new RegExp(`KV namespace titled "shared" already \\(id ${other.outs.namespaceId}\\).*adopt: true`),
    );
    // The stack's own namespace (its inputs in state) previews without a word; renamed onto the other's title, refused.
    forgetPreviewChecks();
    await previewCheck(T, undefined, inputs, other.inputs);
    const mine = await make({ title: "mine" });
    forgetPreviewChecks();
    await expect(previewCheck(T, undefined, { ...mine.inputs, title: "shared" }, mine.inputs)).rejects.toThrow(
      /"mine" cannot be renamed "shared": the account has a namespace of that title already.*Choose another title/,
    );
    forgetPreviewChecks();
    edge.log.splice(0);
    const adopted = await make({ title: "shared", adopt: true });
    expect(adopted.outs.namespaceId).toBe(other.outs.namespaceId);
    expect(writes()).toEqual([]);
    // In another jurisdiction than the program says (another run: the first took it in this one): refused, since a
    // jurisdiction is set only when a namespace is made.
    forgetClaims();
    await expect(make({ title: "shared", adopt: true, jurisdiction: "eu" })).rejects.toThrow(/default jurisdiction, not eu/);
  });

  it("a new jurisdiction replaces it, said at preview as the loss of its keys; bad input refused at check", async () => {
    const ns = await make({ title: "eu-data", jurisdiction: "eu" });
    expect(edge.namespaces.get(ns.outs.namespaceId)!.jurisdiction).toBe("eu");
    expect(await call(T, "diff", [ns.id, ns.outs, { ...ns.inputs, jurisdiction: "us" }])).toMatchObject({ replaces: ["jurisdiction"] });
    const failures = async (args: Record<string, unknown>) => (await call(T, "check", [{}, args])).failures;
    expect(await failures({ title: "" })).toEqual([
      expect.objectContaining({ property: "title", reason: expect.stringMatching(/not be empty/) }),
    ]);
    expect(await failures({ title: "x", jurisdiction: "asia" })).toEqual([
      expect.objectContaining({ property: "jurisdiction", reason: expect.stringMatching(/one of eu, fedramp, us/) }),
    ]);
  });

  it("a replacement that keeps the title deletes first; one taken over in another jurisdiction, with none given, stays", async () => {
    const ns = await make({ title: "keep", jurisdiction: "eu" });
    expect(await call(T, "diff", [ns.id, ns.outs, { ...ns.inputs, jurisdiction: "us" }])).toMatchObject({
      replaces: ["jurisdiction"],
      deleteBeforeReplace: true,
    });
    forgetClaims();
    const adopted = await make({ title: "keep", adopt: true }); // the program gives no jurisdiction
    expect(adopted.outs.jurisdiction).toBe("eu");
    expect(await call(T, "diff", [adopted.id, adopted.outs, adopted.inputs])).toMatchObject({ changes: false });
  });
});

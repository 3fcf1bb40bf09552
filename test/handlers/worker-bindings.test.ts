/**
 * A WorkerScript's bindings to storage and services (issue 61, item 1): sent in the upload's metadata as the service
 * takes them, read back from the script's settings without drift, merged with bindings made elsewhere as variables
 * are, a binding changed on the service found by refresh and put back, a name taken refused at check (within the
 * program) and at preview (on the script, as another kind), and the script reading a KV value through its binding
 * when the emulator serves its route.
 */
import { describe, expect, it } from "vitest";
import { DEMO_ACCOUNT } from "../../emulators";
import { call } from "../../provider/door";
import { forgetPreviewChecks, previewCheck } from "../../provider/preflight";
import { useEdge, zoneId } from "../helpers/edge";

const edge = useEdge();
const T = "edge:WorkerScript";
const READS_KV = `export default {
  async fetch(request, env) {
    const greeting = await env.SESSIONS.get("greeting");
    return new Response(\`\${env.GREETING}: \${greeting}\`);
  },
};
`;

async function make(type: string, args: Record<string, unknown>) {
  const { inputs, failures } = await call(type, "check", [{}, args]);
  expect(failures).toEqual([]);
  return { inputs, ...(await call(type, "create", [inputs])) };
}
const namespace = async (title: string) => (await make("edge:KvNamespace", { title })).outs.namespaceId as string;
const sent = () => edge.scripts.get("site")!.bindings.map((b) => [b.name, b.type]);

describe("a WorkerScript's bindings", () => {
  it("a KV binding goes in the upload, reads back without drift, and the script reads its value on its route", async () => {
    const id = await namespace("sessions");
    edge.namespaces.get(id)!.values.set("greeting", "fresh bread at 7");
    const r = await make(T, {
      name: "site",
      content: READS_KV,
      vars: { GREETING: "hello" },
      bindings: [{ name: "SESSIONS", type: "kv_namespace", namespaceId: id }],
    });
    expect(edge.scripts.get("site")!.bindings).toContainEqual({ type: "kv_namespace", name: "SESSIONS", namespace_id: id });
    expect(r.outs.bindings).toEqual([{ name: "SESSIONS", type: "kv_namespace", namespaceId: id }]);
    const read = await call(T, "read", [r.id, r.outs]);
    expect(read.inputs).toBeUndefined();
    expect((await call(T, "diff", [r.id, read.props, r.inputs])).changes).toBe(false);
    await make("edge:WorkerRoute", { zoneName: "example.com", pattern: "example.com/app/*", script: "site" });
    expect(await edge.serve("https://example.com/app/")).toMatchObject({ status: 200, body: "hello: fresh bread at 7", script: "site" });
    expect(zoneId(edge)).toBeTruthy();
  });

  it("bindings made elsewhere are kept, of the same kind too; a binding changed on the service is found and put back", async () => {
    const mine = await namespace("mine");
    const theirs = await namespace("theirs");
    const db = async (name: string) => (await make("edge:D1Database", { name })).outs.databaseId as string;
    const [db1, db2] = [await db("orders-1"), await db("orders-2")];
    const r = await make(T, { name: "site", content: READS_KV, bindings: [{ name: "SESSIONS", type: "kv_namespace", namespaceId: mine }] });
    // The dashboard adds a KV binding and a D1 one.
    const s = edge.scripts.get("site")!;
    s.bindings.push({ type: "kv_namespace", name: "CACHE", namespace_id: theirs }, { type: "d1", name: "DB", id: db1 });
    // The program adds a D1 binding of its own: every binding made elsewhere stays, of the same kinds too.
    const more = [
      { name: "SESSIONS", type: "kv_namespace", namespaceId: mine },
      { name: "ORDERS", type: "d1", databaseId: db2 },
    ];
    const news = (await call(T, "check", [r.outs, { name: "site", content: READS_KV, bindings: more }])).inputs;
    expect((await call(T, "diff", [r.id, r.outs, news])).changes).toBe(true);
    const up = await call(T, "update", [r.id, r.outs, news]);
    expect(sent().sort()).toEqual([
      ["CACHE", "kv_namespace"],
      ["DB", "d1"],
      ["ORDERS", "d1"],
      ["SESSIONS", "kv_namespace"],
    ]);
    // The namespace of SESSIONS changed in the dashboard: refresh finds it, up puts it back, CACHE and DB left.
    edge.scripts.get("site")!.bindings.find((b) => b.name === "SESSIONS")!.namespace_id = theirs; // (the upload stored anew)
    const read = await call(T, "read", [r.id, up.outs]);
    expect(read.inputs?.bindings).toContainEqual({ name: "SESSIONS", type: "kv_namespace", namespaceId: theirs });
    expect((await call(T, "diff", [r.id, read.props, news])).changes).toBe(true);
    await call(T, "update", [r.id, read.props, news]);
    expect(edge.scripts.get("site")!.bindings.find((b) => b.name === "SESSIONS")!.namespace_id).toBe(mine);
    expect(sent().sort()).toHaveLength(4);
    // A binding removed from the program is removed from the script; those made elsewhere stay.
    const fewer = (await call(T, "check", [up.outs, { name: "site", content: READS_KV, bindings: more.slice(0, 1) }])).inputs;
    await call(T, "update", [r.id, { ...up.outs, bindings: more }, fewer]);
    expect(
      sent()
        .map(([n]) => n)
        .sort(),
    ).toEqual(["CACHE", "DB", "SESSIONS"]);
  });

  it("a name given twice is refused at check; one the script has as another kind, made elsewhere, at preview", async () => {
    const failures = async (args: Record<string, unknown>) =>
      (await call(T, "check", [{}, { name: "site", content: READS_KV, ...args }])).failures;
    expect(await failures({ vars: { DB: "x" }, bindings: [{ name: "DB", type: "d1", databaseId: "u" }] })).toEqual([
      expect.objectContaining({ property: "bindings[0].name", reason: expect.stringMatching(/DB is the name of a variable too/) }),
    ]);
    expect(await failures({ bindings: [{ name: "S", type: "kv_namespace" }] })).toEqual([
      expect.objectContaining({ property: "bindings.0.namespaceId", reason: expect.stringMatching(/needs namespaceId/) }),
    ]);
    expect(await failures({ bindings: [{ name: "S", type: "kv_namespace", namespaceId: "n", bucketName: "b" }] })).toEqual([
      expect.objectContaining({
        property: "bindings.0.bucketName",
        reason: expect.stringMatching(/not a field of a kv_namespace binding/),
      }),
    ]);
    const id = await namespace("sessions");
    const r = await make(T, { name: "site", content: READS_KV });
    edge.scripts.get("site")!.bindings.push({ type: "r2_bucket", name: "SESSIONS", bucket_name: "sessions" });
    const { inputs } = await call(T, "check", [
      r.outs,
      { name: "site", content: READS_KV, bindings: [{ name: "SESSIONS", type: "kv_namespace", namespaceId: id }] },
    ]);
    forgetPreviewChecks();
    await expect(previewCheck(T, undefined, inputs, r.inputs)).rejects.toThrow(
      /the script site has a r2_bucket binding named SESSIONS already \(made elsewhere\).*Give this binding another name/,
    );
    forgetPreviewChecks();
  });

  it("a binding to a KV namespace the account does not have is the service's refusal, in one line", async () => {
    const { inputs } = await call(T, "check", [
      {},
      { name: "site", content: READS_KV, bindings: [{ name: "S", type: "kv_namespace", namespaceId: "0".repeat(32) }] },
    ]);
    await expect(call(T, "create", [inputs])).rejects.toThrow(/10041.*No KV namespace found with ID 0{32}/);
    expect(DEMO_ACCOUNT).toBeTruthy();
  });

  it("a variable moved into bindings goes once, as the binding; an R2 binding in the default jurisdiction is sent without one", async () => {
    const { bindingsFor } = await import("../../provider/edge/worker-script/upload");
    const current = [
      { type: "plain_text", name: "GREETING", text: "hello" },
      { type: "plain_text", name: "OTHER", text: "kept" },
    ];
    const r = { bindings: [{ name: "GREETING", type: "r2_bucket", bucketName: "files", jurisdiction: "default" }] };
    const { bindings, keep } = bindingsFor(r, current, ["GREETING"]);
    expect(bindings).toEqual([
      { type: "plain_text", name: "OTHER", text: "kept" },
      { type: "r2_bucket", name: "GREETING", bucket_name: "files" },
    ]);
    expect(keep).toEqual(["secret_text", "secret_key"]);
  });

  it("the platform's services a binding needs nothing made for (AI, Analytics Engine, version metadata, email) go in the upload and read back without drift", async () => {
    const platform = [
      { name: "AI", type: "ai" },
      { name: "EVENTS", type: "analytics_engine", dataset: "bakery_events" },
      { name: "VERSION", type: "version_metadata" },
      { name: "MAIL", type: "send_email", destinationAddress: "orders@example.com" },
    ];
    const r = await make(T, { name: "site", content: READS_KV, bindings: platform });
    expect(edge.scripts.get("site")!.bindings).toEqual([
      { type: "ai", name: "AI" },
      { type: "analytics_engine", name: "EVENTS", dataset: "bakery_events" },
      { type: "version_metadata", name: "VERSION" },
      { type: "send_email", name: "MAIL", destination_address: "orders@example.com" },
    ]);
    const read = await call(T, "read", [r.id, r.outs]);
    expect(read.inputs).toBeUndefined();
    expect((await call(T, "diff", [r.id, read.props, r.inputs])).changes).toBe(false);
    const { failures } = await call(T, "check", [
      {},
      { name: "site", content: READS_KV, bindings: [{ name: "AI", type: "ai", dataset: "x" }] },
    ]);
    expect(failures).toEqual([
      expect.objectContaining({ property: "bindings.0.dataset", reason: expect.stringMatching(/not a field of a ai binding/) }),
    ]);
  });
});

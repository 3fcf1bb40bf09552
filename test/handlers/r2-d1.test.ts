/**
 * `ops.edge.R2Bucket` and `ops.edge.D1Database` against the edge emulator (issue 61, item 1): made by name, read
 * back without drift, a lost create found by name (never two), a name held already refused at preview unless
 * adopted (taken with nothing written), a bucket's storage class changed on the service found and put back in place,
 * a bucket with objects not deleted (the service's refusal in one line, with what to do), a database's new name
 * said at preview as the loss of its data; and a Worker reading an object and a row through its bindings.
 */
import { describe, expect, it } from "vitest";
import { call } from "../../provider/door";
import { forgetPreviewChecks, previewCheck } from "../../provider/preflight";
import { DEMO_ACCOUNT } from "../../emulators";
import { useEdge } from "../helpers/edge";

const edge = useEdge();
const R2 = "edge:R2Bucket";
const D1 = "edge:D1Database";
const writes = () => edge.log.filter((e) => e.method !== "GET" && !e.path.startsWith("/__")).map((e) => `${e.method} ${e.path}`);

async function make(type: string, args: Record<string, unknown>) {
  const { inputs, failures } = await call(type, "check", [{}, args]);
  expect(failures).toEqual([]);
  return { inputs, ...(await call(type, "create", [inputs])) };
}

describe("R2Bucket", () => {
  it("is made by name, reads back without drift; its storage class changed on the service is found and put back in place", async () => {
    const b = await make(R2, { name: "bakery-photos", locationHint: "weur", storageClass: "Standard" });
    expect(b.id).toBe(`${DEMO_ACCOUNT}/default/bakery-photos`);
    expect(b.outs).toMatchObject({ location: "weur", storageClass: "Standard", jurisdiction: "default" });
    const read = await call(R2, "read", [b.id, b.outs]);
    expect(read.inputs).toBeUndefined();
    expect(await call(R2, "diff", [b.id, read.props, b.inputs])).toMatchObject({ changes: false });
    edge.buckets.get("default/bakery-photos")!.storage_class = "InfrequentAccess";
    const drifted = await call(R2, "read", [b.id, b.outs]);
    expect(drifted.inputs).toMatchObject({ storageClass: "InfrequentAccess" });
    expect(await call(R2, "diff", [b.id, drifted.props, b.inputs])).toMatchObject({ changes: true, replaces: [] });
    await call(R2, "update", [b.id, drifted.props, b.inputs]);
    expect(edge.buckets.get("default/bakery-photos")!.storage_class).toBe("Standard");
    expect(await call(R2, "diff", [b.id, b.outs, { ...b.inputs, locationHint: "apac" }])).toMatchObject({ replaces: ["locationHint"] });
  });

  it("a bucket that holds objects is not deleted: the service's refusal in one line, with what to do; an empty one is", async () => {
    const b = await make(R2, { name: "bakery-photos", jurisdiction: "eu" });
    edge.buckets.get("eu/bakery-photos")!.objects.set("loaf.jpg", "jpeg bytes");
    await expect(call(R2, "delete", [b.id, b.outs])).rejects.toThrow(/10008.*is not empty.*Empty the bucket first/);
    edge.buckets.get("eu/bakery-photos")!.objects.clear();
    await call(R2, "delete", [b.id, b.outs]);
    expect(edge.buckets.size).toBe(0);
  });

  it("a lost create is found by name; a name held already is refused at preview, and adopted with nothing written", async () => {
    edge.inject({ match: { method: "POST", path: "/r2/buckets$" }, count: 1, kind: "status-after", status: 502 });
    await make(R2, { name: "orders" });
    expect([...edge.buckets.keys()]).toEqual(["default/orders"]);
    forgetPreviewChecks();
    const { inputs } = await call(R2, "check", [{}, { name: "orders" }]);
    await expect(previewCheck(R2, undefined, inputs, {})).rejects.toThrow(/R2 bucket named orders already.*adopt: true/);
    forgetPreviewChecks();
    edge.log.splice(0);
    await make(R2, { name: "orders", adopt: true });
    expect(writes()).toEqual([]);
  });
});

describe("D1Database", () => {
  it("is made by name, read back by id; a new name is a replacement said at preview as the loss of its data; destroy deletes it", async () => {
    const d = await make(D1, { name: "bakery-orders", primaryLocationHint: "weur" });
    expect(d.id).toBe(`${DEMO_ACCOUNT}/${d.outs.databaseId}`);
    expect(d.outs.databaseId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-/);
    const read = await call(D1, "read", [d.id, d.outs]);
    expect(await call(D1, "diff", [d.id, read.props, d.inputs])).toMatchObject({ changes: false });
    expect(await call(D1, "diff", [d.id, d.outs, { ...d.inputs, name: "orders-v2" }])).toMatchObject({ replaces: ["name"] });
    await call(D1, "delete", [d.id, d.outs]);
    expect(edge.databases.size).toBe(0);
    expect(await call(D1, "read", [d.id, d.outs])).toEqual({});
  });

  it("a lost create is found by name; a name held already is refused at preview naming its id, and adopted with nothing written", async () => {
    edge.inject({ match: { method: "POST", path: "/d1/database$" }, count: 1, kind: "status-after", status: 502 });
    const d = await make(D1, { name: "orders" });
    expect(edge.databases.size).toBe(1);
    forgetPreviewChecks();
    const { inputs } = await call(D1, "check", [{}, { name: "orders" }]);
    await expect(previewCheck(D1, undefined, inputs, {})).rejects.toThrow(
      new RegExp(`D1 database named orders already \\(id ${d.outs.databaseId}\\).*adopt: true`),
    );
    forgetPreviewChecks();
    edge.log.splice(0);
    expect((await make(D1, { name: "orders", adopt: true })).outs.databaseId).toBe(d.outs.databaseId);
    expect(writes()).toEqual([]);
  });
});

describe("a Worker's R2 and D1 bindings", () => {
  it("the script reads an object and a row through its bindings when the emulator serves its route", async () => {
    const b = await make(R2, { name: "bakery-photos" });
    const d = await make(D1, { name: "bakery-orders" });
    edge.buckets.get("default/bakery-photos")!.objects.set("menu.txt", "rye, spelt, brioche");
    edge.databases
      .get(d.outs.databaseId)!
      .db.exec("create table orders (id integer, item text); insert into orders values (7, 'two ryes');");
    const content = `export default {
  async fetch(request, env) {
    const menu = await (await env.PHOTOS.get("menu.txt")).text();
    const order = await env.ORDERS.prepare("select item from orders where id = ?").bind(7).first("item");
    return new Response(menu + " / " + order);
  },
};
`;
    await make("edge:WorkerScript", {
      name: "site",
      content,
      bindings: [
        { name: "PHOTOS", type: "r2_bucket", bucketName: b.outs.name },
        { name: "ORDERS", type: "d1", databaseId: d.outs.databaseId },
      ],
    });
    await make("edge:WorkerRoute", { zoneName: "example.com", pattern: "example.com/app/*", script: "site" });
    expect(await edge.serve("https://example.com/app/")).toMatchObject({ status: 200, body: "rye, spelt, brioche / two ryes" });
  });

  describe("replacements and imports", () => {
    it("a replacement that keeps the name deletes first; a hint the state lacks (an import) is no replacement", async () => {
      const b = await make(R2, { name: "keep-bucket", locationHint: "weur" });
      expect(await call(R2, "diff", [b.id, b.outs, { ...b.inputs, locationHint: "apac" }])).toMatchObject({ deleteBeforeReplace: true });
      const { locationHint: _l, ...imported } = b.outs;
      expect(await call(R2, "diff", [b.id, imported, b.inputs])).toMatchObject({ changes: false });
      const d = await make(D1, { name: "keep-db", primaryLocationHint: "weur" });
      expect(await call(D1, "diff", [d.id, d.outs, { ...d.inputs, primaryLocationHint: "apac" }])).toMatchObject({
        replaces: ["primaryLocationHint"],
        deleteBeforeReplace: true,
      });
      const { primaryLocationHint: _p, ...importedDb } = d.outs;
      expect(await call(D1, "diff", [d.id, importedDb, d.inputs])).toMatchObject({ changes: false });
      // Only adopt changed: an update in place, which sends nothing.
      expect(await call(D1, "diff", [d.id, d.outs, { ...d.inputs, adopt: true }])).toMatchObject({ changes: true, replaces: [] });
    });
  });
});

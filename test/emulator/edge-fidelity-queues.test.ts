/**
 * The edge emulator's Queues API and Durable Object migrations held to the official `cloudflare` SDK (issue 61):
 * queues made, listed, read, pulled and deleted through its `queues`, a Worker's queue binding sending to one, and a
 * script's migration tag as its `workers.scripts.list` reads it, with the service's refusals (11000, 11003, 11005,
 * 11009, 10061, 10074, 10079).
 */
import Cloudflare from "cloudflare";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_ACCOUNT, DEMO_TOKEN, EdgeEmulator } from "../../emulators";
import { startEdge } from "../helpers/edge";

let edge: EdgeEmulator;
let cf: Cloudflare;
beforeAll(async () => {
  edge = await startEdge();
  cf = new Cloudflare({ apiToken: DEMO_TOKEN, baseURL: `${edge.url}/client/v4`, maxRetries: 0 });
});
afterAll(() => edge.stop());

describe("edge emulator's queues and Durable Object migrations with the official cloudflare SDK", () => {
  it("queues through the SDK's queues (create, list, get, a name taken is 11009, pull, delete) and a script's Durable Object migrations, its tag in the SDK's script list", async () => {
    const q = await cf.queues.create({ account_id: DEMO_ACCOUNT, queue_name: "orders" });
    expect(q).toMatchObject({ queue_name: "orders", producers_total_count: 0 });
    expect((await cf.queues.list({ account_id: DEMO_ACCOUNT })).result.map((x) => x.queue_name)).toEqual(["orders"]);
    expect(await cf.queues.get(q.queue_id!, { account_id: DEMO_ACCOUNT })).toMatchObject({ queue_name: "orders" });
    const taken = await cf.queues.create({ account_id: DEMO_ACCOUNT, queue_name: "orders" }).catch((e) => e);
    expect(taken.errors[0].code).toBe(11009);
    const bad = await cf.queues.create({ account_id: DEMO_ACCOUNT, queue_name: "-orders" }).catch((e) => e);
    expect(bad.errors[0].code).toBe(11003);
    // A Worker sends to it through its queue binding; the SDK's pull takes the message.
    const { upload } = await import("../../provider/edge/worker-script/upload");
    const put = async (name: string, source: string, bindings: object[], migrations?: object) => {
      const body = await upload({ compatibilityDate: "2025-01-01" }, source, [], { bindings: bindings as never, keep: [] }, migrations);
      return fetch(`${edge.url}/client/v4/accounts/${DEMO_ACCOUNT}/workers/scripts/${name}`, {
        method: "PUT",
        headers: { authorization: `Bearer ${DEMO_TOKEN}`, "content-type": body.contentType },
        body: body.body,
      }).then((r) => r.json() as Promise<any>);
    };
    const sender = "export default { async fetch(req, env) { await env.ORDERS.send({ item: 'rye' }); return new Response('sent') } }";
    expect((await put("sender", sender, [{ type: "queue", name: "ORDERS", queue_name: "missing" }])).errors[0].code).toBe(11000);
    expect((await put("sender", sender, [{ type: "queue", name: "ORDERS", queue_name: "orders" }])).success).toBe(true);
    await cf.workers.scripts.subdomain.create("sender", { account_id: DEMO_ACCOUNT, enabled: true });
    expect((await edge.serve("https://sender.demo.workers.dev/")).body).toBe("sent");
    const pulled = await cf.queues.messages.pull(q.queue_id!, { account_id: DEMO_ACCOUNT, batch_size: 10 });
    expect(pulled.messages?.map((m) => JSON.parse(m.body as string))).toEqual([{ item: "rye" }]);
    expect((await cf.queues.get(q.queue_id!, { account_id: DEMO_ACCOUNT })).producers).toEqual([{ type: "worker", script: "sender" }]);
    expect((await cf.queues.delete(q.queue_id!, { account_id: DEMO_ACCOUNT }).catch((e) => e)).errors[0].code).toBe(11005);

    // Durable Objects: a binding to a class no migration made is 10061; the migration that makes it sets the tag.
    const counter =
      "export class Counter { constructor(state) { this.state = state } async fetch() { return new Response('1') } }\nexport default { fetch() { return new Response('ok') } }";
    const binding = [{ type: "durable_object_namespace", name: "COUNTER", class_name: "Counter" }];
    expect((await put("counter", counter, binding)).errors[0].code).toBe(10061);
    const made = await put("counter", counter, binding, { new_tag: "v1", steps: [{ new_sqlite_classes: ["Counter"] }] });
    expect(made.result.migration_tag).toBe("v1");
    const listed = [];
    for await (const s of cf.workers.scripts.list({ account_id: DEMO_ACCOUNT })) listed.push(s);
    expect(listed.find((s) => s.id === "counter")?.migration_tag).toBe("v1");
    // The next upload names the tag it starts from: another is 10079; making the class again is 10074.
    expect(
      (await put("counter", counter, binding, { old_tag: "v0", new_tag: "v2", steps: [{ new_classes: ["Other"] }] })).errors[0].code,
    ).toBe(10079);
    expect(
      (await put("counter", counter, binding, { old_tag: "v1", new_tag: "v2", steps: [{ new_classes: ["Counter"] }] })).errors[0].code,
    ).toBe(10074);
    // Deleting the class while a binding names it is 10061.
    expect(
      (await put("counter", counter, binding, { old_tag: "v1", new_tag: "v2", steps: [{ deleted_classes: ["Counter"] }] })).errors[0].code,
    ).toBe(10061);
  });
});

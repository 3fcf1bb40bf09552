/**
 * A WorkerScript's Durable Objects, service and queue bindings (issue 61, item 1): a class made a Durable Object by
 * the program's migration and reached through its binding when the emulator serves the route (one instance per id,
 * its storage kept between requests); the next up sends only the steps after the script's tag; a tag moved out of
 * band found by refresh; a class deletion said at preview; a binding to a class, a Worker or a queue the account
 * lacks refused by the service in one line; a service binding's fetch and a queue producer's send run.
 */
import { describe, expect, it } from "vitest";
import { call } from "../../provider/door";
import { forgetPreviewChecks, previewCheck } from "../../provider/preflight";
import { collectWarnings, forgetShownWarnings } from "../../provider/log";
import { useEdge } from "../helpers/edge";

const edge = useEdge();
const T = "edge:WorkerScript";
const COUNTER = `export class Counter {
  constructor(state) { this.state = state; }
  async fetch() {
    const n = ((await this.state.storage.get("n")) ?? 0) + 1;
    await this.state.storage.put("n", n);
    return new Response(String(n));
  }
}
export default {
  async fetch(request, env) {
    const who = new URL(request.url).searchParams.get("who") ?? "all";
    return env.VISITS.get(env.VISITS.idFromName(who)).fetch(request);
  },
};
`;
const V1 = [{ tag: "v1", newSqliteClasses: ["Counter"] }];
const DO = [{ name: "VISITS", type: "durable_object_namespace", className: "Counter" }];

async function make(type: string, args: Record<string, unknown>) {
  const { inputs, failures } = await call(type, "check", [{}, args]);
  expect(failures).toEqual([]);
  return { inputs, ...(await call(type, "create", [inputs])) };
}
const served = async (path: string) => (await edge.serve(`https://example.com${path}`)).body;

describe("a WorkerScript's Durable Objects, service and queue bindings", () => {
  it("a migration makes the class a Durable Object its binding reaches, one instance per id; read back without drift", async () => {
    const r = await make(T, { name: "visits", content: COUNTER, bindings: DO, migrations: V1 });
    expect(edge.scripts.get("visits")).toMatchObject({ migration_tag: "v1", durable_classes: [{ name: "Counter", sqlite: true }] });
    expect(r.outs).toMatchObject({ migrations: V1, migrationTag: "v1" });
    await make("edge:WorkerRoute", { zoneName: "example.com", pattern: "example.com/visits*", script: "visits" });
    expect([await served("/visits?who=ana"), await served("/visits?who=ana"), await served("/visits?who=bo")]).toEqual(["1", "2", "1"]);
    const read = await call(T, "read", [r.id, r.outs]);
    expect(read.inputs).toBeUndefined();
    expect((await call(T, "diff", [r.id, read.props, r.inputs])).changes).toBe(false);
  });

  it("the next up sends only the steps after the script's tag; a tag moved elsewhere is found by refresh; a deletion is said at preview", async () => {
    const r = await make(T, { name: "visits", content: COUNTER, bindings: DO, migrations: V1 });
    const v2 = [...V1, { tag: "v2", newClasses: ["Audit"] }];
    const news = (
      await call(T, "check", [
        r.outs,
        {
          name: "visits",
          content: COUNTER.replace("export default", "export class Audit {}\nexport default"),
          bindings: DO,
          migrations: v2,
        },
      ])
    ).inputs;
    expect((await call(T, "diff", [r.id, r.outs, news])).changes).toBe(true);
    const up = await call(T, "update", [r.id, r.outs, news]);
    expect(edge.scripts.get("visits")).toMatchObject({ migration_tag: "v2" });
    expect(edge.scripts.get("visits")!.durable_classes.map((c) => c.name)).toEqual(["Counter", "Audit"]);
    expect(up.outs.migrationTag).toBe("v2");
    // Nothing more to apply: no change.
    expect((await call(T, "diff", [r.id, up.outs, news])).changes).toBe(false);
    // Another tool applies a step v3 the program does not have: refresh reads the tag, the program's v2 is a change;
    // the preview says what to do, and up sends every step again (as wrangler does), which the service refuses.
    edge.scripts.get("visits")!.migration_tag = "v3";
    const read = await call(T, "read", [r.id, up.outs]);
    expect(read.props.migrationTag).toBe("v3");
    expect(read.inputs).toBeDefined();
    expect((await call(T, "diff", [r.id, read.props, news])).changes).toBe(true);
    forgetPreviewChecks();
    forgetShownWarnings();
    const moved = collectWarnings(() => previewCheck(T, undefined, news, read.props));
    await moved.result;
    expect(moved.warnings.join("\n")).toMatch(
      /has the Durable Object migration tag v3, which is not among the program's migrations.*add the steps applied elsewhere, up to v3/,
    );
    await expect(call(T, "update", [r.id, read.props, news])).rejects.toThrow(/10074.*class 'Counter'/);
    // A step that deletes a class: the preview says its objects' storage is lost.
    edge.scripts.get("visits")!.migration_tag = "v2";
    const v3 = [...v2, { tag: "v3", deletedClasses: ["Audit"] }];
    const drop = (await call(T, "check", [up.outs, { name: "visits", content: COUNTER, bindings: DO, migrations: v3 }])).inputs;
    forgetPreviewChecks();
    forgetShownWarnings();
    const { result, warnings } = collectWarnings(() => previewCheck(T, undefined, drop, up.outs));
    await result;
    forgetPreviewChecks();
    expect(warnings.join("\n")).toMatch(
      /the script visits applies the Durable Object migration v3, which deletes the class Audit: the storage of every object of it is lost/,
    );
    await call(T, "update", [r.id, up.outs, drop]);
    expect(edge.scripts.get("visits")!.durable_classes.map((c) => c.name)).toEqual(["Counter"]);
  });

  it("a Durable Object's storage outlives an upload of new code and a rename of its class; a deleted class loses it", async () => {
    const r = await make(T, { name: "visits", content: COUNTER, bindings: DO, migrations: V1 });
    await make("edge:WorkerRoute", { zoneName: "example.com", pattern: "example.com/visits*", script: "visits" });
    expect([await served("/visits?who=ana"), await served("/visits?who=ana")]).toEqual(["1", "2"]);
    // New code (counting by twos), the class renamed by the migration v2: the same object, its count kept.
    const renamed = COUNTER.replace("class Counter", "class Tally").replace("+ 1", "+ 2");
    const tally = [{ name: "VISITS", type: "durable_object_namespace", className: "Tally" }];
    const v2 = [...V1, { tag: "v2", renamedClasses: [{ from: "Counter", to: "Tally" }] }];
    const news = (await call(T, "check", [r.outs, { name: "visits", content: renamed, bindings: tally, migrations: v2 }])).inputs;
    const up = await call(T, "update", [r.id, r.outs, news]);
    expect(await served("/visits?who=ana")).toBe("4");
    // The class deleted (its binding removed with it): its objects go with their storage.
    const v3 = [...v2, { tag: "v3", deletedClasses: ["Tally"] }];
    const plain = `export default { fetch() { return new Response("closed") } };`;
    const drop = (await call(T, "check", [up.outs, { name: "visits", content: plain, bindings: [], migrations: v3 }])).inputs;
    await call(T, "update", [r.id, up.outs, drop]);
    expect(edge.durableObjects.size).toBe(0);
  });

  it("a class no migration made, a Worker or a queue the account lacks: the service's refusal in one line; tags given twice at check", async () => {
    const create = async (args: Record<string, unknown>) =>
      call(T, "create", [(await call(T, "check", [{}, { name: "visits", content: COUNTER, ...args }])).inputs]);
    await expect(create({ bindings: DO })).rejects.toThrow(/10061.*Cannot create binding for class 'Counter'/);
    await expect(create({ bindings: [{ name: "API", type: "service", service: "api" }] })).rejects.toThrow(
      /10143.*Target script 'api' not found/,
    );
    await expect(create({ bindings: [{ name: "JOBS", type: "queue", queueName: "jobs" }] })).rejects.toThrow(
      /11000.*Queue jobs does not exist/,
    );
    expect(edge.scripts.has("visits")).toBe(false);
    const { failures } = await call(T, "check", [
      {},
      { name: "visits", content: COUNTER, migrations: [...V1, { tag: "v1", deletedClasses: ["Counter"] }, { tag: "v2" }] },
    ]);
    expect(failures).toEqual([
      expect.objectContaining({ property: "migrations[1].tag", reason: expect.stringMatching(/the tag v1 is given twice/) }),
      expect.objectContaining({ property: "migrations[2]", reason: expect.stringMatching(/the migration v2 changes nothing/) }),
    ]);
  });

  it("a service binding's fetch reaches the other Worker; a queue binding's send puts a message on the queue", async () => {
    await make(T, {
      name: "api",
      content: `export default { fetch(req) { return new Response("api saw " + new URL(req.url).pathname) } };`,
    });
    edge.queues.set("q1", { queue_id: "q1", queue_name: "jobs", created_on: "", modified_on: "", messages: [] });
    await make(T, {
      name: "front",
      content: `export default { async fetch(req, env) {
        await env.JOBS.send({ path: new URL(req.url).pathname });
        return env.API.fetch("https://api.internal/orders");
      } };`,
      bindings: [
        { name: "API", type: "service", service: "api" },
        { name: "JOBS", type: "queue", queueName: "jobs" },
      ],
    });
    await make("edge:WorkerRoute", { zoneName: "example.com", pattern: "example.com/front*", script: "front" });
    expect(await served("/front")).toBe("api saw /orders");
    expect(edge.queues.get("q1")!.messages.map((m) => m.body)).toEqual([{ path: "/front" }]);
  });
});

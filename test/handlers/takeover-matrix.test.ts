/**
 * The takeover matrix (issue 57): for every resource type that can take over what exists, the object is made on the
 * service first (by hand, another tool or a lost state), every emulator answers with its objects' keys in reverse
 * order (the `reverseKeys` hook: a service lists fields in its own order, with its defaults filled in), and the
 * takeover — check, then create with `adopt`, as the engine calls them — sends nothing, reads back with no drift
 * and diffs as no change. A type that cannot take over says why. A row missing for a registry type fails.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { forgetClaims } from "../../provider/claims";
import { call } from "../../provider/door";
import { registry } from "../../provider/registry";
import { DEMO_TOKEN, PAGE_ID } from "../../emulators";
import { checked, freshFor, useMatrixServices } from "../helpers/matrix-services";
import { CREATE_INPUTS } from "../helpers/type-cases";

type Bag = Record<string, unknown>;
const services = useMatrixServices();
const all = () => services.all();

/** Requests that change something: reads sent as POST (the runner's show, a Graph batch of reads) are not writes. */
const writes = () =>
  all().flatMap((e) =>
    e.log
      .filter(
        (l) =>
          l.method !== "GET" &&
          !l.path.startsWith("/__") &&
          !/^\/api\/(show|version|tags|chat|generate|embed)$/.test(l.path) &&
          !/^\/v\d+\.\d+\/?$/.test(l.path),
      )
      .map((l) => `${e.name} ${l.method} ${l.path}`),
  );

/**
 * A row: the program's inputs (`adopt: true` added), and how the object came to be on the service first: made by a
 * create of the same inputs whose state was then lost (what another stack, the dashboard or a deleted state leaves),
 * or by `seed`, the service's own requests with the fields in the service's order.
 */
type Row = { inputs: Bag; seed?: () => Promise<void>; noAdopt?: string } | { none: string };

const edgeApi = async (method: string, p: string, body: unknown) => {
  const zone = [...services.edge.zones.values()].find((z) => z.name === "example.com")!;
  const res = await fetch(`${services.edge.url}/client/v4/zones/${zone.id}/${p}`, {
    method,
    headers: { authorization: `Bearer ${DEMO_TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(res.ok, await res.clone().text()).toBe(true);
};

const ROWS: Record<string, Row> = {
  "edge:DnsRecord": { inputs: CREATE_INPUTS["edge:DnsRecord"] },
  "edge:DnsRecordSet": { inputs: CREATE_INPUTS["edge:DnsRecordSet"] },
  "edge:ZoneSetting": {
    inputs: CREATE_INPUTS["edge:ZoneSetting"],
    noAdopt: "a zone's setting always has a value: a ZoneSetting takes it over without adopt",
  },
  // The service answers a forwarding rule's value as {url, status_code} (the seed's order, reversed by the hook);
  // the program (or a migrated Terraform state) writes {status_code, url}.
  "edge:PageRule": {
    inputs: {
      zoneName: "example.com",
      targets: ["example.com/lost/*"],
      actions: [{ id: "forwarding_url", value: { status_code: 301, url: "https://example.com/found/$1" } }],
    },
    seed: () =>
      edgeApi("POST", "pagerules", {
        status: "active",
        priority: 1,
        actions: [{ id: "forwarding_url", value: { status_code: 301, url: "https://example.com/found/$1" } }],
        targets: [{ constraint: { value: "example.com/lost/*", operator: "matches" }, target: "url" }],
      }),
  },
  "edge:FirewallRule": { inputs: CREATE_INPUTS["edge:FirewallRule"] },
  "edge:RateLimit": { inputs: CREATE_INPUTS["edge:RateLimit"] },
  "edge:RulesetRule": { inputs: CREATE_INPUTS["edge:RulesetRule"] },
  "edge:WorkerScript": { inputs: CREATE_INPUTS["edge:WorkerScript"] },
  "edge:WorkerRoute": { inputs: CREATE_INPUTS["edge:WorkerRoute"] },
  "edge:WorkerDomain": { inputs: CREATE_INPUTS["edge:WorkerDomain"] },
  "edge:KvNamespace": { inputs: CREATE_INPUTS["edge:KvNamespace"] },
  "edge:R2Bucket": { inputs: CREATE_INPUTS["edge:R2Bucket"] },
  "edge:D1Database": { inputs: CREATE_INPUTS["edge:D1Database"] },
  "pages:PagePost": {
    none: "a post has no natural key: a lost create's post is found by its message (ops:pagesAdoptExisting and the create journal), held by the fault matrix (test/helpers/fault-matrix.ts)",
  },
  "pages:PageRole": { inputs: CREATE_INPUTS["pages:PageRole"] },
  "pages:PageProfile": {
    inputs: CREATE_INPUTS["pages:PageProfile"],
    noAdopt: "a page always has a profile: a PageProfile takes its fields over without adopt",
  },
  "pages:PageSubscription": { inputs: { pageId: PAGE_ID, subscribedFields: ["messages", "feed"] } },
  "posts:Post": {
    none: "a post has no natural key and is never taken over: a lost publish is found by its container, held by the fault matrix (test/helpers/fault-matrix.ts)",
  },
  "runner:RunnerModel": { inputs: CREATE_INPUTS["runner:RunnerModel"] },
  "skills:Skill": { inputs: CREATE_INPUTS["skills:Skill"] },
  "skills:GeneratedSkill": { inputs: CREATE_INPUTS["skills:GeneratedSkill"] },
  "control:RemoteDesktopSession": {
    none: "a session is a procedure run on the host, not an object with a key; opening it again is what a person would do",
  },
  "control:RemoteCommand": { none: "a command's run leaves no object the endpoint can show" },
  "control:RemoteFile": {
    none: "reading the file there is itself a command through the endpoint's one tool (POST /mcp), which this matrix counts as a write: test/handlers/remote-file.test.ts holds that a file with the program's content is taken with nothing written, and another only with adopt",
  },
};

describe("the takeover matrix: every type that can take over sends nothing when the service already holds the program's object", () => {
  it("has a row for every resource type but the retired ones", () => {
    expect(Object.keys(ROWS).sort()).toEqual(
      Object.keys(registry)
        .filter((t) => !registry[t].retired)
        .sort(),
    );
  });

  for (const [type, row] of Object.entries(ROWS)) {
    if ("none" in row) {
      it.skip(`${type}: cannot take over (${row.none})`, () => {});
      continue;
    }
    describe(type, () => {
      beforeEach(() => freshFor(services, type));

      it("taken over with the service's key order: nothing sent, no drift, no change", async () => {
        const inputs = await checked(type, { ...row.inputs, ...(row.noAdopt ? {} : { adopt: true }) });
        if (row.seed) await row.seed();
        else await call(type, "create", [await checked(type, row.inputs)]);
        forgetClaims(); // the state that made it is gone: it is someone else's object now
        for (const e of all()) {
          e.reverseKeys = true;
          e.log.splice(0);
        }
        const made = await call(type, "create", [inputs]);
        expect(
          writes(),
          `a takeover of what the service already holds sends nothing (${JSON.stringify(all().flatMap((e) => e.log.map((l) => `${l.method} ${l.path}`.slice(0, 300))))})`,
        ).toEqual([]);
        expect((await call(type, "diff", [made.id, made.outs, inputs])).changes, "the program's inputs against what was taken over").toBe(
          false,
        );
        // A refresh right after: what it reads is what the program says (no drift, no change at the next up).
        const read = await call(type, "read", [made.id, made.outs]);
        expect(read.props, "still there").toBeDefined();
        expect((await call(type, "diff", [made.id, read.props, inputs])).changes, `refreshed: ${JSON.stringify(read.inputs)}`).toBe(false);
        expect(writes()).toEqual([]);
      });
    });
  }
});

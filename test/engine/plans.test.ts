/**
 * Plans that hold (issue 44): CI previews a pull request with `pulumi preview --save-plan` and applies the merge with
 * `pulumi up --plan`, which refuses any input that differs from what the preview recorded. A program where a DNS
 * record, a page rule, a firewall rule, a page post, a post and a remote command take values from another
 * resource's outputs (unknown at preview) is previewed with a saved plan and applied with it, on both doors: every
 * resource is made, with no plan violation. So are a Worker bound to a KV namespace and a reply to a post (issue 61).
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ControlEmulator, EdgeEmulator, PAGE_ID, PagesEmulator, PostsEmulator } from "../../emulators";
import { engineStack, ROOT } from "../../scripts/engine";
import { withoutEnvFallback, type EngineStack } from "../helpers/engine";
import { everyServiceConfig } from "../helpers/every-service";

let edge: EdgeEmulator, pages: PagesEmulator, posts: PostsEmulator, control: ControlEmulator;
const engines: EngineStack[] = [];

beforeAll(async () => {
  withoutEnvFallback();
  [edge, pages, posts, control] = await Promise.all([
    new EdgeEmulator({ plans: { "example.com": "business" } }).start(),
    new PagesEmulator().start(),
    new PostsEmulator({ processingMs: 0 }).start(),
    new ControlEmulator().start(),
  ]);
}, 60_000);

afterAll(async () => {
  for (const e of engines) {
    await e.stack.destroy().catch(() => undefined);
    await e.dispose();
  }
  await Promise.all([edge, pages, posts, control].map((e) => e?.stop()));
});

describe("preview --save-plan, then up --plan, with inputs unknown at preview", { timeout: 300_000 }, () => {
  for (const door of ["dynamic", "plugin"]) {
    it(`${door} door: every resource is made as planned, no violation`, async () => {
      const engine = await engineStack(
        path.join(ROOT, "test/programs/plans"),
        {
          ...everyServiceConfig({ edge, pages, posts, control }),
          "plans:door": { value: door },
          "plans:pageId": { value: PAGE_ID },
        },
        `plans-${door}`,
      );
      engines.push(engine);
      const plan = path.join(mkdtempSync(path.join(tmpdir(), "pulumi-ops-plan-")), "plan.json");
      const preview = await engine.stack.preview({ plan });
      // The base record, six resources, a KV namespace and the Worker bound to it, a post and its reply (on the
      // dynamic door inside a Thread component), and the stack.
      expect(preview.changeSummary.create).toBe(door === "dynamic" ? 13 : 12);
      let printed = "";
      const up = await engine.stack.up({ plan, onOutput: (o) => (printed += o) }).catch((e: Error) => {
        throw new Error(String(e).slice(0, 4000));
      });
      expect(printed).not.toMatch(/violates plan/);
      expect(up.summary.resourceChanges?.create).toBe(door === "dynamic" ? 13 : 12);
      expect(control.machine.files.get(`/tmp/plans-${door}`)).toMatch(/plan-base/);
      const kv = [...edge.namespaces.values()].find((n) => n.title === `plans-${door}`)!;
      expect(edge.scripts.get(`plans-${door}`)!.bindings).toContainEqual({ type: "kv_namespace", name: "KV", namespace_id: kv.id });
      const reply = [...posts.posts.values()].find((p) => p.text === `and its reply (${door})`)!;
      expect(posts.posts.get(reply.replied_to!)!.text).toBe(`A thread (${door})`);
    });
  }

  it("a zone setting's value the service refuses fails the preview, naming the values it takes; nothing is sent", async () => {
    const engine = engines[0];
    await engine.stack.setConfig("plans:browserCacheTtl", { value: "7" });
    const writes = () => [edge, pages, posts].flatMap((e) => e.log.filter((l) => l.method !== "GET"));
    [edge, pages, posts].forEach((e) => e.log.splice(0));
    const failed = await engine.stack.preview().then(
      () => undefined,
      (e: Error) => e,
    );
    await engine.stack.removeConfig("plans:browserCacheTtl");
    expect(String(failed)).toMatch(/browser_cache_ttl must be one of 0, 30, 60, .*; got 7/);
    expect(writes()).toEqual([]);
  });
});

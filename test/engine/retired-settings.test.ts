/**
 * An upgrade never breaks a stack (issue 47): a stack made with 0.4.0 still holds `ops:postsAppToken`, which 0.5.0
 * retired with WebhookSubscription. Through the real CLI its preview and up succeed for resources of three services,
 * each command saying once that the key is retired and how to remove it; after `pulumi config rm` nothing is said.
 */
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EdgeEmulator, PostsEmulator, RunnerEmulator } from "../../emulators";
import { engineStack, ROOT } from "../../scripts/engine";
import { withoutEnvFallback, type EngineStack } from "../helpers/engine";
import { everyServiceConfig } from "../helpers/every-service";

let edge: EdgeEmulator, posts: PostsEmulator, runner: RunnerEmulator;
let engine: EngineStack;
const RETIRED = /ops:postsAppToken was retired in pulumi-ops 0\.5\.0 and is ignored: .*pulumi config rm ops:postsAppToken/g;
/** One warning: the CLI shows it as it comes and again in its diagnostics summary, never more. */
function said(output: string): void {
  const lines = output.match(RETIRED) ?? [];
  expect(lines.length).toBeGreaterThanOrEqual(1);
  expect(lines.length).toBeLessThanOrEqual(2);
  expect(new Set(lines).size).toBe(1);
}

beforeAll(async () => {
  withoutEnvFallback();
  [edge, posts, runner] = await Promise.all([
    new EdgeEmulator().start(),
    new PostsEmulator({ processingMs: 0 }).start(),
    new RunnerEmulator({ pullStepMs: 1 }).start(),
  ]);
  engine = await engineStack(
    path.join(ROOT, "test/programs/retired-settings"),
    { ...everyServiceConfig({ edge, posts, runner }), "ops:postsAppToken": { value: "app-token-of-0.4.0", secret: true } },
    "upgraded",
    { PULUMI_OPS_QUIET: "0" },
  );
}, 300_000);

afterAll(async () => {
  await engine?.dispose();
  await Promise.all([edge, posts, runner].map((e) => e?.stop()));
});

describe("a stack holding a retired setting", { timeout: 300_000 }, () => {
  it("previews and applies, each command saying once that the key is retired", async () => {
    let previewed = "";
    await engine.stack.preview({ onOutput: (o) => (previewed += o) });
    said(previewed);
    let applied = "";
    const up = await engine.stack.up({ onOutput: (o) => (applied += o) });
    expect(up.summary.resourceChanges).toMatchObject({ create: 4 });
    said(applied);
    expect(posts.posts.size).toBe(1);
  });

  it("once removed from the config, nothing is said", async () => {
    await engine.stack.removeConfig("ops:postsAppToken");
    let said = "";
    await engine.stack.preview({ expectNoChanges: true, onOutput: (o) => (said += o) });
    expect(said).not.toMatch(/postsAppToken/);
  });
});

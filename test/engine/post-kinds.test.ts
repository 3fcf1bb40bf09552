/**
 * Posts as Threads users write them, through the real engine (issue 47): a text post with reply control, a topic tag
 * and a link card, a quote of it, an image with alt text and a poll — preview sends nothing, up makes each with its
 * fields, a second up changes nothing; a carousel of three whose publish answer is lost is recovered without a
 * second carousel, on a token in its last week that the run refreshes for itself; destroy leaves nothing.
 */
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POSTS_USER_TOKEN, PostsEmulator } from "../../emulators";
import { engineStack, ROOT } from "../../scripts/engine";
import { withoutEnvFallback, type EngineStack } from "../helpers/engine";

let posts: PostsEmulator;
let engine: EngineStack;
const writes = () => posts.log.filter((e) => e.method !== "GET" && !e.path.startsWith("/__")).map((e) => `${e.method} ${e.path}`);
const published = () => posts.publishedInWindow();

beforeAll(async () => {
  withoutEnvFallback();
  posts = await new PostsEmulator({ processingMs: 300 }).start();
  engine = await engineStack(path.join(ROOT, "test/programs/post-kinds"), {}, "kinds", {
    THREADS_ACCESS_TOKEN: POSTS_USER_TOKEN,
    POSTS_BASE_URL: posts.url,
    POSTS_STATUS_POLL_SECONDS: "1",
  });
}, 300_000);

afterAll(async () => {
  await engine?.dispose();
  await posts?.stop();
});

describe("every post a Threads user makes, through the engine", { timeout: 300_000 }, () => {
  it("1. preview sends nothing", async () => {
    const preview = await engine.stack.preview();
    expect(preview.changeSummary.create).toBe(5); // the stack and four posts
    expect(writes()).toEqual([]);
  });

  it("2. up makes each post with its fields; a second up changes nothing", async () => {
    const up = await engine.stack.up();
    expect(up.summary.resourceChanges?.create).toBe(5);
    const byText = (t: string) => published().find((p) => p.text === t)!;
    expect(byText("Fresh bread at 7.")).toMatchObject({
      reply_audience: "ACCOUNTS_YOU_FOLLOW",
      topic_tag: "Bread Baking",
      link_attachment_url: "https://bakery.example/loaves",
    });
    expect(byText("As promised:").quoted_post).toBe(up.outputs.helloId.value);
    expect(published().find((p) => p.media_type === "IMAGE")!.alt_text).toBe("A round rye loaf on a board");
    expect(byText("Which loaf next?").poll).toEqual({ option_a: "Spelt", option_b: "Seeded rye", option_c: "Brioche" });
    await engine.stack.up({ expectNoChanges: true });
    await engine.stack.refresh({ expectNoChanges: true } as never);
  });

  it("3. on a token in its last week (refreshed for the run), a carousel of three whose publish answer is lost: recovered, one carousel, its items named", async () => {
    posts.tokens.get(POSTS_USER_TOKEN)!.expiresAt = Date.now() + 3 * 86_400_000;
    await engine.stack.setConfig("carousel", { value: "true" });
    posts.inject({ match: { method: "POST", path: "/threads_publish$" }, count: 1, kind: "status-after", status: 500 });
    const up = await engine.stack.up();
    expect(up.summary.resourceChanges?.create).toBe(1);
    const carousels = published().filter((p) => p.media_type === "CAROUSEL");
    expect(carousels).toHaveLength(1);
    expect(carousels[0].children).toHaveLength(3);
    expect(up.outputs.weekItems.value).toEqual(carousels[0].children);
    expect(published()).toHaveLength(5);
    expect(posts.count("GET", /^\/refresh_access_token$/)).toBeGreaterThanOrEqual(1);
    await engine.stack.up({ expectNoChanges: true });
  });

  it("4. destroy leaves nothing", async () => {
    await engine.stack.destroy();
    expect(posts.posts.size).toBe(0);
  });
});

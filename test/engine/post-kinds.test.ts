/**
 * Posts as Threads users write them, through the real engine (issues 47 and 61): a text post with reply control, a
 * topic tag and a link card, a quote of it, an image with alt text, a poll, a three-post thread (ops.posts.Thread) and
 * a post with long text and a spoiler — preview sends nothing, up makes each with its fields and the thread in order,
 * a second up changes nothing; the thread's second text changed is refused at preview without allowRepublish, and
 * with it republishes the second and third posts only, replies deleted before their parents; a carousel of three
 * whose publish answer is lost is recovered without a second carousel, on a token in its last week that the run
 * refreshes for itself; destroy leaves nothing, replies deleted first.
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
/** The ids the service was asked to delete, in order. */
const deleted = () => posts.log.filter((e) => e.method === "DELETE").map((e) => e.path.split("/").at(-1)!);

beforeAll(async () => {
  withoutEnvFallback();
  posts = await new PostsEmulator({ processingMs: 300 }).start();
  engine = await engineStack(path.join(ROOT, "test/programs/post-kinds"), {}, "kinds", {
    THREADS_ACCESS_TOKEN: POSTS_USER_TOKEN,
    POSTS_BASE_URL: posts.url,
    POSTS_STATUS_POLL_SECONDS: "1",
    PULUMI_OPS_QUIET: "0", // the preview's warnings are asserted
  });
}, 300_000);

afterAll(async () => {
  await engine?.dispose();
  await posts?.stop();
});

describe("every post a Threads user makes, through the engine", { timeout: 300_000 }, () => {
  it("1. preview sends nothing", async () => {
    const preview = await engine.stack.preview();
    expect(preview.changeSummary.create).toBe(10); // the stack, four posts, the thread and its three, the long post
    expect(writes()).toEqual([]);
  });

  it("2. up makes each post with its fields; a second up changes nothing", async () => {
    const up = await engine.stack.up();
    expect(up.summary.resourceChanges?.create).toBe(10);
    const byText = (t: string) => published().find((p) => p.text === t)!;
    expect(byText("Fresh bread at 7.")).toMatchObject({
      reply_audience: "ACCOUNTS_YOU_FOLLOW",
      topic_tag: "Bread Baking",
      link_attachment_url: "https://bakery.example/loaves",
    });
    expect(byText("As promised:").quoted_post).toBe(up.outputs.helloId.value);
    expect(published().find((p) => p.media_type === "IMAGE")!.alt_text).toBe("A round rye loaf on a board");
    expect(byText("Which loaf next?").poll).toEqual({ option_a: "Spelt", option_b: "Seeded rye", option_c: "Brioche" });
    // The thread: published in order, each reply to the one before.
    const [root, first, second] = up.outputs.recipeIds.value as string[];
    expect(posts.posts.get(first)).toMatchObject({ text: "1. Feed the starter the night before.", replied_to: root, root_post: root });
    expect(posts.posts.get(second)).toMatchObject({ text: "2. Mix, rest, fold.", replied_to: first, root_post: root });
    expect(posts.posts.get(root)!.replied_to).toBeUndefined();
    expect(posts.posts.get(root)!.timestamp).toBeLessThanOrEqual(posts.posts.get(first)!.timestamp);
    expect(byText("The winner is Rye. The full recipe:")).toMatchObject({
      text_attachment: {
        plaintext: "Proof for 12 hours at 4 °C, then bake at 250 °C for 40 minutes.",
        link_attachment_url: "https://bakery.example/recipe",
      },
      text_entities: [{ entity_type: "SPOILER", offset: 14, length: 3 }],
    });
    await engine.stack.up({ expectNoChanges: true });
    await engine.stack.refresh({ expectNoChanges: true } as never);
  });

  it("2b. the thread's second text changed: refused at preview without allowRepublish; with it the second and third are republished, the first kept, replies deleted before their parents", async () => {
    const [root, first, second] = (await engine.stack.outputs()).recipeIds.value as string[];
    await engine.stack.setConfig("step1", { value: "1. Feed the starter at night." });
    posts.log.length = 0;
    const refused = await engine.stack.preview().catch((e: Error) => e);
    expect(String(refused)).toMatch(/changing text would publish a new post and delete this one.*Set allowRepublish: true/);
    expect(writes()).toEqual([]);
    await engine.stack.setConfig("allowRepublish", { value: "true" });
    let said = "";
    const preview = await engine.stack.preview({ onOutput: (o) => (said += o) });
    expect(preview.changeSummary.replace).toBe(2);
    // Said for each post republished (what goes with it), the third because the post it answers is made anew.
    for (const id of [first, second])
      expect(said).toMatch(new RegExp(`post ${id} cannot be edited: the program's post is published as a new one`));
    expect(said).not.toMatch(new RegExp(`post ${root} cannot be edited`));
    const up = await engine.stack.up();
    expect(up.summary.resourceChanges?.replace).toBe(2);
    const [root2, first2, second2] = up.outputs.recipeIds.value as string[];
    expect(root2).toBe(root);
    expect([first2, second2]).not.toContain(first);
    expect(posts.posts.get(first2)).toMatchObject({ text: "1. Feed the starter at night.", replied_to: root });
    expect(posts.posts.get(second2)).toMatchObject({ text: "2. Mix, rest, fold.", replied_to: first2 });
    expect(deleted()).toEqual([second, first]); // the old reply before the post it answered
    await engine.stack.up({ expectNoChanges: true });
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
    expect(published().filter((p) => !p.replied_to)).toHaveLength(7); // one carousel among the posts (the thread's replies apart)
    expect(posts.count("GET", /^\/refresh_access_token$/)).toBeGreaterThanOrEqual(1);
    await engine.stack.up({ expectNoChanges: true });
  });

  it("4. destroy leaves nothing, a thread's replies deleted before the posts they answer", async () => {
    const [root, first, second] = (await engine.stack.outputs()).recipeIds.value as string[];
    posts.log.length = 0;
    await engine.stack.destroy();
    expect(posts.posts.size).toBe(0);
    const order = deleted();
    expect(order.indexOf(second)).toBeLessThan(order.indexOf(first));
    expect(order.indexOf(first)).toBeLessThan(order.indexOf(root));
  });
});

/**
 * The social example through the real Pulumi engine against the page-management and short-post emulators:
 * preview without writes, a throttled up that still converges, no-op up, update vs replace, drift, the 10-second
 * publish spacing read from the emulator's log, destroy with nothing left, and no token at rest.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PAGE_ID, PAGES_APP, PAGES_USER_TOKEN, PagesEmulator, POSTS_APP_TOKEN, POSTS_USER_TOKEN, PostsEmulator } from "../../emulators";
import { exampleStack, timed, timings, withoutEnvFallback, type EngineStack } from "../helpers/engine";

let pages: PagesEmulator;
let posts: PostsEmulator;
let engine: EngineStack;
const BOB = "300000000000003";
const page = () => pages.pages.get(PAGE_ID)!;
const writes = () => [...pages.log, ...posts.log].filter((e) => e.method !== "GET");
/** Times of the publishes the service accepted, from its own log. */
const publishTimes = () => posts.log.filter((e) => e.path.endsWith("/posts_publish") && e.status === 200).map((e) => e.time);

beforeAll(async () => {
  withoutEnvFallback();
  pages = await new PagesEmulator().start();
  posts = await new PostsEmulator({ processingMs: 500 }).start();
  engine = await exampleStack("social", {
    "ops:pagesBaseUrl": { value: pages.url },
    "ops:pagesAccessToken": { value: PAGES_USER_TOKEN, secret: true }, // a user token: page tokens are derived
    "ops:pagesAppId": { value: PAGES_APP.id },
    "ops:postsBaseUrl": { value: posts.url },
    "ops:postsAccessToken": { value: POSTS_USER_TOKEN, secret: true },
    "ops:postsAppToken": { value: POSTS_APP_TOKEN, secret: true },
    "social:launchAt": { value: new Date(Date.now() + 2 * 86_400_000).toISOString() },
    "social:verifyToken": { value: "verify-token-for-tests", secret: true },
  });
}, 300_000);

afterAll(async () => {
  await engine?.dispose();
  await pages?.stop();
  await posts?.stop();
  console.log(`social engine timings (ms): ${JSON.stringify(timings)}`);
});

describe("social example through the Pulumi engine", { timeout: 300_000, sequential: true }, () => {
  it("1. preview lists the creates and sends no write request", async () => {
    const preview = await timed("preview", () => engine.stack.preview());
    expect(preview.changeSummary.create).toBe(8); // 7 resources and the stack
    expect(writes()).toEqual([]);
  });

  it("2. up converges through throttling; publishes are at least 10 s apart; a second up changes nothing", async () => {
    pages.inject({ match: { method: "POST", path: "/feed$" }, count: 2, kind: "status", status: 429 });
    posts.inject({ match: { method: "POST", path: "/me/posts$" }, count: 1, kind: "status", status: 429, retryAfter: 1 });
    const up = await timed("up (throttled)", () => engine.stack.up());
    expect(up.summary.resourceChanges?.create).toBe(8);
    expect(page().roles.get(BOB)).toBe("MODERATOR");
    expect([...page().apps.values()]).toEqual([["feed", "messages"]]);
    expect([...pages.posts.values()].map((p) => pages.state(p)).sort()).toEqual(["draft", "scheduled"]);
    expect(posts.posts.size).toBe(2);
    expect(posts.subscriptions.get("posts")?.verify_token).toBe("verify-token-for-tests");
    expect(up.outputs.launchState.value).toBe("scheduled");
    expect(pages.log.filter((e) => e.fault).length + posts.log.filter((e) => e.fault).length).toBe(3);

    const [first, second] = publishTimes();
    timings["publish spacing"] = second - first;
    expect(second - first).toBeGreaterThanOrEqual(10_000);

    const sent = [pages.log.length, posts.log.length];
    const again = await timed("up (no-op)", () => engine.stack.up({ expectNoChanges: true }));
    expect(again.summary.resourceChanges).toEqual({ same: 8 });
    const noOp = [...pages.log.slice(sent[0]), ...posts.log.slice(sent[1])];
    expect(noOp.filter((e) => e.method !== "GET" && !(e.method === "POST" && e.path === "/v18.0/"))).toEqual([]); // reads (and batched reads) only
  });

  it("3. a role and a draft's text update in place; a short post's text replaces it", async () => {
    await engine.stack.setAllConfig({ helperRole: { value: "EDITOR" }, draftText: { value: "Draft: winter menu v2" }, announcement: { value: "Now also on Sundays." } });
    const before = [...posts.posts.keys()];
    const up = await timed("up (update + replace)", () => engine.stack.up());
    expect(up.summary.resourceChanges).toMatchObject({ update: 2, replace: 1 });
    expect(page().roles.get(BOB)).toBe("EDITOR");
    expect([...pages.posts.values()].some((p) => p.message === "Draft: winter menu v2")).toBe(true);
    expect([...posts.posts.values()].map((p) => p.text)).toContain("Now also on Sundays.");
    expect(posts.posts.size).toBe(2); // the old one deleted, the new one published
    expect([...posts.posts.keys()].filter((k) => !before.includes(k))).toHaveLength(1);
  });

  it("4. refresh reports a role changed by hand and a scheduled post that went out; up restores the role", async () => {
    page().roles.set(BOB, "ANALYST");
    pages.clockOffsetMs = 3 * 86_400_000; // launch day has come
    const refresh = await timed("refresh (drift)", () => engine.stack.refresh());
    // The role drifted (an input); the post's state is an output the service moved on, which the engine stores
    // without counting it as a change.
    expect(refresh.summary.resourceChanges).toMatchObject({ update: 1 });
    const state = await engine.stack.exportStack();
    const launch = state.deployment.resources.find((r: { urn: string }) => r.urn.endsWith("PagePost::launch"));
    expect(launch.outputs.state).toBe("published");
    const up = await timed("up (restore)", () => engine.stack.up());
    expect(up.summary.resourceChanges).toMatchObject({ update: 1 });
    expect(page().roles.get(BOB)).toBe("EDITOR");
  });

  it("5. the state holds no token at rest", async () => {
    const atRest = engine.backendText();
    for (const secret of [PAGES_USER_TOKEN, POSTS_USER_TOKEN, POSTS_APP_TOKEN, "verify-token-for-tests"]) expect(atRest).not.toContain(secret);
  });

  it("6. destroy leaves nothing behind", async () => {
    const destroy = await timed("destroy", () => engine.stack.destroy());
    expect(destroy.summary.resourceChanges).toMatchObject({ delete: 8 });
    expect(page().roles.has(BOB)).toBe(false);
    expect(page().apps.size).toBe(0);
    expect(pages.posts.size).toBe(0);
    expect(posts.posts.size).toBe(0);
    expect(posts.subscriptions.size).toBe(0);
  });
});

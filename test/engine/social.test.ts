/**
 * The social example through the real Pulumi engine against the page-management and short-post emulators:
 * preview without writes, a throttled up that still converges, no-op up, update vs replace, drift, a preview over
 * the publishing quota refused, destroy with nothing left, and no token at rest.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PAGE_ID, PAGES_APP, PAGES_USER_TOKEN, PagesEmulator, POSTS_USER_TOKEN, PostsEmulator, PUBLISH_QUOTA } from "../../emulators";
import { exampleStack, timed, timings, withoutEnvFallback, type EngineStack } from "../helpers/engine";

let pages: PagesEmulator;
let posts: PostsEmulator;
let engine: EngineStack;
const BOB = "300000000000003";
const page = () => pages.pages.get(PAGE_ID)!;
const writes = () => [...pages.log, ...posts.log].filter((e) => e.method !== "GET");

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
    "ops:postsStatusPollSeconds": { value: "1" },
    "social:launchAt": { value: new Date(Date.now() + 2 * 86_400_000).toISOString() },
  });
}, 300_000);

afterAll(async () => {
  await engine?.dispose();
  await pages?.stop();
  await posts?.stop();
  console.log(`social engine timings (ms): ${JSON.stringify(timings)}`);
});

describe("social example through the Pulumi engine", { timeout: 300_000 }, () => {
  it("1. preview lists the creates and sends no write request", async () => {
    const preview = await timed("preview", () => engine.stack.preview());
    expect(preview.changeSummary.create).toBe(8); // 7 resources and the stack
    expect(writes()).toEqual([]);
  });

  it("2. up converges through throttling and a publish refused while the service catches up; a second up changes nothing", async () => {
    pages.inject({ match: { method: "POST", path: "/feed$" }, count: 2, kind: "status", status: 429 });
    posts.inject({ match: { method: "POST", path: "/me/threads$" }, count: 1, kind: "status", status: 429, retryAfter: 1 });
    posts.transientPublishFailures = 1;
    const up = await timed("up (throttled)", () => engine.stack.up());
    expect(up.summary.resourceChanges?.create).toBe(8);
    expect(page().about).toBe("Bread since 1921, now in two shops");
    expect(page().profile.hours).toMatchObject({ sat_1_open: "08:00", sat_1_close: "13:00" });
    expect(page().assigned.get(BOB)).toEqual(["MODERATE", "MESSAGING", "ADVERTISE", "ANALYZE"]); // the role's tasks
    expect([...page().apps.values()]).toEqual([["feed", "messages"]]);
    expect([...pages.posts.values()].map((p) => pages.state(p)).sort()).toEqual(["draft", "scheduled"]);
    expect(posts.posts.size).toBe(2);
    expect([...posts.posts.values()].map((p) => p.media_type).sort()).toEqual(["IMAGE", "TEXT"]);
    expect(posts.transientPublishFailures).toBe(0); // the refused publish was tried again
    expect(posts.log.filter((e) => e.path.endsWith("/threads_publish") && e.status === 200)).toHaveLength(2);
    expect(up.outputs.launchState.value).toBe("scheduled");
    expect(up.outputs.announcementLink.value).toMatch(/^https:\/\/www\.threads\.com\/@examplebakery\/post\//);
    expect(up.outputs.announcementViews.value).toBe(0);
    expect(pages.log.filter((e) => e.fault).length + posts.log.filter((e) => e.fault).length).toBe(3);

    const sent = [pages.log.length, posts.log.length];
    const again = await timed("up (no-op)", () => engine.stack.up({ expectNoChanges: true }));
    expect(again.summary.resourceChanges).toEqual({ same: 8 });
    const noOp = [...pages.log.slice(sent[0]), ...posts.log.slice(sent[1])];
    expect(noOp.filter((e) => e.method !== "GET" && !(e.method === "POST" && /^\/v\d+\.\d+\/$/.test(e.path)))).toEqual([]); // reads (and batched reads) only
  });

  it("3. a role and a draft's text update in place; a short post's new text is refused at preview until republishing is allowed, then replaces it", async () => {
    await engine.stack.setAllConfig({
      helperRole: { value: "EDITOR" },
      draftText: { value: "Draft: winter menu v2" },
      announcement: { value: "Now also on Sundays." },
    });
    const before = [...posts.posts.keys()];
    const writesBefore = posts.log.filter((e) => e.method !== "GET").length;
    const refused = await engine.stack.preview().catch((e: Error) => e);
    expect(String(refused)).toMatch(
      /a published post cannot be edited: changing text would publish a new post and delete this one with its likes, replies and views.*allowRepublish: true/,
    );
    expect(posts.log.filter((e) => e.method !== "GET").length).toBe(writesBefore);
    await engine.stack.setConfig("allowRepublish", { value: "true" });
    let said = "";
    await engine.stack.preview({ onOutput: (o) => (said += o) });
    expect(said).toMatch(
      /post \w+ cannot be edited: the program's post is published as a new one and this one deleted \(allowRepublish\); its \d+ likes, \d+ replies and \d+ views go with it/,
    );
    const up = await timed("up (update + replace)", () => engine.stack.up());
    expect(up.summary.resourceChanges).toMatchObject({ update: 2, replace: 1 });
    expect(page().assigned.get(BOB)).toEqual(["CREATE_CONTENT", "MODERATE", "MESSAGING", "ADVERTISE", "ANALYZE"]);
    expect([...pages.posts.values()].some((p) => p.message === "Draft: winter menu v2")).toBe(true);
    expect([...posts.posts.values()].map((p) => p.text)).toContain("Now also on Sundays.");
    expect(posts.posts.size).toBe(2); // the old one deleted, the new one published
    expect([...posts.posts.keys()].filter((k) => !before.includes(k))).toHaveLength(1);
  });

  it("4. refresh reports a role and the page's about text changed by hand, and a scheduled post that went out; up restores the role and the about text", async () => {
    page().assigned.set(BOB, ["ANALYZE"]); // changed by hand in the business settings
    page().about = "Closed for the holidays"; // and in the Business Suite
    pages.clockOffsetMs = 3 * 86_400_000; // launch day has come
    let said = "";
    const refresh = await timed("refresh (drift)", () => engine.stack.refresh({ onOutput: (o) => (said += o) }));
    // The role and the about text drifted (inputs); the post's state is an output the service moved on, which the
    // engine stores without counting it as a change.
    expect(refresh.summary.resourceChanges).toMatchObject({ update: 2 });
    expect(said).toMatch(/profile was changed on the page: about "Bread since 1921, now in two shops" → "Closed for the holidays"/);
    const state = await engine.stack.exportStack();
    const launch = state.deployment.resources.find((r: { urn: string }) => r.urn.endsWith("PagePost::launch"));
    expect(launch.outputs.state).toBe("published");
    const up = await timed("up (restore)", () => engine.stack.up());
    expect(up.summary.resourceChanges).toMatchObject({ update: 2 });
    expect(page().assigned.get(BOB)).toEqual(["CREATE_CONTENT", "MODERATE", "MESSAGING", "ADVERTISE", "ANALYZE"]);
    expect(page().about).toBe("Bread since 1921, now in two shops");
  });

  it("5. the state holds no token at rest", async () => {
    const atRest = engine.backendText();
    for (const secret of [PAGES_USER_TOKEN, POSTS_USER_TOKEN]) expect(atRest).not.toContain(secret);
  });

  it("5b. a preview that would publish over the account's 250 posts a day fails, saying when quota frees up", async () => {
    // The account published the rest of its quota by hand over the last hours (the first of them 20 hours ago, after
    // this stack's own posts, which are newer still).
    const oldest = Date.now() - 20 * 3600_000;
    const byHand = PUBLISH_QUOTA - posts.quotaUsed(); // what the service counts: published posts, deleted ones too
    for (let i = 0; i < byHand; i++)
      posts.posts.set(`9${String(i).padStart(16, "0")}`, {
        id: `9${String(i).padStart(16, "0")}`,
        media_type: "TEXT",
        text: `by hand ${i}`,
        timestamp: oldest + i * 1000,
        shortcode: `H${i}`,
        views: 0,
        likes: 0,
      });
    try {
      await engine.stack.setConfig("announcement", { value: "Open on Monday too." });
      const sent = posts.log.length;
      const failed = await engine.stack.preview().then(
        () => "previewed",
        (e: Error) => e.message,
      );
      expect(failed).toMatch(/may publish 250 posts per 24 hours and has published 250: 1 new post would go over it/);
      expect(failed).toContain(`Quota frees up at ${new Date(oldest + 86_400_000).toISOString().replace(/\.\d+Z$/, "Z")}`);
      expect(posts.log.slice(sent).filter((e) => e.method !== "GET")).toEqual([]);
    } finally {
      for (const id of [...posts.posts.keys()].filter((k) => k.startsWith("9"))) posts.posts.delete(id);
      await engine.stack.setConfig("announcement", { value: "Now also on Sundays." });
    }
  });

  it("6. destroy leaves nothing behind", async () => {
    const destroy = await timed("destroy", () => engine.stack.destroy());
    expect(destroy.summary.resourceChanges).toMatchObject({ delete: 8 });
    expect(page().about).toBe("Bread since 1921, now in two shops"); // the profile is left as it is
    expect(page().assigned.has(BOB)).toBe(false);
    expect(page().apps.size).toBe(0);
    expect(pages.posts.size).toBe(0);
    expect(posts.posts.size).toBe(0);
  });
});

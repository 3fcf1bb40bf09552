import { describe, expect, it } from "vitest";
import { POSTS_APP, POSTS_OTHER_TOKEN, POSTS_SHORT_TOKEN, POSTS_USER_TOKEN, PUBLISH_QUOTA } from "../../emulators";
import { call } from "../../provider/door";
import { collectWarnings } from "../../provider/log";
import { forgetPreviewChecks, previewCheck } from "../../provider/preflight";
import { useSocial } from "../helpers/social";

const { posts } = useSocial();

async function make(type: string, args: Record<string, unknown>) {
  const { inputs, failures } = await call(type, "check", [{}, args]);
  expect(failures).toEqual([]);
  return { inputs, ...(await call(type, "create", [inputs])) };
}

/** Fills the account's quota with posts published by hand, the oldest `hoursAgo` hours ago. */
function publishedByHand(count: number, hoursAgo: number): number {
  const oldest = Date.now() - hoursAgo * 3600_000;
  for (let i = 0; i < count; i++) {
    const id = `9${String(i).padStart(16, "0")}`;
    posts.posts.set(id, {
      id,
      media_type: "TEXT",
      text: `by hand ${i}`,
      timestamp: oldest + i * 60_000,
      shortcode: `H${i}`,
      views: 0,
      likes: 0,
    });
  }
  return oldest;
}

describe("Post on the real short-post API (Threads)", () => {
  it("creates at /me/threads, publishes at /me/threads_publish, reads back, replaces on any change and deletes", async () => {
    const p = await make("posts:Post", { mediaType: "TEXT", text: "Fresh bread at 7." });
    expect(p.outs.permalink).toMatch(/^https:\/\/www\.threads\.com\/@examplebakery\/post\//);
    expect(posts.count("POST", /\/v1\.0\/me\/threads$/)).toBe(1);
    expect(posts.count("POST", /\/v1\.0\/me\/threads_publish$/)).toBe(1);
    expect((await call("posts:Post", "read", [p.id, p.outs])).props.permalink).toBe(p.outs.permalink);
    expect(await call("posts:Post", "diff", [p.id, p.outs, { ...p.inputs, text: "Fresh bread at 6." }])).toMatchObject({
      replaces: ["text"],
    });
    // In state, a new text is refused at check unless republishing is allowed (a post cannot be edited).
    const refused = await call("posts:Post", "check", [p.inputs, { mediaType: "TEXT", text: "Fresh bread at 6." }]);
    expect(refused.failures[0]).toMatchObject({
      property: "text",
      reason: expect.stringMatching(/a published post cannot be edited.*allowRepublish: true/),
    });
    expect(
      (await call("posts:Post", "check", [p.inputs, { mediaType: "TEXT", text: "Fresh bread at 6.", allowRepublish: true }])).failures,
    ).toEqual([]);
    await call("posts:Post", "delete", [p.id, p.outs]);
    expect(await call("posts:Post", "read", [p.id, p.outs])).toEqual({});
  });

  it("an image post waits for its container, then answers the service's own media address", async () => {
    const p = await make("posts:Post", { mediaType: "IMAGE", imageUrl: "https://media.example/loaf.jpg", text: "Today's loaf" });
    expect(posts.count("GET", /\/v1\.0\/\d+$/)).toBeGreaterThanOrEqual(2); // looked at once, then again
    expect(p.outs.mediaUrl).toMatch(/^https:\/\/scontent\.cdninstagram\.com\//);
    expect(p.outs.imageUrl).toBe("https://media.example/loaf.jpg");
  });

  it("reports media the service could not process, with the remedy", async () => {
    await expect(make("posts:Post", { mediaType: "IMAGE", imageUrl: "https://media.example/huge.jpg?bytes=9000000" })).rejects.toThrow(
      /could not be processed.*under 8 MB/,
    );
    expect(posts.count("POST", /threads_publish$/)).toBe(0);
  });

  it("a publish refused as 'Media Not Found' just after FINISHED is tried again, and publishes once", async () => {
    posts.transientPublishFailures = 2;
    const p = await make("posts:Post", { text: "Rye today." });
    expect(posts.count("POST", /threads_publish$/)).toBe(3);
    expect([...posts.posts.values()].filter((x) => x.text === "Rye today.")).toHaveLength(1);
    expect(p.outs.postId).toBe(p.id);
  });

  it("a publish over the 250 posts of 24 hours fails saying when quota frees up; nothing is published", async () => {
    const oldest = publishedByHand(PUBLISH_QUOTA, 23);
    const err = await make("posts:Post", { text: "One more." }).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(err?.message).toMatch(/may publish 250 posts per 24 hours and has published 250/);
    expect(err?.message).toContain(`Quota frees up at ${new Date(oldest + 86_400_000).toISOString().replace(/\.\d+Z$/, "Z")}`);
    expect(posts.posts.size).toBe(PUBLISH_QUOTA);
  });

  it("the preview refuses posts over the quota (and lets those within it pass), reading the limit once", async () => {
    publishedByHand(PUBLISH_QUOTA - 1, 10);
    forgetPreviewChecks();
    await previewCheck("posts:Post", undefined, { mediaType: "TEXT", text: "first" });
    await expect(previewCheck("posts:Post", undefined, { mediaType: "TEXT", text: "second" })).rejects.toThrow(
      /2 new posts would go over it \(1 left\).*Quota frees up at/,
    );
    // An unchanged post publishes nothing and is not counted.
    await previewCheck("posts:Post", undefined, { mediaType: "TEXT", text: "old" }, { mediaType: "TEXT", text: "old" });
    expect(posts.count("GET", /threads_publishing_limit$/)).toBe(1);
    expect(posts.log.filter((e) => e.method !== "GET")).toEqual([]);
    forgetPreviewChecks();
  });

  it("the day's deletes: replacements over them fail the preview with both counts; a delete over them is refused before it is sent (issue 47)", async () => {
    const p = await make("posts:Post", { text: "Rye today." });
    posts.deletesToday = Array.from({ length: 99 }, () => Date.now() - 3600_000);
    forgetPreviewChecks();
    posts.log.splice(0);
    // One replacement fits the one delete left; a second does not.
    await previewCheck(
      "posts:Post",
      undefined,
      { mediaType: "TEXT", text: "Rye today!", allowRepublish: true },
      { mediaType: "TEXT", text: "Rye today." },
    );
    await expect(
      previewCheck(
        "posts:Post",
        undefined,
        { mediaType: "TEXT", text: "Spelt!", allowRepublish: true },
        { mediaType: "TEXT", text: "Spelt." },
      ),
    ).rejects.toThrow(/may delete 100 posts per 24 hours and has deleted 99 \(1 left\): this run's 2 replaced posts .* needs 2/);
    expect(posts.log.filter((e) => e.method !== "GET")).toEqual([]);
    // A destroy: the last delete goes, the next is refused before anything is sent.
    const q = await make("posts:Post", { text: "Spelt." });
    forgetPreviewChecks();
    await call("posts:Post", "delete", [p.id, p.outs]);
    posts.log.splice(0);
    await expect(call("posts:Post", "delete", [q.id, q.outs])).rejects.toThrow(
      /has deleted 100 \(0 left\): post \w+ is not deleted, nor any other this run would delete.*all of it by \S+Z at the latest/,
    );
    expect(posts.log.filter((e) => e.method === "DELETE")).toEqual([]);
    expect(posts.posts.has(q.id)).toBe(true);
    forgetPreviewChecks();
  });

  it("recovers a publish whose answer was lost, for an image post too (matched by text and media type, not media URL)", async () => {
    posts.inject({ match: { method: "POST", path: "/threads_publish$" }, count: 1, kind: "status-after", status: 500 });
    const p = await make("posts:Post", { mediaType: "IMAGE", imageUrl: "https://media.example/rye.jpg", text: "Rye" });
    expect(posts.posts.size).toBe(1);
    expect(p.id).toBe([...posts.posts.keys()][0]);
  });

  it("ops:postsAdoptExisting takes over an image post published by a killed run, instead of publishing it twice", async () => {
    const first = await make("posts:Post", { mediaType: "IMAGE", imageUrl: "https://media.example/rye.jpg", text: "Rye" });
    process.env.POSTS_ADOPT_EXISTING = "true";
    try {
      const again = await make("posts:Post", { mediaType: "IMAGE", imageUrl: "https://media.example/rye.jpg", text: "Rye" });
      expect(again.id).toBe(first.id);
      expect(posts.posts.size).toBe(1);
    } finally {
      delete process.env.POSTS_ADOPT_EXISTING;
    }
  });

  it("a token of another account than the stack's posts fails the preview (diff) and refresh naming both accounts, and drops nothing from state (issue 57)", async () => {
    const p = await make("posts:Post", { text: "Mine." });
    process.env.POSTS_ACCESS_TOKEN = POSTS_OTHER_TOKEN;
    const both = /this stack's post \S+ belongs to @examplebakery, but the token is @otherbakery's.*token of @examplebakery/;
    await expect(call("posts:Post", "diff", [p.id, p.outs, p.inputs])).rejects.toThrow(both);
    await expect(call("posts:Post", "read", [p.id, p.outs])).rejects.toThrow(both);
    await expect(call("posts:Post", "delete", [p.id, p.outs])).rejects.toThrow(/@otherbakery's/);
    expect(posts.posts.size).toBe(1);
    process.env.POSTS_ACCESS_TOKEN = POSTS_USER_TOKEN;
    expect((await call("posts:Post", "diff", [p.id, p.outs, p.inputs])).changes).toBe(false);
  });

  it("refuses at check what the service would refuse, counting as the service counts", async () => {
    const check = (a: object) => call("posts:Post", "check", [{}, a]);
    expect((await check({ text: "x".repeat(501) })).failures[0]).toMatchObject({ property: "text", reason: expect.stringMatching(/500/) });
    // 125 emoji of 4 UTF-8 bytes are 500: allowed; one more character is not.
    expect((await check({ text: "🍞".repeat(125) })).failures).toEqual([]);
    expect((await check({ text: `${"🍞".repeat(125)}!` })).failures[0].reason).toMatch(/counts 501/);
    const links = (n: number) => Array.from({ length: n }, (_, i) => `https://bakery.example/${i}`).join(" ");
    expect((await check({ text: links(5) })).failures).toEqual([]);
    expect((await check({ text: links(6) })).failures[0]).toMatchObject({
      property: "text",
      reason: expect.stringMatching(/at most 5 distinct links and has 6/),
    });
    expect((await check({ mediaType: "IMAGE" })).failures[0].property).toBe("imageUrl");
    expect((await check({ mediaType: "TEXT", text: "hi", videoUrl: "https://media.example/v.mp4" })).failures[0].property).toBe("videoUrl");
    expect((await check({ mediaType: "VIDEO", videoUrl: "file:///etc/passwd" })).failures[0].property).toBe("videoUrl");
    expect(posts.log).toEqual([]);
  });
});

describe("the short-post API version", () => {
  it("is v1.0 unless told; a value that is not a version is refused with the fix", async () => {
    await make("posts:Post", { text: "Versioned." });
    expect(posts.log.filter((e) => e.path.startsWith("/v1.0/")).length).toBeGreaterThan(0);
    process.env.POSTS_API_VERSION = "1.0";
    try {
      await expect(make("posts:Post", { text: "Unversioned." })).rejects.toThrow(
        /ops:postsApiVersion must be a version such as v1\.0; got "1\.0"/,
      );
    } finally {
      delete process.env.POSTS_API_VERSION;
    }
  });
});

describe("the short-post token", () => {
  it("a long-lived token within a week of its expiry is refreshed for the run, in memory; the preview says when it expires", async () => {
    posts.tokens.get(POSTS_USER_TOKEN)!.expiresAt = Date.now() + 3 * 86_400_000;
    process.env.POSTS_TIMEOUT_SECONDS = "31"; // a client of its own: the token is settled once per run
    try {
      forgetPreviewChecks();
      const { result, warnings } = collectWarnings(() => previewCheck("posts:Post", undefined, { mediaType: "TEXT", text: "Still here." }));
      await result;
      expect(warnings).toEqual([
        expect.stringMatching(
          /^posts: the access token expires at \S+Z \(in 3\.0 days\); runs refresh it for themselves until then.*ops:postsAccessToken/,
        ),
      ]);
      expect(posts.count("GET", /^\/refresh_access_token$/)).toBe(1);
      // The configured token runs out during the run: the post is made on the refreshed one.
      posts.tokens.get(POSTS_USER_TOKEN)!.expiresAt = Date.now() - 1;
      await make("posts:Post", { text: "Still here." });
      expect(posts.posts.size).toBe(1);
      expect(posts.count("GET", /^\/refresh_access_token$/)).toBe(1);
    } finally {
      delete process.env.POSTS_TIMEOUT_SECONDS;
      forgetPreviewChecks();
    }
  });

  it("a token with weeks left is used as it is, its expiry said quietly", async () => {
    process.env.POSTS_TIMEOUT_SECONDS = "32";
    try {
      forgetPreviewChecks();
      const { result, warnings } = collectWarnings(() => previewCheck("posts:Post", undefined, { mediaType: "TEXT", text: "Weeks left." }));
      await result;
      expect(warnings).toEqual([]);
      expect(posts.count("GET", /^\/refresh_access_token$/)).toBe(0);
    } finally {
      delete process.env.POSTS_TIMEOUT_SECONDS;
      forgetPreviewChecks();
    }
  });

  it("with the app secret set, a short-lived token is exchanged once per run (th_exchange_token); a long-lived one is used as it is", async () => {
    Object.assign(process.env, { POSTS_ACCESS_TOKEN: POSTS_SHORT_TOKEN, THREADS_APP_SECRET: POSTS_APP.secret });
    try {
      await make("posts:Post", { text: "Exchanged." });
      await make("posts:Post", { text: "Once." });
      expect(posts.count("GET", /^\/access_token$/)).toBe(1);
      const long = [...posts.tokens.keys()].find((t) => t.startsWith("posts-long-"))!;
      expect(posts.log.filter((e) => e.path.startsWith("/v1.0/")).length).toBeGreaterThan(0);
      expect(long).toBeDefined();
      process.env.POSTS_ACCESS_TOKEN = POSTS_USER_TOKEN; // long-lived: the exchange is refused, the token kept
      await make("posts:Post", { text: "As it is." });
      expect(posts.posts.size).toBe(3);
    } finally {
      delete process.env.THREADS_APP_SECRET;
    }
  });
});

describe("the short-post functions", () => {
  it("getProfile reads the profile fields that exist; getPosts follows paging; getPostInsights and getPublishingLimit answer", async () => {
    const { getProfile, getPosts, getPostInsights, getPublishingLimit } = await import("../../provider/posts/functions");
    expect(await getProfile()).toMatchObject({ username: "examplebakery", threads_biography: "Bread since 1921" });
    publishedByHand(130, 5);
    const list = await getPosts({ limit: 120 });
    expect(list).toHaveLength(120);
    expect(posts.count("GET", /\/me\/threads$/)).toBe(2); // 100 a page, then the next page
    const p = await make("posts:Post", { text: "Counted." });
    await fetch(`${posts.url}/__emulator/posts/engagement`, { method: "POST", body: JSON.stringify({ id: p.id, views: 40, likes: 3 }) });
    expect(await getPostInsights({ postId: p.id, metrics: ["views", "likes"] })).toEqual({ views: 40, likes: 3 });
    expect(await getPublishingLimit()).toEqual({ quotaUsage: 131, quotaTotal: 250, quotaDurationSeconds: 86_400 });
  });
});

describe("WebhookSubscription", () => {
  it("is refused at check: the service has no API for it; a 0.3.0 one leaves state on destroy with nothing sent", async () => {
    const { failures } = await call("posts:WebhookSubscription", "check", [
      {},
      { appId: "400000000000001", callbackUrl: "https://hooks.example/posts", fields: ["mentions"], verifyToken: "verify-me-please" },
    ]);
    expect(failures).toEqual([
      {
        property: "",
        reason: expect.stringMatching(/no API for webhook subscriptions.*app dashboard.*replies, delete, mentions or publish/),
      },
    ]);
    const old = {
      appId: "400000000000001",
      object: "posts",
      callbackUrl: "https://hooks.example/posts",
      fields: ["mentions"],
      verifyToken: "verify-me-please",
    };
    expect(await call("posts:WebhookSubscription", "read", ["400000000000001/posts", old])).toEqual({
      id: "400000000000001/posts",
      props: old,
    });
    await call("posts:WebhookSubscription", "delete", ["400000000000001/posts", old]);
    expect(posts.log).toEqual([]);
  });
});

/** The page-management and short-post emulators' own contract. */
import { describe, expect, it } from "vitest";
import {
  PAGE_ID,
  PAGES_APP,
  PAGES_PAGE_TOKEN,
  PAGES_USER_TOKEN,
  PagesEmulator,
  POSTS_APP,
  POSTS_AUTH_CODE,
  POSTS_SHORT_TOKEN,
  POSTS_USER_TOKEN,
  PUBLISH_QUOTA,
} from "../../emulators";
import { useSocial } from "../helpers/social";

const { pages, posts } = useSocial();
const g = async (path: string, init: RequestInit = {}) => {
  const res = await fetch(`${pages.url}/v26.0${path}`, init);
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
};
const form = (o: Record<string, string>) => ({
  method: "POST",
  body: new URLSearchParams(o),
  headers: { "content-type": "application/x-www-form-urlencoded" },
});

describe("page-management emulator", () => {
  it("lists the user's pages with page tokens, describes tokens, exchanges for a long-lived one", async () => {
    const accounts = await g(`/me/accounts?access_token=${PAGES_USER_TOKEN}`);
    expect(accounts.body.data[0]).toMatchObject({ id: PAGE_ID, access_token: PAGES_PAGE_TOKEN });
    const debug = await g(`/debug_token?input_token=${PAGES_PAGE_TOKEN}&access_token=${PAGES_APP.id}|${PAGES_APP.secret}`);
    expect(debug.body.data).toMatchObject({ type: "PAGE", is_valid: true, profile_id: PAGE_ID });
    const long = await g(
      `/oauth/access_token?grant_type=pg_exchange_token&client_id=${PAGES_APP.id}&client_secret=${PAGES_APP.secret}&pg_exchange_token=${PAGES_USER_TOKEN}`,
    );
    expect(long.body).toMatchObject({ token_type: "bearer", expires_in: 5184000 });
  });

  it("answers a batch in order, each item on its own, and refuses more than 50", async () => {
    const batch = JSON.stringify([
      { method: "GET", relative_url: `${PAGE_ID}?fields=name` },
      { method: "GET", relative_url: "999?fields=name" },
    ]);
    const res = await g("/", form({ batch, access_token: PAGES_PAGE_TOKEN }));
    expect(res.body.map((i: { code: number }) => i.code)).toEqual([200, 400]);
    expect(JSON.parse(res.body[1].body).error).toMatchObject({ code: 100, error_subcode: 33 });
    const big = JSON.stringify(Array.from({ length: 51 }, () => ({ method: "GET", relative_url: PAGE_ID })));
    expect((await g("/", form({ batch: big, access_token: PAGES_PAGE_TOKEN }))).body.error.message).toMatch(/Maximum batch size is 50/);
  });

  it("counts a page token's calls under the page's own allowance and a user token's under the user's and the app's, apart, each refusal with its code and header (issue 57)", async () => {
    const tight = await new PagesEmulator({ limits: { perUserPerHour: 2, perAppPerHour: 3, perPagePerDay: 3 } }).start();
    try {
      const page = () => fetch(`${tight.url}/v26.0/${PAGE_ID}?access_token=${PAGES_PAGE_TOKEN}`);
      const first = await page();
      expect(first.headers.get("x-app-usage")).toBeNull();
      expect(JSON.parse(first.headers.get("x-business-use-case-usage")!)[PAGE_ID][0]).toMatchObject({ type: "pages", call_count: 33 });
      await page();
      await page();
      const refused = await page();
      expect(((await refused.json()) as any).error).toMatchObject({
        code: 80001,
        message: expect.stringMatching(/^\(#80001\) There have been too many calls to this Page account/),
      });
      expect(JSON.parse(refused.headers.get("x-business-use-case-usage")!)[PAGE_ID][0]).toMatchObject({
        call_count: 100,
        estimated_time_to_regain_access: expect.any(Number),
      });
      // The page's calls are not the user's: the user still has its two.
      const user = () => fetch(`${tight.url}/v26.0/me/accounts?access_token=${PAGES_USER_TOKEN}`);
      expect((await user()).status).toBe(200);
      expect((await user()).status).toBe(200);
      const over = await user();
      expect(((await over.json()) as any).error).toMatchObject({ code: 17, message: "(#17) User request limit reached" });
      expect(JSON.parse(over.headers.get("x-app-usage")!).call_count).toBe(100);
      // A Pages API call with the user token over that allowance: the page call's code (32).
      expect(((await (await fetch(`${tight.url}/v26.0/${PAGE_ID}?access_token=${PAGES_USER_TOKEN}`)).json()) as any).error).toMatchObject({
        code: 32,
        message: "(#32) Page request limit reached",
      });
    } finally {
      await tight.stop();
    }
  });

  it("takes videos and events, and refuses a post without the posting permission", async () => {
    expect(
      (
        await g(
          `/${PAGE_ID}/videos`,
          form({ file_url: "https://media.example/v.mp4", description: "tour", access_token: PAGES_PAGE_TOKEN }),
        )
      ).status,
    ).toBe(200);
    expect(
      (await g(`/${PAGE_ID}/events`, form({ name: "Open day", start_time: "2026-12-01T10:00:00Z", access_token: PAGES_PAGE_TOKEN })))
        .status,
    ).toBe(200);
    const denied = await g(`/${PAGE_ID}/feed`, form({ message: "hi", access_token: "pages-moderator-token-0123" }));
    expect(denied.status).toBe(403);
    expect(denied.body.error.message).toMatch(/pages_manage_posts/);
  });
});

describe("short-post emulator (the Threads API as it is today)", () => {
  const p = async (path: string, init: RequestInit = {}) => {
    const res = await fetch(`${posts.url}${path}`, { ...init, headers: { authorization: `Bearer ${POSTS_USER_TOKEN}`, ...init.headers } });
    return { status: res.status, body: (await res.json()) as any };
  };
  const bare = async (path: string, init: RequestInit = {}) => {
    const res = await fetch(`${posts.url}${path}`, init);
    return { status: res.status, body: (await res.json()) as any };
  };

  it("gives a short-lived token for a code, exchanges it for a long-lived one (th_exchange_token) and refreshes that (th_refresh_token)", async () => {
    const code = await bare(
      "/oauth/access_token",
      form({
        client_id: POSTS_APP.id,
        client_secret: POSTS_APP.secret,
        grant_type: "authorization_code",
        redirect_uri: "https://x.example/cb",
        code: POSTS_AUTH_CODE,
      }),
    );
    expect(code.body).toMatchObject({ access_token: POSTS_SHORT_TOKEN });
    const long = await bare(
      `/access_token?grant_type=th_exchange_token&client_secret=${POSTS_APP.secret}&access_token=${POSTS_SHORT_TOKEN}`,
    );
    expect(long.body).toMatchObject({ token_type: "bearer", expires_in: 5_183_944 });
    // A long-lived token is refreshed once it is a day old, and before it expires (Threads "Long-Lived Access Tokens").
    expect(
      (await bare(`/refresh_access_token?grant_type=th_refresh_token&access_token=${long.body.access_token}`)).body.error.message,
    ).toMatch(/less than 24 hours old/);
    posts.clockOffsetMs = 86_400_000 + 1000;
    const refreshed = await bare(`/refresh_access_token?grant_type=th_refresh_token&access_token=${long.body.access_token}`);
    expect(refreshed.body.access_token).toMatch(/^posts-long-/);
    posts.clockOffsetMs = 61 * 86_400_000;
    expect((await bare(`/refresh_access_token?grant_type=th_refresh_token&access_token=${long.body.access_token}`)).body.error.code).toBe(
      190,
    );
    posts.clockOffsetMs = 0;
    expect(
      (await bare(`/access_token?grant_type=th_exchange_token&client_secret=wrong&access_token=${POSTS_SHORT_TOKEN}`)).body.error.code,
    ).toBe(101);
  });

  it("takes the token as a bearer header, a query parameter or a form field", async () => {
    expect((await bare(`/v1.0/me?fields=id&access_token=${POSTS_USER_TOKEN}`)).body.id).toBe("500000000000001");
    expect((await bare("/v1.0/me/threads", form({ media_type: "TEXT", text: "hi", access_token: POSTS_USER_TOKEN }))).status).toBe(200);
    expect((await bare("/v1.0/me?fields=id")).body.error.code).toBe(190);
  });

  it("refuses fields and edges the service does not have with its (#100) errors", async () => {
    expect((await p("/v1.0/me?fields=id,posts_biography")).body.error).toMatchObject({
      code: 100,
      type: "THApiException",
      message: expect.stringMatching(/nonexisting field \(posts_biography\)/),
    });
    expect((await p("/v1.0/me?fields=id,threads_biography")).body).toEqual({
      id: "500000000000001",
      threads_biography: "Bread since 1921",
    });
    expect((await p("/v1.0/me/posts", form({ media_type: "TEXT", text: "hi" }))).body.error).toMatchObject({
      code: 100,
      error_subcode: 33,
    });
    expect((await p("/v1.0/400000000000001/subscriptions", form({ object: "posts" }))).body.error).toMatchObject({
      code: 100,
      error_subcode: 33,
    });
    const c = await p("/v1.0/me/threads", form({ media_type: "TEXT", text: "hi" }));
    const post = await p("/v1.0/me/threads_publish", form({ creation_id: c.body.id }));
    expect((await p(`/v1.0/${post.body.id}?fields=id,like_count`)).body.error.message).toMatch(
      /nonexisting field \(like_count\) on node type \(ThreadsMedia\)/,
    );
    expect((await p(`/v1.0/${post.body.id}/insights?metric=views,likes`)).body.data.map((m: { name: string }) => m.name)).toEqual([
      "views",
      "likes",
    ]);
    expect((await p(`/v1.0/${post.body.id}/insights?metric=impressions`)).body.error.code).toBe(100);
  });

  it("moves a media container from IN_PROGRESS to FINISHED, refuses an early publish (24/4279009) and a second one", async () => {
    const c = await p("/v1.0/me/threads", form({ media_type: "IMAGE", image_url: "https://media.example/a.jpg" }));
    expect((await p(`/v1.0/${c.body.id}?fields=status`)).body.status).toBe("IN_PROGRESS");
    expect((await p("/v1.0/me/threads_publish", form({ creation_id: c.body.id }))).body.error).toMatchObject({
      code: 24,
      error_subcode: 4279009,
    });
    posts.clockOffsetMs = 1000;
    expect((await p(`/v1.0/${c.body.id}?fields=status`)).body.status).toBe("FINISHED");
    const published = await p("/v1.0/me/threads_publish", form({ creation_id: c.body.id }));
    expect(published.status).toBe(200);
    expect((await p(`/v1.0/${published.body.id}?fields=media_type,media_url`)).body).toMatchObject({
      media_type: "IMAGE",
      media_url: expect.stringMatching(/^https:\/\/scontent\.cdninstagram\.com\//),
    });
    expect((await p("/v1.0/me/threads_publish", form({ creation_id: c.body.id }))).body.error.code).toBe(100);
    const c2 = await p("/v1.0/me/threads", form({ media_type: "TEXT", text: "again" }));
    posts.clockOffsetMs = 25 * 3600 * 1000;
    expect((await p(`/v1.0/${c2.body.id}?fields=status`)).body.status).toBe("EXPIRED");
  });

  it("counts 250 posts per 24 hours, tells the quota, and lists newest first in pages with an absolute paging.next", async () => {
    for (let i = 0; i < PUBLISH_QUOTA; i++)
      posts.posts.set(String(7e15 + i), {
        id: String(7e15 + i),
        media_type: "TEXT",
        text: `t${i}`,
        timestamp: Date.now() - 3600_000 + i,
        shortcode: `S${i}`,
        views: 0,
        likes: 0,
      });
    expect((await p("/v1.0/me/threads_publishing_limit?fields=quota_usage,config")).body).toEqual({
      data: [{ quota_usage: 250, config: { quota_total: 250, quota_duration: 86_400 } }],
    });
    const c = await p("/v1.0/me/threads", form({ media_type: "TEXT", text: "one too many" }));
    expect((await p("/v1.0/me/threads_publish", form({ creation_id: c.body.id }))).body.error).toMatchObject({ code: 4 });
    const first = await p("/v1.0/me/threads?fields=id,text&limit=100");
    expect(first.body.data).toHaveLength(100);
    expect(first.body.data[0].text).toBe("t249");
    const next = new URL(first.body.paging.next);
    expect(next.origin).toBe(posts.url);
    const second = await p(`${next.pathname}${next.search}`);
    expect(second.body.data[0].text).toBe("t149");
  });

  it("counts a post published and then deleted in the day's quota, as the service counts API-published posts in its window (issue 57)", async () => {
    const c = await p("/v1.0/me/threads", form({ media_type: "TEXT", text: "gone soon" }));
    posts.clockOffsetMs += 10_000;
    const published = await p("/v1.0/me/threads_publish", form({ creation_id: c.body.id }));
    const usage = async () => (await p("/v1.0/me/threads_publishing_limit?fields=quota_usage,delete_quota_usage")).body.data[0];
    const before = await usage();
    expect((await p(`/v1.0/${published.body.id}`, { method: "DELETE" })).status).toBe(200);
    expect(await usage()).toEqual({ quota_usage: before.quota_usage, delete_quota_usage: before.delete_quota_usage + 1 });
    posts.clockOffsetMs += 25 * 3600_000; // out of the window
    expect((await usage()).quota_usage).toBe(before.quota_usage - 1);
  });

  it("ends unreachable, oversized and overlong media in ERROR with a reason; refuses text over 500 (emoji as bytes) and over 5 links", async () => {
    const make = (o: Record<string, string>) => p("/v1.0/me/threads", form(o));
    const ids = [
      (await make({ media_type: "IMAGE", image_url: "https://unreachable.example/a.jpg" })).body.id,
      (await make({ media_type: "IMAGE", image_url: "https://media.example/a.jpg?bytes=9000000" })).body.id,
      (await make({ media_type: "VIDEO", video_url: "https://media.example/v.mp4?seconds=400" })).body.id,
    ];
    posts.clockOffsetMs = 1000;
    const reasons = await Promise.all(ids.map(async (id) => (await p(`/v1.0/${id}?fields=status,error_message`)).body));
    expect(reasons.map((r) => r.status)).toEqual(["ERROR", "ERROR", "ERROR"]);
    expect(reasons.map((r) => r.error_message)).toEqual([
      expect.stringMatching(/not publicly reachable/),
      expect.stringMatching(/8 MB/),
      expect.stringMatching(/INVALID_DURATION/),
    ]);
    expect((await make({ media_type: "TEXT", text: "x".repeat(501) })).body.error.message).toMatch(/500 characters/);
    expect((await make({ media_type: "TEXT", text: "🍞".repeat(126) })).body.error.message).toMatch(/500 characters/);
    expect((await make({ media_type: "TEXT", text: "🍞".repeat(125) })).status).toBe(200);
    expect(
      (await make({ media_type: "TEXT", text: Array.from({ length: 6 }, (_, i) => `https://a.example/${i}`).join(" ") })).body.error
        .message,
    ).toMatch(/LINK_LIMIT_EXCEEDED/);
  });
});

describe("page-management emulator: API versions", () => {
  it("serves every live version, answers an expired one as the oldest live version, and says which answered", async () => {
    const at = async (v: string) => {
      const res = await fetch(`${pages.url}/${v}/me?access_token=${PAGES_PAGE_TOKEN}`);
      return { status: res.status, served: res.headers.get("facebook-api-version"), body: (await res.json()) as any };
    };
    expect(await at("v26.0")).toMatchObject({ status: 200, served: "v26.0" });
    expect(await at("v21.0")).toMatchObject({ status: 200, served: "v21.0" });
    expect(await at("v18.0")).toMatchObject({ status: 200, served: "v21.0" }); // expired 2026-01-26
    pages.clockOffsetMs = Date.parse("2027-02-01") - Date.now(); // v21.0 expired too
    expect(await at("v21.0")).toMatchObject({ status: 200, served: "v22.0" });
    expect((await at("v99.0")).body.error.code).toBe(2635);
  });
});

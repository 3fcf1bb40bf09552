/** The page-management and short-post emulators' own contract. */
import { describe, expect, it } from "vitest";
import { PAGE_ID, PAGES_APP, PAGES_PAGE_TOKEN, PAGES_USER_TOKEN, PagesEmulator, POSTS_APP, POSTS_AUTH_CODE, POSTS_REFRESH_TOKEN, POSTS_USER_TOKEN } from "../../emulators";
import { useSocial } from "../helpers/social";

const { pages, posts } = useSocial();
const g = async (path: string, init: RequestInit = {}) => {
  const res = await fetch(`${pages.url}/v18.0${path}`, init);
  return { status: res.status, headers: res.headers, body: await res.json() };
};
const form = (o: Record<string, string>) => ({ method: "POST", body: new URLSearchParams(o), headers: { "content-type": "application/x-www-form-urlencoded" } });

describe("page-management emulator", () => {
  it("lists the user's pages with page tokens, describes tokens, exchanges for a long-lived one", async () => {
    const accounts = await g(`/me/accounts?access_token=${PAGES_USER_TOKEN}`);
    expect(accounts.body.data[0]).toMatchObject({ id: PAGE_ID, access_token: PAGES_PAGE_TOKEN });
    const debug = await g(`/debug_token?input_token=${PAGES_PAGE_TOKEN}&access_token=${PAGES_APP.id}|${PAGES_APP.secret}`);
    expect(debug.body.data).toMatchObject({ type: "PAGE", is_valid: true, profile_id: PAGE_ID });
    const long = await g(`/oauth/access_token?grant_type=pg_exchange_token&client_id=${PAGES_APP.id}&client_secret=${PAGES_APP.secret}&pg_exchange_token=${PAGES_USER_TOKEN}`);
    expect(long.body).toMatchObject({ token_type: "bearer", expires_in: 5184000 });
  });

  it("answers a batch in order, each item on its own, and refuses more than 50", async () => {
    const batch = JSON.stringify([{ method: "GET", relative_url: `${PAGE_ID}?fields=name` }, { method: "GET", relative_url: "999?fields=name" }]);
    const res = await g("/", form({ batch, access_token: PAGES_PAGE_TOKEN }));
    expect(res.body.map((i: { code: number }) => i.code)).toEqual([200, 400]);
    expect(JSON.parse(res.body[1].body).error).toMatchObject({ code: 100, error_subcode: 33 });
    const big = JSON.stringify(Array.from({ length: 51 }, () => ({ method: "GET", relative_url: PAGE_ID })));
    expect((await g("/", form({ batch: big, access_token: PAGES_PAGE_TOKEN }))).body.error.message).toMatch(/Maximum batch size is 50/);
  });

  it("enforces the call limits with usage headers and the document's message", async () => {
    const tight = await new PagesEmulator({ limits: { perUserPerHour: 2, perAppPerHour: 3 } }).start();
    try {
      const call = () => fetch(`${tight.url}/v18.0/${PAGE_ID}?access_token=${PAGES_PAGE_TOKEN}`);
      const first = await call();
      expect(JSON.parse(first.headers.get("x-app-usage")!).call_count).toBe(33);
      await call();
      await call();
      const refused = await (await call()).json();
      expect(refused.error).toMatchObject({ code: 4, message: "(#4) Application request limit reached" });
      const user = () => fetch(`${tight.url}/v18.0/me/accounts?access_token=${PAGES_USER_TOKEN}`);
      await user();
      await user();
      expect((await (await user()).json()).error.code).toBe(17);
    } finally {
      await tight.stop();
    }
  });

  it("takes videos and events, and refuses a post without the posting permission", async () => {
    expect((await g(`/${PAGE_ID}/videos`, form({ file_url: "https://media.example/v.mp4", description: "tour", access_token: PAGES_PAGE_TOKEN }))).status).toBe(200);
    expect((await g(`/${PAGE_ID}/events`, form({ name: "Open day", start_time: "2026-12-01T10:00:00Z", access_token: PAGES_PAGE_TOKEN }))).status).toBe(200);
    const denied = await g(`/${PAGE_ID}/feed`, form({ message: "hi", access_token: "pages-moderator-token-0123" }));
    expect(denied.status).toBe(403);
    expect(denied.body.error.message).toMatch(/pages_manage_posts/);
  });
});

describe("short-post emulator", () => {
  const p = async (path: string, init: RequestInit = {}) => {
    const res = await fetch(`${posts.url}${path}`, { ...init, headers: { authorization: `Bearer ${POSTS_USER_TOKEN}`, ...init.headers } });
    return { status: res.status, body: await res.json() };
  };

  it("exchanges an authorization code and refreshes a token", async () => {
    const code = await p("/oauth/access_token", form({ client_id: POSTS_APP.id, client_secret: POSTS_APP.secret, grant_type: "authorization_code", redirect_uri: "https://x.example/cb", code: POSTS_AUTH_CODE }));
    expect(code.body).toMatchObject({ access_token: POSTS_USER_TOKEN });
    const refreshed = await p(`/refresh_access_token?grant_type=th_refresh_token&refresh_token=${POSTS_REFRESH_TOKEN}`);
    expect(refreshed.body.access_token).toMatch(/^posts-refreshed-/);
  });

  it("moves a container from IN_PROGRESS to FINISHED, refuses early and too-close publishes", async () => {
    const c = await p("/v1.0/me/posts", form({ media_type: "TEXT", text: "hi" }));
    expect((await p(`/v1.0/${c.body.id}?fields=status`)).body.status).toBe("IN_PROGRESS");
    expect((await p("/v1.0/me/posts_publish", form({ creation_id: c.body.id }))).body.error.code).toBe(24);
    posts.clockOffsetMs = 1000;
    expect((await p(`/v1.0/${c.body.id}?fields=status`)).body.status).toBe("FINISHED");
    expect((await p("/v1.0/me/posts_publish", form({ creation_id: c.body.id }))).status).toBe(200);
    const c2 = await p("/v1.0/me/posts", form({ media_type: "TEXT", text: "again" }));
    posts.clockOffsetMs = 2000;
    const tooSoon = await p("/v1.0/me/posts_publish", form({ creation_id: c2.body.id }));
    expect(tooSoon).toMatchObject({ status: 429, body: { error: { code: 4 } } });
    posts.clockOffsetMs = 25 * 3600 * 1000;
    expect((await p(`/v1.0/${c2.body.id}?fields=status`)).body.status).toBe("EXPIRED");
  });

  it("ends unreachable, oversized and overlong media in ERROR with a reason", async () => {
    const make = (o: Record<string, string>) => p("/v1.0/me/posts", form(o));
    const ids = [
      (await make({ media_type: "IMAGE", image_url: "https://unreachable.example/a.jpg" })).body.id,
      (await make({ media_type: "VIDEO", video_url: "https://media.example/v.mp4?bytes=200000000" })).body.id,
      (await make({ media_type: "VIDEO", video_url: "https://media.example/v.mp4?seconds=90" })).body.id,
    ];
    posts.clockOffsetMs = 1000;
    const reasons = await Promise.all(ids.map(async (id) => (await p(`/v1.0/${id}?fields=status,error_message`)).body));
    expect(reasons.map((r) => r.status)).toEqual(["ERROR", "ERROR", "ERROR"]);
    expect(reasons.map((r) => r.error_message)).toEqual([expect.stringMatching(/not publicly reachable/), expect.stringMatching(/100 MB/), expect.stringMatching(/60 seconds/)]);
    expect((await make({ media_type: "TEXT", text: "x".repeat(501) })).body.error.message).toMatch(/500 characters/);
  });
});

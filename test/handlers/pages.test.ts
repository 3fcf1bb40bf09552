import { describe, expect, it } from "vitest";
import { PAGE_ID, PAGES_EXPIRED_TOKEN, PAGES_MODERATOR_TOKEN, PAGES_USER_TOKEN, PagesEmulator } from "../../emulators";
import { call } from "../../provider/door";
import { collectWarnings } from "../../provider/log";
import { forgetPreviewChecks, previewCheck } from "../../provider/preflight";
import { useSocial } from "../helpers/social";

const { pages } = useSocial();
const BOB = "300000000000003";

async function make(type: string, args: Record<string, unknown>) {
  const { inputs, failures } = await call(type, "check", [{}, args]);
  expect(failures).toEqual([]);
  return { inputs, ...(await call(type, "create", [inputs])) };
}

describe("PageRole", () => {
  it("sets, changes in place, reports drift and removes a role", async () => {
    const r = await make("pages:PageRole", { pageId: PAGE_ID, user: BOB, role: "MODERATOR" });
    expect(r.id).toBe(`${PAGE_ID}/${BOB}`);
    expect(pages.pages.get(PAGE_ID)!.roles.get(BOB)).toBe("MODERATOR");
    expect(await call("pages:PageRole", "diff", [r.id, r.outs, { ...r.inputs, role: "EDITOR" }])).toMatchObject({ changes: true, replaces: [] });
    await call("pages:PageRole", "update", [r.id, r.outs, { ...r.inputs, role: "EDITOR" }]);
    pages.pages.get(PAGE_ID)!.roles.set(BOB, "ANALYST");
    expect((await call("pages:PageRole", "read", [r.id, r.outs])).inputs.role).toBe("ANALYST");
    await call("pages:PageRole", "delete", [r.id, r.outs]);
    await call("pages:PageRole", "delete", [r.id, r.outs]);
    expect(await call("pages:PageRole", "read", [r.id, r.outs])).toEqual({});
  });

  it("says clearly when the token cannot manage roles", async () => {
    process.env.PAGES_ACCESS_TOKEN = PAGES_MODERATOR_TOKEN;
    await expect(make("pages:PageRole", { pageId: PAGE_ID, user: BOB, role: "EDITOR" })).rejects.toThrow(/Insufficient privileges.*(ADMIN|pages_manage_metadata)/);
  });

  it("derives the page token from a user token once per run, and names what it used", async () => {
    process.env.PAGES_ACCESS_TOKEN = PAGES_USER_TOKEN;
    await make("pages:PageRole", { pageId: PAGE_ID, user: BOB, role: "EDITOR" });
    await make("pages:PageSubscription", { pageId: PAGE_ID, subscribedFields: ["feed"] });
    expect(pages.count("GET", /\/me\/accounts$/)).toBe(1);
  });

  it("explains an expired token (190) with the remedy", async () => {
    process.env.PAGES_ACCESS_TOKEN = PAGES_EXPIRED_TOKEN;
    await expect(make("pages:PageRole", { pageId: PAGE_ID, user: BOB, role: "EDITOR" })).rejects.toThrow(/code 190.*The token expired \(190\/463\): get a new one.*ops:pagesAccessToken/);
  });
});

describe("PageSubscription", () => {
  it("replaces the app's field set, in any order, and unsubscribes", async () => {
    const s = await make("pages:PageSubscription", { pageId: PAGE_ID, subscribedFields: ["messages", "feed", "feed"] });
    expect(s.outs.subscribedFields).toEqual(["feed", "messages"]);
    const news = (await call("pages:PageSubscription", "check", [{}, { pageId: PAGE_ID, subscribedFields: ["feed", "messages"] }])).inputs;
    expect((await call("pages:PageSubscription", "diff", [s.id, s.outs, news])).changes).toBe(false);
    await call("pages:PageSubscription", "update", [s.id, s.outs, { pageId: PAGE_ID, subscribedFields: ["messaging_postbacks"] }]);
    expect([...pages.pages.get(PAGE_ID)!.apps.values()]).toEqual([["messaging_postbacks"]]);
    await call("pages:PageSubscription", "delete", [s.id, s.outs]);
    expect(pages.pages.get(PAGE_ID)!.apps.size).toBe(0);
  });
});

describe("PagePost", () => {
  const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;

  it("publishes, edits the message in place, and deletes", async () => {
    const p = await make("pages:PagePost", { pageId: PAGE_ID, message: "Fresh bread at 7" });
    expect(p.outs.state).toBe("published");
    const news = { ...p.inputs, message: "Fresh bread at 6" };
    expect(await call("pages:PagePost", "diff", [p.id, p.outs, news])).toMatchObject({ changes: true, replaces: [] });
    await call("pages:PagePost", "update", [p.id, p.outs, news]);
    expect(pages.posts.get(p.id)!.message).toBe("Fresh bread at 6");
    expect(await call("pages:PagePost", "diff", [p.id, p.outs, { ...news, link: "https://bakery.example" }])).toMatchObject({ replaces: ["link"] });
    await call("pages:PagePost", "delete", [p.id, p.outs]);
    await call("pages:PagePost", "delete", [p.id, p.outs]);
    expect(pages.posts.size).toBe(0);
  });

  it("schedules a post whose state refresh follows to published; keeps a draft a draft", async () => {
    const s = await make("pages:PagePost", { pageId: PAGE_ID, message: "Soon", published: false, scheduledPublishTime: inAnHour() });
    const d = await make("pages:PagePost", { pageId: PAGE_ID, message: "Draft", published: false });
    expect([s.outs.state, d.outs.state]).toEqual(["scheduled", "draft"]);
    pages.clockOffsetMs = 2 * 3600 * 1000;
    expect((await call("pages:PagePost", "read", [s.id, s.outs])).props.state).toBe("published");
    expect((await call("pages:PagePost", "read", [d.id, d.outs])).props.state).toBe("draft");
  });

  it("checks the schedule at preview, but only for a new or changed time", async () => {
    const soon = Math.floor(Date.now() / 1000) + 60;
    const bad = await call("pages:PagePost", "check", [{}, { pageId: PAGE_ID, message: "x", published: false, scheduledPublishTime: soon }]);
    expect(bad.failures).toEqual([{ property: "scheduledPublishTime", reason: expect.stringMatching(/at least 10 minutes ahead/) }]);
    const kept = await call("pages:PagePost", "check", [{ scheduledPublishTime: soon }, { pageId: PAGE_ID, message: "x", published: false, scheduledPublishTime: soon }]);
    expect(kept.failures).toEqual([]);
    const far = await call("pages:PagePost", "check", [{}, { pageId: PAGE_ID, message: "x", published: false, scheduledPublishTime: "2099-01-01T00:00:00Z" }]);
    expect(far.failures[0].reason).toMatch(/at most 75 days/);
    const published = await call("pages:PagePost", "check", [{}, { pageId: PAGE_ID, message: "x", scheduledPublishTime: inAnHour() }]);
    expect(published.failures[0]).toMatchObject({ property: "published", reason: expect.stringMatching(/published: false/) });
    expect(pages.log).toEqual([]);
  });

  it("posts one photo by URL and several as attached media", async () => {
    const one = await make("pages:PagePost", { pageId: PAGE_ID, message: "Our loaf", photo: { url: "https://media.example/loaf.jpg" } });
    expect(pages.posts.get(one.id)!.photos).toEqual(["https://media.example/loaf.jpg"]);
    const many = await make("pages:PagePost", { pageId: PAGE_ID, message: "The shop", photos: ["https://media.example/a.jpg", "https://media.example/b.jpg"] });
    expect(pages.posts.get(many.id)!.photos).toHaveLength(2);
  });

  it("passes a content-policy refusal through with its remedy", async () => {
    await expect(make("pages:PagePost", { pageId: PAGE_ID, message: "FREE MONEY click here now" })).rejects.toThrow(/Content policy violation.*change it/);
  });

  it("waits out the throttling code and converges", async () => {
    pages.inject({ match: { method: "POST", path: "/feed$" }, count: 1, kind: "status", status: 429 });
    const p = await make("pages:PagePost", { pageId: PAGE_ID, message: "after a wait" });
    expect(pages.posts.has(p.id)).toBe(true);
    expect(pages.count("POST", /\/feed$/)).toBe(2);
  });
});

describe("pages functions", () => {
  it("send reads of the same moment as one batch call", async () => {
    const fns = await import("../../provider/pages/functions");
    await make("pages:PagePost", { pageId: PAGE_ID, message: "hello" });
    pages.log.splice(0);
    const [page, insights, posts] = await Promise.all([
      fns.getPage({ pageId: PAGE_ID }),
      fns.getPageInsights({ pageId: PAGE_ID, metrics: ["page_fans", "page_views"], since: "2026-11-01", until: "2026-11-03" }),
      fns.getPosts({ pageId: PAGE_ID }),
    ]);
    expect(page.name).toBe("Example Bakery");
    expect(insights.map((m) => m.values.length)).toEqual([3, 3]);
    expect(posts).toHaveLength(1);
    expect(pages.log.map((e) => `${e.method} ${e.path}`)).toEqual(["POST /v26.0/"]); // three reads, one request
    expect(await fns.getRateLimitInfo()).toMatchObject({ call_limit: 4800 });
    await expect(fns.getPageInsights({ pageId: PAGE_ID, metrics: ["page_fans"], since: "Nov 1" })).rejects.toThrow(/YYYY-MM-DD/);
  });
});

describe("PagePost with a local photo", () => {
  it("uploads the file as multipart/form-data source", async () => {
    const { mkdtempSync, writeFileSync } = await import("node:fs");
    const dir = mkdtempSync(`${(await import("node:os")).tmpdir()}/photo-`);
    writeFileSync(`${dir}/loaf.jpg`, Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4]));
    const p = await make("pages:PagePost", { pageId: PAGE_ID, message: "From disk", photo: { file: `${dir}/loaf.jpg` } });
    expect(pages.posts.get(p.id)!.photos[0]).toMatch(/uploads\/.*-loaf\.jpg$/);
    const missing = await call("pages:PagePost", "check", [{}, { pageId: PAGE_ID, message: "x", photo: { file: `${dir}/nope.jpg` } }]);
    expect(missing.failures[0]).toMatchObject({ property: "photo", reason: expect.stringMatching(/does not exist/) });
  });
});

describe("a create that succeeded but could not finish", () => {
  it("hands the engine the post's id and __provider instead of orphaning it", async () => {
    const { inputs } = await call("pages:PagePost", "check", [{}, { pageId: PAGE_ID, message: "Half-finished" }]);
    pages.inject({ match: { method: "GET", path: `^/v26\\.0/${PAGE_ID}_` }, count: 10, kind: "status", status: 500 });
    const err = await call("pages:PagePost", "create", [{ ...inputs, __provider: "serialized-provider" }]).catch((e) => e);
    const made = [...pages.posts.keys()];
    expect(made).toHaveLength(1);
    expect(err.message).toMatch(/was made, but reading it back failed/);
    expect(err.id).toBe(made[0]);
    expect(err.properties).toMatchObject({ pageId: PAGE_ID, message: "Half-finished", __provider: "serialized-provider" });
  });
});

describe("the user's hourly allowance (code 17)", () => {
  it("once the page token cannot be derived for it, later calls fail at once with the remedy instead of waiting again", async () => {
    const limited = await new PagesEmulator({ limits: { perUserPerHour: 0, perAppPerHour: 4800 } }).start();
    try {
      Object.assign(process.env, { PAGES_BASE_URL: limited.url, PAGES_ACCESS_TOKEN: PAGES_USER_TOKEN, PAGES_MAX_RETRIES: "0" });
      await expect(make("pages:PageRole", { pageId: PAGE_ID, user: BOB, role: "EDITOR" })).rejects.toThrow(/User request limit reached.*run again later/);
      await expect(make("pages:PageSubscription", { pageId: PAGE_ID, subscribedFields: ["feed"] })).rejects.toThrow(/User request limit reached/);
      expect(limited.count("GET", /\/me$/)).toBe(1);
    } finally {
      await limited.stop();
    }
  });
});

describe("the API version", () => {
  it("is v26.0 unless told; an expired one is warned about at preview, once, and its calls are answered as the oldest live version", async () => {
    await make("pages:PageSubscription", { pageId: PAGE_ID, subscribedFields: ["feed"] });
    expect(pages.log.every((e) => e.path.startsWith("/v26.0/"))).toBe(true);
    process.env.PAGES_API_VERSION = "v18.0";
    try {
      forgetPreviewChecks();
      const { result, warnings } = collectWarnings(async () => {
        for (let i = 0; i < 2; i++) await previewCheck("pages:PageSubscription", undefined, { pageId: PAGE_ID, subscribedFields: ["feed"] });
      });
      await result;
      expect(warnings).toEqual([expect.stringMatching(/API version v18\.0 expired on 2026-01-26: the service answers its calls as the oldest live version \(v21\.0\).*Set ops:pagesApiVersion to v26\.0/)]);
      pages.log.splice(0);
      await make("pages:PageSubscription", { pageId: PAGE_ID, subscribedFields: ["messages"] });
      expect(pages.log.length).toBeGreaterThan(0);
      expect(pages.log.every((e) => e.path.startsWith("/v18.0/"))).toBe(true);
    } finally {
      delete process.env.PAGES_API_VERSION;
      forgetPreviewChecks();
    }
  });

  it("a version that is not one is refused with the fix", async () => {
    process.env.PAGES_API_VERSION = "26";
    try {
      await expect(make("pages:PageSubscription", { pageId: PAGE_ID, subscribedFields: ["feed"] })).rejects.toThrow(/ops:pagesApiVersion must be a version such as v26\.0; got "26"/);
    } finally {
      delete process.env.PAGES_API_VERSION;
    }
  });
});

import { describe, expect, it, vi } from "vitest";
import {
  PAGE_ID,
  PAGES_APP,
  PAGES_EXPIRED_TOKEN,
  PAGES_MODERATOR_TOKEN,
  PAGES_PAGE_TOKEN,
  PAGES_SHORT_USER_TOKEN,
  PAGES_USER_TOKEN,
  PagesEmulator,
} from "../../emulators";
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
  const access = () => pages.pages.get(PAGE_ID)!.assigned;

  it("grants a role's tasks through the page's business, changes them in place, reports drift and removes them", async () => {
    const r = await make("pages:PageRole", { pageId: PAGE_ID, user: BOB, role: "MODERATOR" });
    expect(r.id).toBe(`${PAGE_ID}/${BOB}`);
    expect(access().get(BOB)).toEqual(["MODERATE", "MESSAGING", "ADVERTISE", "ANALYZE"]);
    expect(r.outs).toMatchObject({
      role: "MODERATOR",
      tasks: ["MODERATE", "MESSAGING", "ADVERTISE", "ANALYZE"],
      business: "600000000000001",
      userName: "Bob Editor",
    });
    expect(pages.count("POST", /\/roles$/)).toBe(0);
    expect(await call("pages:PageRole", "diff", [r.id, r.outs, { ...r.inputs, role: "EDITOR" }])).toMatchObject({
      changes: true,
      replaces: [],
    });
    await call("pages:PageRole", "update", [r.id, r.outs, { ...r.inputs, role: "EDITOR" }]);
    expect(access().get(BOB)).toContain("CREATE_CONTENT");
    access().set(BOB, ["ANALYZE"]); // changed by hand
    expect((await call("pages:PageRole", "read", [r.id, r.outs])).inputs.role).toBe("ANALYST");
    access().set(BOB, ["ANALYZE", "MESSAGING"]); // no role's tasks
    expect((await call("pages:PageRole", "read", [r.id, r.outs])).inputs).toEqual({
      pageId: PAGE_ID,
      user: BOB,
      tasks: ["MESSAGING", "ANALYZE"],
    });
    await call("pages:PageRole", "delete", [r.id, r.outs]);
    await call("pages:PageRole", "delete", [r.id, r.outs]);
    expect(access().has(BOB)).toBe(false);
    expect(await call("pages:PageRole", "read", [r.id, r.outs])).toEqual({});
  });

  it("takes tasks instead of a role, in any order; a role and its tasks are the same access", async () => {
    const r = await make("pages:PageRole", { pageId: PAGE_ID, user: BOB, tasks: ["ANALYZE", "ADVERTISE", "ANALYZE"] });
    expect(access().get(BOB)).toEqual(["ADVERTISE", "ANALYZE"]);
    const asRole = (await call("pages:PageRole", "check", [{}, { pageId: PAGE_ID, user: BOB, role: "ADVERTISER" }])).inputs;
    expect((await call("pages:PageRole", "diff", [r.id, r.outs, asRole])).changes).toBe(false);
    const check = async (a: object) =>
      (await call("pages:PageRole", "check", [{}, { pageId: PAGE_ID, user: BOB, ...a }])).failures.map(
        (f: { property: string }) => f.property,
      );
    expect(await check({})).toEqual(["role"]);
    expect(await check({ role: "EDITOR", tasks: ["ANALYZE"] })).toEqual(["tasks"]);
    expect(await check({ tasks: ["OWN"] })).toEqual(["tasks.0"]);
  });

  it("a 0.3.0 role outside the business is read as it is: no change when it is what the program says", async () => {
    pages.pages.get(PAGE_ID)!.roles.set(BOB, "EDITOR"); // granted by 0.3.0 with POST /roles
    const state = { pageId: PAGE_ID, user: BOB, role: "EDITOR", userName: "Bob Editor" };
    const news = (await call("pages:PageRole", "check", [{}, { pageId: PAGE_ID, user: BOB, role: "EDITOR" }])).inputs;
    expect((await call("pages:PageRole", "diff", [`${PAGE_ID}/${BOB}`, state, news])).changes).toBe(false);
    const read = await call("pages:PageRole", "read", [`${PAGE_ID}/${BOB}`, state]);
    expect(read.props).toMatchObject({ role: "EDITOR", tasks: ["CREATE_CONTENT", "MODERATE", "MESSAGING", "ADVERTISE", "ANALYZE"] });
    expect(pages.log.filter((e) => e.method !== "GET")).toEqual([]);
    // A change moves the access to the business.
    await call("pages:PageRole", "update", [`${PAGE_ID}/${BOB}`, read.props, { ...news, role: "MODERATOR" }]);
    expect([pages.pages.get(PAGE_ID)!.roles.has(BOB), access().get(BOB)]).toEqual([
      false,
      ["MODERATE", "MESSAGING", "ADVERTISE", "ANALYZE"],
    ]);
  });

  it("the emulator refuses the retired /roles writes as the service does", async () => {
    const res = await fetch(`${pages.url}/v26.0/${PAGE_ID}/roles`, {
      method: "POST",
      body: new URLSearchParams({ user: BOB, role: "EDITOR", access_token: PAGES_PAGE_TOKEN }),
    });
    expect(((await res.json()) as any).error.message).toMatch(/assigned_users and tasks/);
  });

  it("says clearly when the token cannot manage roles", async () => {
    process.env.PAGES_ACCESS_TOKEN = PAGES_MODERATOR_TOKEN;
    await expect(make("pages:PageRole", { pageId: PAGE_ID, user: BOB, role: "EDITOR" })).rejects.toThrow(
      /Insufficient privileges.*(MANAGE|pages_manage_metadata)/,
    );
  });

  it("derives the page token from a user token once per run, and names what it used", async () => {
    process.env.PAGES_ACCESS_TOKEN = PAGES_USER_TOKEN;
    await make("pages:PageRole", { pageId: PAGE_ID, user: BOB, role: "EDITOR" });
    await make("pages:PageSubscription", { pageId: PAGE_ID, subscribedFields: ["feed"] });
    expect(pages.count("GET", /\/me\/accounts$/)).toBe(1);
  });

  it("explains an expired token (190) with the remedy", async () => {
    process.env.PAGES_ACCESS_TOKEN = PAGES_EXPIRED_TOKEN;
    await expect(make("pages:PageRole", { pageId: PAGE_ID, user: BOB, role: "EDITOR" })).rejects.toThrow(
      /code 190.*The token expired \(190\/463\): get a new one.*ops:pagesAccessToken/,
    );
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

describe("access and subscriptions someone else set up", () => {
  const quietly = <T>(f: () => Promise<T>) => collectWarnings(f).result;

  it("a PageRole for a person who already has access is refused at preview and at up without adopt; with it, the access is taken and destroy gives it back", async () => {
    pages.pages.get(PAGE_ID)!.assigned.set(BOB, ["MODERATE", "MESSAGING", "ADVERTISE", "ANALYZE"]);
    forgetPreviewChecks();
    await expect(previewCheck("pages:PageRole", undefined, { pageId: PAGE_ID, user: BOB, role: "ANALYST", adopt: false })).rejects.toThrow(
      /already has access to page .*MODERATE.*adopt: true/,
    );
    const { inputs } = await call("pages:PageRole", "check", [{}, { pageId: PAGE_ID, user: BOB, role: "ANALYST" }]);
    await expect(call("pages:PageRole", "create", [inputs])).rejects.toThrow(/already has access/);
    expect(pages.pages.get(PAGE_ID)!.assigned.get(BOB)).toEqual(["MODERATE", "MESSAGING", "ADVERTISE", "ANALYZE"]);

    forgetPreviewChecks();
    await quietly(() => previewCheck("pages:PageRole", undefined, { pageId: PAGE_ID, user: BOB, role: "ANALYST", adopt: true }));
    const r = await make("pages:PageRole", { pageId: PAGE_ID, user: BOB, role: "ANALYST", adopt: true });
    expect(r.outs).toMatchObject({ tasks: ["ANALYZE"], adopt: true, previousTasks: ["MODERATE", "MESSAGING", "ADVERTISE", "ANALYZE"] });
    const refreshed = await call("pages:PageRole", "read", [r.id, r.outs]);
    expect(refreshed.props.previousTasks).toEqual(r.outs.previousTasks);
    await call("pages:PageRole", "delete", [r.id, refreshed.props]);
    expect(pages.pages.get(PAGE_ID)!.assigned.get(BOB)).toEqual(["MODERATE", "MESSAGING", "ADVERTISE", "ANALYZE"]);
  });

  it("a PageSubscription over the app's existing one is refused without adopt; with it, destroy subscribes the app to its old fields again", async () => {
    pages.pages.get(PAGE_ID)!.apps.set(PAGES_APP.id, ["feed", "messages", "ratings"]);
    forgetPreviewChecks();
    await expect(
      previewCheck("pages:PageSubscription", undefined, { pageId: PAGE_ID, subscribedFields: ["feed"], adopt: false }),
    ).rejects.toThrow(/already subscribed to page .*feed, messages, ratings.*adopt: true/);
    const { inputs } = await call("pages:PageSubscription", "check", [{}, { pageId: PAGE_ID, subscribedFields: ["feed"] }]);
    await expect(call("pages:PageSubscription", "create", [inputs])).rejects.toThrow(/already subscribed/);
    const s = await make("pages:PageSubscription", { pageId: PAGE_ID, subscribedFields: ["feed"], adopt: true });
    expect(s.outs).toMatchObject({ subscribedFields: ["feed"], previousFields: ["feed", "messages", "ratings"] });
    await call("pages:PageSubscription", "delete", [s.id, s.outs]);
    expect([...pages.pages.get(PAGE_ID)!.apps.values()]).toEqual([["feed", "messages", "ratings"]]);
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
    expect(await call("pages:PagePost", "diff", [p.id, p.outs, { ...news, link: "https://bakery.example" }])).toMatchObject({
      replaces: ["link"],
    });
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

  it("compares times as instants, moves a scheduled post in place, and changes nothing once the post went out", async () => {
    const at = new Date(Math.floor(Date.now() / 1000 + 3 * 3600) * 1000);
    const s = await make("pages:PagePost", {
      pageId: PAGE_ID,
      message: "Launch",
      published: false,
      scheduledPublishTime: at.toISOString(),
    });
    // The same instant written another way (an offset, or Unix seconds) is no change, at check or diff.
    const offset = new Date(at.getTime() + 3600_000).toISOString().replace("Z", "+01:00").replace(/\.\d+/, "");
    for (const same of [offset, Math.floor(at.getTime() / 1000)]) {
      const news = { ...s.inputs, scheduledPublishTime: same };
      expect((await call("pages:PagePost", "check", [s.outs, news])).failures).toEqual([]);
      expect(await call("pages:PagePost", "diff", [s.id, s.outs, news]), String(same)).toMatchObject({ changes: false });
    }
    // A new time moves the post in place: one POST to the post, the same id.
    const later = new Date(at.getTime() + 86_400_000).toISOString();
    const moved = { ...s.inputs, scheduledPublishTime: later };
    expect(await call("pages:PagePost", "diff", [s.id, s.outs, moved])).toMatchObject({ changes: true, replaces: [] });
    pages.log.splice(0);
    const up = await call("pages:PagePost", "update", [s.id, s.outs, moved]);
    expect(pages.log.filter((e) => e.method !== "GET").map((e) => `${e.method} ${e.path}`)).toEqual([`POST /v26.0/${s.id}`]);
    expect(pages.posts.get(s.id)!.scheduledAt).toBe(Date.parse(later));
    // Once it went out, a time computed anew (as a program computing it every run does) changes nothing.
    pages.clockOffsetMs = 2 * 86_400_000;
    vi.setSystemTime(Date.now() + 2 * 86_400_000);
    try {
      const { result, warnings } = collectWarnings(() =>
        call("pages:PagePost", "diff", [
          s.id,
          up.outs,
          { ...moved, scheduledPublishTime: new Date(Date.now() + 86_400_000).toISOString() },
        ]),
      );
      expect(await result).toMatchObject({ changes: false });
      expect(warnings).toEqual([expect.stringMatching(/went out at its scheduled time .*changes nothing on the service/)]);
    } finally {
      vi.useRealTimers();
    }
    // Adding a schedule to a post that has none replaces it.
    expect(await call("pages:PagePost", "diff", [s.id, { ...s.outs, scheduledPublishTime: undefined }, moved])).toMatchObject({
      replaces: ["scheduledPublishTime"],
    });
  });

  it("reads the schedule from the page: a time moved by hand is drift that up puts back; a post published early takes no new time (issue 57)", async () => {
    const at = new Date(Math.floor(Date.now() / 1000 + 3 * 3600) * 1000).toISOString().replace(/\.000Z$/, "Z");
    const s = await make("pages:PagePost", { pageId: PAGE_ID, message: "Moved", published: false, scheduledPublishTime: at });
    // Moved in the Business Suite (or by POST /{post-id}) to an hour later.
    const byHand = Date.parse(at) + 3600_000;
    pages.posts.get(s.id)!.scheduledAt = byHand;
    const read = await call("pages:PagePost", "read", [s.id, s.outs]);
    const there = new Date(byHand).toISOString().replace(/\.000Z$/, "Z");
    expect(read.props.scheduledPublishTime).toBe(there);
    expect(read.inputs.scheduledPublishTime).toBe(there);
    // The program's time is a change again, made in place.
    expect(await call("pages:PagePost", "diff", [s.id, read.props, s.inputs])).toMatchObject({ changes: true, replaces: [] });
    await call("pages:PagePost", "update", [s.id, read.props, s.inputs]);
    expect(pages.posts.get(s.id)!.scheduledAt).toBe(Date.parse(at));
    // Published before its time by hand: a new time changes nothing, before a refresh (the diff asks the page) and
    // after it (refresh says so), and sends nothing.
    pages.posts.get(s.id)!.published = true;
    const unrefreshed = await collectWarnings(() =>
      call("pages:PagePost", "diff", [
        s.id,
        s.outs,
        { ...s.inputs, scheduledPublishTime: new Date(Date.parse(at) + 7200_000).toISOString() },
      ]),
    );
    expect(await unrefreshed.result).toMatchObject({ changes: false });
    const out = await call("pages:PagePost", "read", [s.id, s.outs]);
    expect(out.props).toMatchObject({ state: "published", scheduledPublishTime: at });
    const later = { ...s.inputs, scheduledPublishTime: new Date(Date.parse(at) + 86_400_000).toISOString() };
    const { result, warnings } = collectWarnings(() => call("pages:PagePost", "diff", [s.id, out.props, later]));
    expect(await result).toMatchObject({ changes: false });
    expect(warnings).toEqual([
      expect.stringMatching(/published already \(it went out before its scheduled time, by hand\).*changes nothing/),
    ]);
    pages.log.splice(0);
    await call("pages:PagePost", "update", [s.id, out.props, later]);
    expect(pages.log.filter((e) => e.method !== "GET")).toEqual([]);
  });

  it("checks the schedule at preview, but only for a new or changed time", async () => {
    const soon = Math.floor(Date.now() / 1000) + 60;
    const bad = await call("pages:PagePost", "check", [
      {},
      { pageId: PAGE_ID, message: "x", published: false, scheduledPublishTime: soon },
    ]);
    expect(bad.failures).toEqual([{ property: "scheduledPublishTime", reason: expect.stringMatching(/at least 10 minutes ahead/) }]);
    const kept = await call("pages:PagePost", "check", [
      { scheduledPublishTime: soon },
      { pageId: PAGE_ID, message: "x", published: false, scheduledPublishTime: soon },
    ]);
    expect(kept.failures).toEqual([]);
    const far = await call("pages:PagePost", "check", [
      {},
      { pageId: PAGE_ID, message: "x", published: false, scheduledPublishTime: "2099-01-01T00:00:00Z" },
    ]);
    expect(far.failures[0].reason).toMatch(/at most 75 days/);
    const published = await call("pages:PagePost", "check", [{}, { pageId: PAGE_ID, message: "x", scheduledPublishTime: inAnHour() }]);
    expect(published.failures[0]).toMatchObject({ property: "published", reason: expect.stringMatching(/published: false/) });
    expect(pages.log).toEqual([]);
  });

  it("warns at preview of a new time that passes now but may not when the merged change is applied (the lead plus a margin)", async () => {
    const check = (at: number) =>
      collectWarnings(() =>
        call("pages:PagePost", "check", [{}, { pageId: PAGE_ID, message: "x", published: false, scheduledPublishTime: at }]),
      );
    const now = Math.floor(Date.now() / 1000);
    const eleven = check(now + 11 * 60);
    expect((await eleven.result).failures).toEqual([]);
    expect(eleven.warnings).toEqual([
      expect.stringMatching(
        /^pages: scheduledPublishTime \S+ is 1[01] minutes( \d+ seconds?)? ahead: the service takes a time at least 10 minutes ahead when the up runs, so an up more than (1 minute|\d+ seconds)( \d+ seconds?)? from now \(after review and merge\) is refused; schedule it later, or lower ops:pagesScheduleMarginMinutes \(60\)/,
      ),
    ]);
    const later = check(now + 2 * 3600);
    await later.result;
    expect(later.warnings).toEqual([]); // past the lead and the margin
    process.env.PAGES_SCHEDULE_MARGIN_MINUTES = "0";
    try {
      const soon = check(now + 11 * 60);
      await soon.result;
      expect(soon.warnings).toEqual([]); // a stack whose up follows at once
    } finally {
      delete process.env.PAGES_SCHEDULE_MARGIN_MINUTES;
    }
  });

  it("posts one photo by URL and several as attached media", async () => {
    const one = await make("pages:PagePost", { pageId: PAGE_ID, message: "Our loaf", photo: { url: "https://media.example/loaf.jpg" } });
    expect(pages.posts.get(one.id)!.photos).toEqual(["https://media.example/loaf.jpg"]);
    const many = await make("pages:PagePost", {
      pageId: PAGE_ID,
      message: "The shop",
      photos: ["https://media.example/a.jpg", "https://media.example/b.jpg"],
    });
    expect(pages.posts.get(many.id)!.photos).toHaveLength(2);
  });

  it("passes a content-policy refusal through with its remedy", async () => {
    await expect(make("pages:PagePost", { pageId: PAGE_ID, message: "FREE MONEY click here now" })).rejects.toThrow(
      /Content policy violation.*change it/,
    );
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
      fns.getPageInsights({ pageId: PAGE_ID, metrics: ["page_follows", "page_media_view"], since: "2026-11-01", until: "2026-11-03" }),
      fns.getPosts({ pageId: PAGE_ID }),
    ]);
    expect(page.name).toBe("Example Bakery");
    expect(insights.map((m) => m.values.length)).toEqual([3, 3]);
    expect(posts).toHaveLength(1);
    expect(pages.log.map((e) => `${e.method} ${e.path}`)).toEqual(["POST /v26.0/"]); // three reads, one request
    await expect(fns.getPageInsights({ pageId: PAGE_ID, metrics: ["page_follows"], since: "Nov 1" })).rejects.toThrow(/YYYY-MM-DD/);
  });

  it("sends a metric it does not list (the service's list is open), and turns the service's refusal into one line (issue 47)", async () => {
    const fns = await import("../../provider/pages/functions");
    const answered = await fns.getPageInsights({ pageId: PAGE_ID, metrics: ["page_follows_country"] });
    expect(answered.map((m) => m.metric)).toEqual(["page_follows_country"]);
    await expect(fns.getPageInsights({ pageId: PAGE_ID, metrics: ["page_likes"] })).rejects.toThrow(
      /getPageInsights: page_likes is not a metric the service answers for a page.*Page Insights reference/s,
    );
  });

  it("asks for the period given (a week, the whole range), refusing one that is not a period at check", async () => {
    const fns = await import("../../provider/pages/functions");
    const weekly = await fns.getPageInsights({
      pageId: PAGE_ID,
      metrics: ["page_follows"],
      since: "2026-11-01",
      until: "2026-11-14",
      period: "week",
    });
    expect(weekly[0].period).toBe("week");
    expect(weekly[0].values).toHaveLength(2);
    const whole = await fns.getPageInsights({
      pageId: PAGE_ID,
      metrics: ["page_media_view"],
      since: "2026-11-01",
      until: "2026-11-14",
      period: "total_over_range",
    });
    expect(whole[0].values).toHaveLength(1);
    pages.log.splice(0);
    await expect(fns.getPageInsights({ pageId: PAGE_ID, metrics: ["page_follows"], period: "hour" as never })).rejects.toThrow(
      /period must be one of day, week, days_28, month, lifetime, total_over_range/,
    );
    expect(pages.log).toEqual([]);
  });

  it("getPagePostInsights reads a page post's lifetime metrics (counts, and counts by kind); removed ones refused, unknown ones one line", async () => {
    const fns = await import("../../provider/pages/functions");
    const p = await make("pages:PagePost", { pageId: PAGE_ID, message: "Counted" });
    const stats = await fns.getPagePostInsights({ postId: p.id });
    expect(stats.map((m) => m.metric)).toEqual(["post_clicks", "post_reactions_by_type_total"]);
    expect(typeof (stats[0] as { value: number }).value).toBe("number");
    expect((stats[1] as { byType: Record<string, number> }).byType).toEqual({ like: expect.any(Number), love: expect.any(Number) });
    expect((await fns.getPagePostInsights({ postId: p.id, metrics: ["post_media_view"] }))[0].period).toBe("lifetime");
    pages.log.splice(0);
    await expect(fns.getPagePostInsights({ postId: p.id, metrics: ["post_impressions"] })).rejects.toThrow(
      /post_impressions was removed by the service.*use post_media_view/,
    );
    await expect(fns.getPagePostInsights({ postId: "123" })).rejects.toThrow(/postId must be a page post's id, `<pageId>_<postId>`/);
    expect(pages.log).toEqual([]);
    await expect(fns.getPagePostInsights({ postId: p.id, metrics: ["post_stories"] })).rejects.toThrow(
      /getPagePostInsights: post_stories is not a metric the service answers for a post/,
    );
  });

  it("refuses the metrics the service removed, with their replacements, and windows over 90 days, sending nothing", async () => {
    const fns = await import("../../provider/pages/functions");
    pages.log.splice(0);
    await expect(fns.getPageInsights({ pageId: PAGE_ID, metrics: ["page_fans", "page_impressions"] })).rejects.toThrow(
      /metrics\.0: page_fans was removed by the service.*use page_follows.*metrics\.1: page_impressions was removed.*use page_media_view/,
    );
    await expect(
      fns.getPageInsights({ pageId: PAGE_ID, metrics: ["page_follows"], since: "2026-01-01", until: "2026-06-01" }),
    ).rejects.toThrow(/spans 151 days; the service answers at most 90/);
    expect(pages.log).toEqual([]);
    // The emulator refuses them as the service does.
    const res = await fetch(`${pages.url}/v26.0/${PAGE_ID}/insights?metric=page_fans&access_token=${PAGES_PAGE_TOKEN}`);
    expect(((await res.json()) as any).error.message).toMatch(/valid insights metric: page_fans/);
  });

  it("getRateLimitInfo reads the usage headers (an app has no rate_limit_info field)", async () => {
    const fns = await import("../../provider/pages/functions");
    const info = await fns.getRateLimitInfo({ pageId: PAGE_ID });
    expect(info.appUsage.callCount).toBeGreaterThanOrEqual(0);
    expect(info.pageUsage).toMatchObject({ callCount: expect.any(Number) });
    const res = await fetch(`${pages.url}/v26.0/100000000000001?fields=rate_limit_info&access_token=${PAGES_PAGE_TOKEN}`);
    expect(((await res.json()) as any).error.message).toMatch(/nonexisting field \(rate_limit_info\)/);
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
      // Retries allowed, yet none is made: the usage header shows the allowance spent, which waiting seconds cannot fix.
      Object.assign(process.env, { PAGES_BASE_URL: limited.url, PAGES_ACCESS_TOKEN: PAGES_USER_TOKEN, PAGES_MAX_RETRIES: "3" });
      await expect(make("pages:PageRole", { pageId: PAGE_ID, user: BOB, role: "EDITOR" })).rejects.toThrow(
        /User request limit reached.*The user's hourly call allowance \(code 17, User request limit reached\) is used up.*run again later, within the hour \(by about \S+Z at the latest\)/,
      );
      await expect(make("pages:PageSubscription", { pageId: PAGE_ID, subscribedFields: ["feed"] })).rejects.toThrow(
        /User request limit reached/,
      );
      expect(limited.count("GET", /\/me$/)).toBe(1);
    } finally {
      await limited.stop();
    }
  });
});

describe("throttling", () => {
  it("a page throttled for half an hour fails at once saying when calls resume (a preview does not sit through retries); a short throttle is waited out", async () => {
    pages.inject({ match: { method: "GET" }, count: 1, kind: "status", status: 429, retryAfter: 1800 });
    await expect(
      call("pages:PagePost", "read", [`${PAGE_ID}_1`, { pageId: PAGE_ID, postId: `${PAGE_ID}_1`, message: "x" }]),
    ).rejects.toThrow(/throttles these calls for about 30 more minutes \(until about \S+Z.*run again then/);
    expect(pages.log.filter((e) => e.fault)).toHaveLength(1); // asked once, not again and again
    // Throttled for a minute or less: waited out, then served.
    pages.inject({ match: { method: "POST" }, count: 1, kind: "status", status: 429 });
    const p = await make("pages:PagePost", { pageId: PAGE_ID, message: "After the wait" });
    expect(pages.posts.has(p.id)).toBe(true);
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
        for (let i = 0; i < 2; i++)
          await previewCheck("pages:PageSubscription", undefined, { pageId: PAGE_ID, subscribedFields: ["feed"], adopt: true });
      });
      await result;
      expect(warnings).toEqual([
        expect.stringMatching(
          /API version v18\.0 expired on 2026-01-26: the service answers its calls as the oldest live version \(v21\.0\).*Set ops:pagesApiVersion to v26\.0/,
        ),
      ]);
      pages.log.splice(0);
      await make("pages:PageSubscription", { pageId: PAGE_ID, subscribedFields: ["messages"], adopt: true });
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
      await expect(make("pages:PageSubscription", { pageId: PAGE_ID, subscribedFields: ["feed"] })).rejects.toThrow(
        /ops:pagesApiVersion must be a version such as v26\.0; got "26"/,
      );
    } finally {
      delete process.env.PAGES_API_VERSION;
    }
  });
});

describe("the service as it answers today", () => {
  it("a user with 30 pages, and one with 130 (every page of /me/accounts read), gets the page token of the last", async () => {
    for (const extra of [30, 130]) {
      const many = await new PagesEmulator({ extraPages: extra }).start();
      try {
        Object.assign(process.env, { PAGES_BASE_URL: many.url, PAGES_ACCESS_TOKEN: PAGES_USER_TOKEN });
        const last = String(200000000001000n + BigInt(extra));
        await make("pages:PageSubscription", { pageId: last, subscribedFields: ["feed"] });
        expect([...many.pages.get(last)!.apps.values()]).toEqual([["feed"]]);
        expect(many.count("GET", /\/me\/accounts$/)).toBe(extra > 99 ? 2 : 1);
      } finally {
        await many.stop();
      }
    }
  });

  it("a batch item that timed out (null) is read again on its own; the others are kept", async () => {
    const fns = await import("../../provider/pages/functions");
    pages.batchTimeouts = 1;
    const [page, posts] = await Promise.all([fns.getPage({ pageId: PAGE_ID }), fns.getPosts({ pageId: PAGE_ID })]);
    expect(page.name).toBe("Example Bakery");
    expect(posts).toEqual([]);
    expect(pages.log.map((e) => `${e.method} ${e.path}`)).toEqual(["POST /v26.0/", `GET /v26.0/${PAGE_ID}`]);
  });

  it("a photo post whose answer has no post_id is found by the photo's page_story_id", async () => {
    pages.photoAnswersPostId = false;
    const p = await make("pages:PagePost", { pageId: PAGE_ID, message: "Loaf", photo: { url: "https://media.example/loaf.jpg" } });
    expect(p.id).toMatch(new RegExp(`^${PAGE_ID}_`));
    expect(pages.posts.has(p.id)).toBe(true);
  });

  it("a lost page post's answer is settled without the removed `link` field (the attachment's unshimmed_url)", async () => {
    pages.inject({ match: { method: "POST", path: "/feed$" }, count: 1, kind: "drop-after" });
    const p = await make("pages:PagePost", { pageId: PAGE_ID, message: "Menu", link: "https://bakery.example/menu" });
    expect(pages.posts.size).toBe(1);
    expect(p.id).toBe([...pages.posts.keys()][0]);
    const res = await fetch(`${pages.url}/v26.0/${p.id}?fields=id,link&access_token=${PAGES_PAGE_TOKEN}`);
    expect(((await res.json()) as any).error).toMatchObject({
      code: 12,
      message: expect.stringMatching(/link field is deprecated for versions v3\.3 and higher/),
    });
  });
});

describe("tokens and the app", () => {
  it("sends appsecret_proof with every call when the app secret is set (an app that requires it refuses calls without)", async () => {
    pages.requireProof = true;
    await expect(make("pages:PageSubscription", { pageId: PAGE_ID, subscribedFields: ["feed"] })).rejects.toThrow(
      /require an appsecret_proof argument/,
    );
    process.env.PAGES_APP_SECRET = PAGES_APP.secret;
    try {
      await make("pages:PageSubscription", { pageId: PAGE_ID, subscribedFields: ["feed"] });
      const fns = await import("../../provider/pages/functions");
      await Promise.all([fns.getPage({ pageId: PAGE_ID }), fns.getPosts({ pageId: PAGE_ID })]); // a batch: its items carry the proof too
      expect(pages.log.filter((e) => e.status >= 400).map((e) => e.path)).toEqual([`/v26.0/${PAGE_ID}/subscribed_apps`]);
    } finally {
      delete process.env.PAGES_APP_SECRET;
    }
  });

  it("a page token issued without pages_manage_posts fails a page post's preview, naming the token to use (issue 47)", async () => {
    const saved = process.env.PAGES_ACCESS_TOKEN;
    Object.assign(process.env, { PAGES_ACCESS_TOKEN: PAGES_MODERATOR_TOKEN, PAGES_APP_SECRET: PAGES_APP.secret });
    try {
      forgetPreviewChecks();
      pages.log.splice(0);
      await expect(previewCheck("pages:PagePost", undefined, { pageId: PAGE_ID, message: "Hello", published: false })).rejects.toThrow(
        /page token in ops:pagesAccessToken was issued without pages_manage_posts, which PagePost needs.*set ops:pagesAccessToken to such a user token/,
      );
      expect(pages.log.filter((e) => e.method !== "GET")).toEqual([]);
    } finally {
      delete process.env.PAGES_APP_SECRET;
      process.env.PAGES_ACCESS_TOKEN = saved;
      forgetPreviewChecks();
    }
  });

  it("a short-lived user token is exchanged for a long-lived one once per run (fb_exchange_token), never shown; its expiry is told at preview", async () => {
    Object.assign(process.env, { PAGES_ACCESS_TOKEN: PAGES_SHORT_USER_TOKEN, PAGES_APP_SECRET: PAGES_APP.secret });
    try {
      forgetPreviewChecks();
      const { result, warnings } = collectWarnings(() =>
        previewCheck("pages:PageSubscription", undefined, { pageId: PAGE_ID, subscribedFields: ["feed"] }),
      );
      await result;
      await make("pages:PageSubscription", { pageId: PAGE_ID, subscribedFields: ["feed"] });
      expect(pages.count("GET", /\/oauth\/access_token$/)).toBe(1);
      const long = [...pages.tokens.keys()].find((t) => t.startsWith("long-lived-"))!;
      expect(pages.log.filter((e) => e.path.endsWith("/me/accounts")).every((e) => e.query.includes(long))).toBe(true);
      expect(warnings).toEqual([]); // 60 days ahead: told as progress, not a warning
    } finally {
      delete process.env.PAGES_APP_SECRET;
      forgetPreviewChecks();
    }
  });

  it("a token that expires within 7 days is warned about at preview", async () => {
    pages.tokens.get(PAGES_USER_TOKEN)!.expiresAt = Date.now() + 3 * 86_400_000;
    Object.assign(process.env, { PAGES_ACCESS_TOKEN: PAGES_USER_TOKEN, PAGES_APP_SECRET: PAGES_APP.secret });
    try {
      forgetPreviewChecks();
      const { result, warnings } = collectWarnings(() =>
        previewCheck("pages:PageSubscription", undefined, { pageId: PAGE_ID, subscribedFields: ["feed"] }),
      );
      await result;
      expect(warnings).toEqual([
        expect.stringMatching(/the access token expires at .* \(in 3\.0 days\): set a new one as ops:pagesAccessToken/),
      ]);
    } finally {
      delete process.env.PAGES_APP_SECRET;
      forgetPreviewChecks();
    }
  });

  it("PageSubscription reads, changes and removes this app's subscription only, not another app's on the same page", async () => {
    delete process.env.PAGES_APP_ID; // the app of the token (GET /app)
    pages.pages.get(PAGE_ID)!.apps.set("999000000000001", ["ratings"]);
    const s = await make("pages:PageSubscription", { pageId: PAGE_ID, subscribedFields: ["feed"] });
    expect(s.outs).toMatchObject({ appId: PAGES_APP.id, subscribedFields: ["feed"] });
    await call("pages:PageSubscription", "delete", [s.id, s.outs]);
    expect([...pages.pages.get(PAGE_ID)!.apps.entries()]).toEqual([["999000000000001", ["ratings"]]]);
    expect(await call("pages:PageSubscription", "read", [s.id, s.outs])).toEqual({});
  });
});

describe("a page post deleted out of band, read in a batch (issue 47)", () => {
  it("reads as gone when the page's token still reads its page, so refresh drops it; the post beside it reads as it is", async () => {
    const kept = await make("pages:PagePost", { pageId: PAGE_ID, message: "Stays", published: false });
    const lost = await make("pages:PagePost", { pageId: PAGE_ID, message: "Deleted in the app", published: false });
    pages.posts.delete(lost.id.includes("_") ? lost.id : `${PAGE_ID}_${lost.id}`);
    pages.log.splice(0);
    // Read together, as a refresh reads them: one batch call.
    const [a, b] = await Promise.all([
      call("pages:PagePost", "read", [kept.id, kept.outs]),
      call("pages:PagePost", "read", [lost.id, lost.outs]),
    ]);
    expect(pages.log.some((l) => l.method === "POST" && /\/v[\d.]+\/?$/.test(l.path))).toBe(true);
    expect(a.props).toMatchObject({ message: "Stays" });
    expect(b).toEqual({});
  });
});

describe("page tasks as the service has them (issue 47)", () => {
  it("tasks outside the roles' six are granted, read back without drift, and a person's extra task is drift the program can express", async () => {
    const r = await make("pages:PageRole", { pageId: PAGE_ID, user: BOB, tasks: ["MANAGE_LEADS", "ANALYZE"] });
    expect(pages.pages.get(PAGE_ID)!.assigned.get(BOB)).toEqual(expect.arrayContaining(["ANALYZE", "MANAGE_LEADS"]));
    const read = await call("pages:PageRole", "read", [r.id, r.outs]);
    expect((await call("pages:PageRole", "diff", [r.id, read.props, r.inputs])).changes).toBe(false);
    pages.pages.get(PAGE_ID)!.assigned.set(BOB, ["ANALYZE", "MANAGE_LEADS", "READ_PAGE_MAILBOXES"]); // given in the app
    const drift = await call("pages:PageRole", "read", [r.id, r.outs]);
    expect(drift.inputs).toMatchObject({ tasks: ["ANALYZE", "MANAGE_LEADS", "READ_PAGE_MAILBOXES"] });
    const back = await call("pages:PageRole", "check", [{}, drift.inputs]);
    expect(back.failures).toEqual([]);
  });
});

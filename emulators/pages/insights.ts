/** A page's and a post's insights (the Graph API's Insights): metrics by period, deterministic per metric and day. */
import { graphError, listParam, ok, params } from "../graph";
import { needPage, type PageRoute } from "./access";
import type { PagesEmulator } from "./server";

/** The periods of the Insights reference (`period`). */
const PERIODS = ["day", "week", "days_28", "month", "lifetime", "total_over_range"];

/** Deterministic insight values per metric and day. */
function insight(metric: string, pageOrPost: string, day: number): number {
  let h = 0;
  for (const c of `${metric}:${pageOrPost}:${day}`) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return 50 + (h % 950);
}

export function registerInsightRoutes(emu: PagesEmulator, r: PageRoute): void {
  r("GET", "/:id/insights", (req) => {
    const id = req.params.id;
    const isPage = emu.pages.has(id);
    if (!isPage && !emu.posts.has(id)) graphError(400, 100, `Object with ID '${id}' does not exist`, "GraphMethodException", 33);
    needPage(emu, req, isPage ? id : emu.posts.get(id)!.pageId, "pages_read_engagement");
    const p = params(req);
    // The metrics served today: impressions and fans were removed for every version on 2025-11-15.
    const known = isPage
      ? [
          "page_follows",
          "page_daily_follows",
          "page_daily_follows_unique",
          "page_daily_unfollows_unique",
          "page_media_view",
          "page_total_media_view_unique",
          "page_views_total",
          "page_post_engagements",
          "page_total_actions",
          "page_follows_country",
        ]
      : ["post_media_view", "post_total_media_view_unique", "post_clicks", "post_reactions_by_type_total"];
    const metrics = listParam(p.metric);
    const bad = metrics.find((m) => !known.includes(m));
    if (!metrics.length || bad)
      graphError(400, 100, `(#100) The value must be a valid insights metric: ${bad ?? "(none)"}; known: ${known.join(", ")}`);
    // The Insights reference's periods; a post's metrics are lifetime totals.
    const period = p.period ?? (isPage ? "day" : "lifetime");
    if (!PERIODS.includes(period)) graphError(400, 100, `(#100) period must be one of the following values: ${PERIODS.join(", ")}`);
    if (!isPage) {
      if (period !== "lifetime") graphError(400, 100, `(#100) The metrics of a post are answered for period lifetime only`);
      const value = (m: string) =>
        m === "post_reactions_by_type_total"
          ? { like: insight(`${m}:like`, id, 0) % 40, love: insight(`${m}:love`, id, 0) % 15 }
          : insight(m, id, 0);
      return ok({
        data: metrics.map((m) => ({
          id: `${id}/insights/${m}/lifetime`,
          name: m,
          period: "lifetime",
          title: m.replace(/_/g, " "),
          values: [{ value: value(m) }],
        })),
      });
    }
    const day = (s: string) => Math.floor(Date.parse(`${s}T00:00:00Z`) / 86_400_000);
    const until = p.until ? day(p.until) : Math.floor(emu.now() / 86_400_000);
    const since = p.since ? day(p.since) : until - 2;
    if (!Number.isFinite(since) || !Number.isFinite(until) || since > until)
      graphError(400, 100, "(#100) since and until must be YYYY-MM-DD dates with since before until");
    if (until - since > 90) graphError(400, 100, "(#100) There cannot be more than 90 days (7776000 s) between since and until");
    const days = Array.from({ length: Math.min(93, until - since + 1) }, (_, i) => since + i);
    // One value per period ending in the window (a week: every 7th day; the whole range: one).
    const step = { day: 1, week: 7, days_28: 28, month: 30 }[period as "day"] ?? days.length;
    const ends = days.filter((_, i) => (i + 1) % step === 0 || (step >= days.length && i === days.length - 1));
    return ok({
      data: metrics.map((m) => ({
        id: `${id}/insights/${m}/${period}`,
        name: m,
        period,
        title: m.replace(/_/g, " "),
        values: ends.map((d) => ({
          value: insight(m, id, d) * (step === days.length ? days.length : step),
          end_time: new Date((d + 1) * 86_400_000).toISOString().replace(/\.\d+Z$/, "+0000"),
        })),
      })),
    });
  });
}

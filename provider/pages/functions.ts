/** The page-management service's read-only functions; their reads go through the client's batching. */
import { z } from "zod";
import { requireArgs, ruleFailure } from "../check";
import { pages } from "./client";
import { ApiError, ValidationError } from "../http/errors";

const PageId = z
  .string()
  .regex(/^\d{1,32}$/, "pageId must be a numeric id")
  .describe("The page's numeric id.");
const Day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date YYYY-MM-DD");
/** Page metrics the service answers today (Page Insights reference, checked 2026-11-25). */
export const PAGE_METRICS = [
  "page_follows",
  "page_daily_follows",
  "page_daily_follows_unique",
  "page_daily_unfollows_unique",
  "page_media_view",
  "page_total_media_view_unique",
  "page_views_total",
  "page_post_engagements",
  "page_total_actions",
] as const;
/**
 * Metrics the service removed for every version, with what replaces them: one of them fails the whole call
 * ("invalid metric"), so it is refused before anything is sent. page_fans and impressions went on 2025-11-15.
 */
export const REMOVED_METRICS: Record<string, string> = {
  page_fans: "page_follows",
  page_impressions: "page_media_view",
  page_impressions_unique: "page_total_media_view_unique",
  page_fan_adds: "page_daily_follows",
  page_fan_removes: "page_daily_unfollows_unique",
  page_views: "page_views_total",
};
/** Post metrics the service removed, with what replaces them (impressions went with the page's on 2025-11-15). */
export const REMOVED_POST_METRICS: Record<string, string> = {
  post_impressions: "post_media_view",
  post_impressions_unique: "post_total_media_view_unique",
  post_impressions_organic_unique: "post_total_media_view_unique",
  post_impressions_paid_unique: "post_total_media_view_unique",
};
/** The periods of the Insights reference: what one value covers. */
export const PERIODS = ["day", "week", "days_28", "month", "lifetime", "total_over_range"] as const;
const MAX_DAYS = 90;

/** A metric name's form, and the removed ones refused with their replacement. */
function metricProblems(ctx: z.RefinementCtx, metrics: string[], removed: Record<string, string>, example: string): void {
  metrics.forEach((m, i) => {
    const instead = removed[m];
    if (instead)
      ruleFailure(ctx, `metrics.${i}`, `${m} was removed by the service (for every version, 2025-11-15): use ${instead}`, ["metrics"]);
    else if (!/^[a-z0-9_]+$/.test(m))
      ruleFailure(ctx, `metrics.${i}`, `${JSON.stringify(m)} is not a metric name (lowercase letters, digits and _, such as ${example})`, [
        "metrics",
      ]);
  });
}
const dayOf = (d: string) => Date.parse(`${d}T00:00:00Z`) / 86_400_000;

export const functionArgs = {
  getPage: z.object({
    pageId: PageId,
    fields: z
      .array(z.enum(["name", "about", "category", "link", "phone", "website", "fan_count", "followers_count"]))
      .default(["name", "about", "category", "link", "followers_count"])
      .describe("The page fields to read."),
  }),
  getPageInsights: z
    .object({
      pageId: PageId,
      metrics: z
        .array(z.string())
        .min(1, "metrics needs at least one metric")
        .describe(
          `The metrics to read, one value per day each: any the service answers for a page (${PAGE_METRICS.map((m) => `\`${m}\``).join(", ")}, and the others of its Page Insights reference), sent as given; one the service does not know comes back as one line naming it. The removed ones (page_fans, page_impressions, ...) are refused before anything is sent, with their replacement.`,
        ),
      since: Day.optional().describe("The first day, YYYY-MM-DD."),
      until: Day.optional().describe("The last day, YYYY-MM-DD; at most 90 days after `since`."),
      period: z
        .enum(PERIODS, { error: `period must be one of ${PERIODS.join(", ")}` })
        .default("day")
        .describe(
          "What one value covers: `day` (the default), `week`, `days_28`, `month`, `lifetime` or `total_over_range` (one value for since to until). A metric answers only the periods its reference lists; the service's refusal is one line.",
        ),
    })
    .superRefine((a, ctx) => {
      metricProblems(ctx, a.metrics, REMOVED_METRICS, "page_follows");
      if (a.since && a.until && dayOf(a.until) - dayOf(a.since) > MAX_DAYS)
        ruleFailure(
          ctx,
          "until",
          `since to until spans ${dayOf(a.until) - dayOf(a.since)} days; the service answers at most ${MAX_DAYS}: ask in windows of ${MAX_DAYS} days`,
          ["since"],
        );
      if (a.since && a.until && dayOf(a.until) < dayOf(a.since)) ruleFailure(ctx, "until", "until is before since: swap them", ["since"]);
    }),
  getPagePostInsights: z
    .object({
      postId: z
        .string()
        .regex(/^\d{1,32}_\d{1,32}$/, "postId must be a page post's id, `<pageId>_<postId>` (a PagePost's `postId` output)")
        .describe("The page post (`<pageId>_<postId>`, a PagePost's `postId`)."),
      metrics: z
        .array(z.string())
        .min(1, "metrics needs at least one metric")
        .default(["post_clicks", "post_reactions_by_type_total"])
        .describe(
          "The post's metrics (lifetime totals): any the service answers for a post (`post_clicks`, `post_reactions_by_type_total`, `post_media_view`, `post_total_media_view_unique`, ...), sent as given; the removed impressions are refused with their replacement.",
        ),
    })
    .superRefine((a, ctx) => metricProblems(ctx, a.metrics, REMOVED_POST_METRICS, "post_clicks")),
  getPosts: z.object({
    pageId: PageId,
    limit: z.number().int().min(1).max(100).default(25).describe("At most this many posts, newest first (1 to 100)."),
  }),
  getRateLimitInfo: z.object({ pageId: PageId.optional().describe("A page: its usage (`X-Page-Usage`) is read with its token too.") }),
};

const parse = <K extends keyof typeof functionArgs>(name: K, args: unknown): z.output<(typeof functionArgs)[K]> =>
  requireArgs("pages", name, functionArgs[name], args) as z.output<(typeof functionArgs)[K]>;

export async function getPage(args: z.input<typeof functionArgs.getPage>) {
  const a = parse("getPage", args);
  return pages().read<Record<string, string | number>>(a.pageId, `/${a.pageId}`, { fields: a.fields.join(",") });
}

export async function getPageInsights(args: z.input<typeof functionArgs.getPageInsights>) {
  const a = parse("getPageInsights", args);
  const res = await pages()
    .read<{ data: { name: string; period: string; values: { value: number; end_time: string }[] }[] }>(a.pageId, `/${a.pageId}/insights`, {
      metric: a.metrics.join(","),
      period: a.period,
      ...(a.since ? { since: a.since } : {}),
      ...(a.until ? { until: a.until } : {}),
    })
    .catch(invalidMetric("getPageInsights", "a page", a.metrics, "page_follows or page_media_view"));
  return res.data.map((m) => ({ metric: m.name, period: m.period, values: m.values }));
}

/** The service's "invalid metric": one line naming the metric and where the valid ones are listed. */
function invalidMetric(fn: string, what: string, metrics: string[], example: string) {
  return (e: unknown): never => {
    if (e instanceof ApiError && e.code === 100 && /valid insights metric/i.test(e.apiMessage)) {
      const named = metrics.find((m) => e.apiMessage.includes(m));
      throw new ValidationError({
        service: "pages",
        code: 100,
        message: `${fn}: ${named ? `${named} is not` : "a metric asked for is not"} a metric the service answers for ${what}`,
        remedy: `Use a metric of the Page Insights reference (developers.facebook.com/docs/graph-api/reference/insights), such as ${example}`,
      });
    }
    throw e;
  };
}

/** A page post's lifetime metrics: a count, or counts by kind (`post_reactions_by_type_total`: `{like, love, ...}`). */
export async function getPagePostInsights(args: z.input<typeof functionArgs.getPagePostInsights>) {
  const a = parse("getPagePostInsights", args);
  const pageId = a.postId.split("_")[0];
  const res = await pages()
    .read<{ data: { name: string; period: string; values: { value: number | Record<string, number> }[] }[] }>(
      pageId,
      `/${a.postId}/insights`,
      { metric: a.metrics.join(","), period: "lifetime" },
    )
    .catch(invalidMetric("getPagePostInsights", "a post", a.metrics, "post_clicks"));
  return res.data.map((m) => {
    const v = m.values[0]?.value ?? 0;
    return { metric: m.name, period: m.period, ...(typeof v === "number" ? { value: v } : { byType: v }) };
  });
}

export async function getPosts(args: z.input<typeof functionArgs.getPosts>) {
  const a = parse("getPosts", args);
  const res = await pages().read<{ data: Record<string, unknown>[] }>(a.pageId, `/${a.pageId}/posts`, {
    fields: "id,message,created_time,is_published,status_type,permalink_url",
    limit: String(a.limit),
  });
  return res.data;
}

interface Usage {
  callCount: number;
  totalCputime: number;
  totalTime: number;
}
/** `{"call_count":..,"total_cputime":..,"total_time":..}` (percentages of the allowance), as numbers. */
function usage(raw: unknown): Usage | undefined {
  if (typeof raw !== "string") return undefined;
  try {
    const u = JSON.parse(raw) as Record<string, number>;
    return { callCount: u.call_count ?? 0, totalCputime: u.total_cputime ?? 0, totalTime: u.total_time ?? 0 };
  } catch {
    return undefined;
  }
}

/**
 * The app's (and a page's) usage as percentages of the allowances: the service tells it only in the answers' usage
 * headers (an app has no `rate_limit_info` field), so one light read is made and its headers are read.
 */
export async function getRateLimitInfo(args: z.input<typeof functionArgs.getRateLimitInfo> = {}) {
  const a = parse("getRateLimitInfo", args);
  const client = pages();
  const token = a.pageId ? await client.pageToken(a.pageId) : await client.userToken();
  const { headers } = await client.answer("GET", a.pageId ? `/${a.pageId}` : "/me", { fields: "id" }, token);
  const buc: {
    type?: string;
    call_count?: number;
    total_cputime?: number;
    total_time?: number;
    estimated_time_to_regain_access?: number;
  }[] = [];
  try {
    for (const list of Object.values(JSON.parse(String(headers["x-business-use-case-usage"] ?? "{}")) as Record<string, typeof buc>))
      buc.push(...list);
  } catch {
    /* no business use case usage */
  }
  return {
    appUsage: usage(headers["x-app-usage"]) ?? { callCount: 0, totalCputime: 0, totalTime: 0 },
    ...(usage(headers["x-page-usage"]) ? { pageUsage: usage(headers["x-page-usage"]) } : {}),
    businessUseCaseUsage: buc.map((u) => ({
      type: u.type ?? "",
      callCount: u.call_count ?? 0,
      totalCputime: u.total_cputime ?? 0,
      totalTime: u.total_time ?? 0,
      estimatedTimeToRegainAccessMinutes: u.estimated_time_to_regain_access ?? 0,
    })),
  };
}

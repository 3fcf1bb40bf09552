/** The page-management service's read-only functions; their reads go through the client's batching. */
import { z } from "zod";
import { PAGES_SETTINGS, read } from "../config";
import { requireArgs } from "../check";
import { ValidationError } from "../http/errors";
import { pages } from "./client";

const PageId = z.string().regex(/^\d{1,32}$/, "pageId must be a numeric id").describe("The page's numeric id.");
const Day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date YYYY-MM-DD");
const PAGE_METRICS = ["page_fans", "page_impressions", "page_views", "page_post_engagements", "page_views_total"] as const;

export const functionArgs = {
  getPage: z.object({ pageId: PageId, fields: z.array(z.enum(["name", "about", "category", "link", "phone", "website", "fan_count"])).default(["name", "about", "category", "link", "fan_count"]).describe("The page fields to read.") }),
  getPageInsights: z.object({ pageId: PageId, metrics: z.array(z.enum(PAGE_METRICS)).min(1).describe("The metrics to read, one value per day each."), since: Day.optional().describe("The first day, YYYY-MM-DD."), until: Day.optional().describe("The last day, YYYY-MM-DD.") }),
  getPosts: z.object({ pageId: PageId, limit: z.number().int().min(1).max(100).default(25).describe("At most this many posts, newest first (1 to 100).") }),
  getRateLimitInfo: z.object({ appId: z.string().regex(/^\d+$/).optional().describe("The app; unset, `ops:pagesAppId`.") }),
};

const parse = <K extends keyof typeof functionArgs>(name: K, args: unknown): z.output<(typeof functionArgs)[K]> => requireArgs("pages", name, functionArgs[name], args) as z.output<(typeof functionArgs)[K]>;

export async function getPage(args: z.input<typeof functionArgs.getPage>) {
  const a = parse("getPage", args);
  return pages().read<Record<string, string | number>>(a.pageId, `/${a.pageId}`, { fields: a.fields.join(",") });
}

export async function getPageInsights(args: z.input<typeof functionArgs.getPageInsights>) {
  const a = parse("getPageInsights", args);
  const res = await pages().read<{ data: { name: string; period: string; values: { value: number; end_time: string }[] }[] }>(a.pageId, `/${a.pageId}/insights`, {
    metric: a.metrics.join(","),
    ...(a.since ? { since: a.since } : {}),
    ...(a.until ? { until: a.until } : {}),
  });
  return res.data.map((m) => ({ metric: m.name, period: m.period, values: m.values }));
}

export async function getPosts(args: z.input<typeof functionArgs.getPosts>) {
  const a = parse("getPosts", args);
  const res = await pages().read<{ data: Record<string, unknown>[] }>(a.pageId, `/${a.pageId}/posts`, { fields: "id,message,created_time,is_published,status_type", limit: String(a.limit) });
  return res.data;
}

export async function getRateLimitInfo(args: z.input<typeof functionArgs.getRateLimitInfo> = {}) {
  const a = parse("getRateLimitInfo", args);
  const appId = a.appId ?? read(PAGES_SETTINGS.appId);
  if (!appId) throw new ValidationError({ service: "pages", message: "getRateLimitInfo: no app", remedy: "Pass appId, or set ops:pagesAppId (PAGES_APP_ID)" });
  const token = read(PAGES_SETTINGS.accessToken);
  const res = await pages().call<{ rate_limit_info: Record<string, number> }>("GET", `/${appId}`, { fields: "rate_limit_info" }, token);
  return res.rate_limit_info;
}

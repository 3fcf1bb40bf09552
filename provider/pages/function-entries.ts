/**
 * The read-only functions of the page service the provider plugin serves as invokes, with their arguments and results
 * (function-registry.ts gathers every service's into one flat table).
 */
import { z } from "zod";
import type { FunctionEntry } from "../function-entry";
import * as pages from "./functions";

/** A usage header's percentages of an allowance. */
const RATE_USAGE = z.object({
  callCount: z.number().describe("Calls, in percent of the allowance."),
  totalCputime: z.number().describe("CPU time, in percent."),
  totalTime: z.number().describe("Total time, in percent."),
});

export const pagesFunctions: Record<string, FunctionEntry> = {
  "pages:getPage": {
    description: "A page's public fields (name, about, category, link, followers_count by default).",
    args: pages.functionArgs.getPage,
    result: z.object({
      id: z.string().optional().describe("The page's id."),
      name: z.string().optional().describe("The page's name."),
      about: z.string().optional().describe("Its short description."),
      category: z.string().optional().describe("Its category."),
      link: z.string().optional().describe("Its address on the service."),
      phone: z.string().optional().describe("Its phone number, when asked for in `fields`."),
      website: z.string().optional().describe("Its website, when asked for in `fields`."),
      fan_count: z.number().optional().describe("People who like it, when asked for in `fields`."),
      followers_count: z.number().optional().describe("People who follow it."),
    }),
    run: (a) => pages.getPage(a),
  },
  "pages:getPageInsights": {
    description:
      "A page's metrics (page_follows, page_media_view, ...) per day (or per `period`), optionally between two days at most 90 apart; the metrics the service removed are refused with their replacements. In Python, read an insight's `values` inside an `apply`: the Python SDK cannot export or `Output.all` an object with a field of that name (pulumi/pulumi#12806).",
    args: pages.functionArgs.getPageInsights,
    result: z.object({
      insights: z
        .array(
          z.object({
            metric: z.string().describe("The metric."),
            period: z.string().describe("What one value covers: the `period` asked for (`day` unless told)."),
            values: z
              .array(
                z.object({ value: z.number().describe("The count."), end_time: z.string().describe("The end of the period it counts.") }),
              )
              .describe("One value per period, oldest first."),
          }),
        )
        .describe("One entry per metric asked for."),
    }),
    run: async (a) => ({ insights: await pages.getPageInsights(a) }),
  },
  "pages:getPagePostInsights": {
    description:
      "A page post's metrics, lifetime totals (post_clicks, post_reactions_by_type_total, post_media_view, ...): any the service answers for a post, sent as given; the removed impressions are refused with their replacement.",
    args: pages.functionArgs.getPagePostInsights,
    result: z.object({
      insights: z
        .array(
          z.object({
            metric: z.string().describe("The metric."),
            period: z.string().describe("What the value covers: `lifetime`."),
            value: z.number().optional().describe("The count, for a metric that is one."),
            byType: z
              .record(z.string(), z.number())
              .optional()
              .describe("The counts by kind, for a metric that breaks down (`post_reactions_by_type_total`: `like`, `love`, ...)."),
          }),
        )
        .describe("One entry per metric asked for."),
    }),
    run: async (a) => ({ insights: await pages.getPagePostInsights(a) }),
  },
  "pages:getPosts": {
    description: "A page's latest posts.",
    args: pages.functionArgs.getPosts,
    result: z.object({
      posts: z
        .array(
          z.object({
            id: z.string().describe("The post's id (`<pageId>_<postId>`)."),
            message: z.string().optional().describe("Its text."),
            created_time: z.string().optional().describe("When it was made."),
            is_published: z.boolean().optional().describe("Whether it is out (false for a scheduled post or a draft)."),
            status_type: z.string().optional().describe("What kind of post: `mobile_status_update`, `added_photos`, `shared_story`, ..."),
            permalink_url: z.string().optional().describe("Its address on the service."),
          }),
        )
        .describe("The posts, newest first."),
    }),
    run: async (a) => ({ posts: await pages.getPosts(a) }),
  },
  "pages:getRateLimitInfo": {
    description:
      "The app's (and a page's) usage of its rate limits, in percent, from the service's usage headers (X-App-Usage, X-Page-Usage, X-Business-Use-Case-Usage).",
    args: pages.functionArgs.getRateLimitInfo,
    result: z.object({
      appUsage: RATE_USAGE.describe("The app's usage (X-App-Usage)."),
      pageUsage: RATE_USAGE.optional().describe("The page's usage (X-Page-Usage), when a page was given."),
      businessUseCaseUsage: z
        .array(
          RATE_USAGE.extend({
            type: z.string().describe("The use case (`pages`, ...)."),
            estimatedTimeToRegainAccessMinutes: z.number().describe("Minutes until calls are allowed again, when throttled."),
          }),
        )
        .describe("The usage per business use case (X-Business-Use-Case-Usage)."),
    }),
    run: (a) => pages.getRateLimitInfo(a),
  },
};

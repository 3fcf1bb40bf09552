/** The short-post service's read-only functions. */
import { z } from "zod";
import { requireArgs } from "../check";
import { POST_METRICS, posts } from "./client";

const LIST_FIELDS = "id,media_type,media_url,permalink,shortcode,text,timestamp,username";

export const functionArgs = {
  getProfile: z.object({}),
  getPosts: z.object({
    limit: z.number().int().min(1).max(1000).default(25).describe("At most this many posts, newest first (1 to 1,000; read 100 a page)."),
  }),
  getPostInsights: z.object({
    postId: z
      .string()
      .regex(/^\d{1,32}$/, "postId must be a post's numeric id (a Post's `postId` output)")
      .describe("The post."),
    metrics: z
      .array(z.enum(POST_METRICS, { error: `metrics takes ${POST_METRICS.join(", ")}` }))
      .min(1, "metrics needs at least one metric")
      .default([...POST_METRICS])
      .describe(
        `The counts to read: ${POST_METRICS.map((m) => `\`${m}\``).join(", ")} (all unless given). Needs the threads_manage_insights permission.`,
      ),
  }),
  getPublishingLimit: z.object({}),
};

export async function getProfile(args: z.input<typeof functionArgs.getProfile> = {}) {
  requireArgs("posts", "getProfile", functionArgs.getProfile, args);
  return posts().me();
}

export async function getPosts(args: z.input<typeof functionArgs.getPosts> = {}) {
  return posts().threads(requireArgs("posts", "getPosts", functionArgs.getPosts, args).limit, LIST_FIELDS);
}

/** A post's counts: the service keeps them off the post, on its insights edge. */
export async function getPostInsights(args: z.input<typeof functionArgs.getPostInsights>) {
  const a = requireArgs("posts", "getPostInsights", functionArgs.getPostInsights, args);
  return posts().insights(a.postId, a.metrics);
}

export async function getPublishingLimit(args: z.input<typeof functionArgs.getPublishingLimit> = {}) {
  requireArgs("posts", "getPublishingLimit", functionArgs.getPublishingLimit, args);
  const l = await posts().publishingLimit();
  return { quotaUsage: l.quota_usage, quotaTotal: l.config.quota_total, quotaDurationSeconds: l.config.quota_duration };
}

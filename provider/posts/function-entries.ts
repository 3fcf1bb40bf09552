/**
 * The read-only functions of the short-post service the provider plugin serves as invokes, with their arguments and results
 * (function-registry.ts gathers every service's into one flat table).
 */
import { z } from "zod";
import type { FunctionEntry } from "../function-entry";
import * as posts from "./functions";

export const postsFunctions: Record<string, FunctionEntry> = {
  "posts:getPostInsights": {
    description:
      "A short post's counts (views, likes, replies, reposts, quotes, shares), read from its insights: the service keeps them off the post.",
    args: posts.functionArgs.getPostInsights,
    result: z.object({
      views: z.number().optional().describe("Times the post was seen."),
      likes: z.number().optional().describe("Its likes."),
      replies: z.number().optional().describe("Its replies."),
      reposts: z.number().optional().describe("Times it was reposted."),
      quotes: z.number().optional().describe("Times it was quoted."),
      shares: z.number().optional().describe("Times it was shared."),
    }),
    run: (a) => posts.getPostInsights(a),
  },
  "posts:getPosts": {
    description: "The account's latest short posts (all pages read, up to `limit`). Counts are not fields of a post: use getPostInsights.",
    args: posts.functionArgs.getPosts,
    result: z.object({
      posts: z
        .array(
          z.object({
            id: z.string().describe("The post's id."),
            media_type: z.string().optional().describe("TEXT_POST, IMAGE, VIDEO, CAROUSEL_ALBUM, AUDIO or REPOST_FACADE."),
            media_url: z.string().optional().describe("Its image or video."),
            permalink: z.string().optional().describe("Its address on the service."),
            shortcode: z.string().optional().describe("The code in its address."),
            text: z.string().optional().describe("Its text."),
            timestamp: z.string().optional().describe("When it was published."),
            username: z.string().optional().describe("Its author."),
          }),
        )
        .describe("The posts, newest first."),
    }),
    run: async (a) => ({ posts: await posts.getPosts(a) }),
  },
  "posts:getProfile": {
    description: "The short-post account's profile.",
    args: posts.functionArgs.getProfile,
    result: z.object({
      id: z.string().describe("The account's id."),
      username: z.string().optional().describe("Its handle, without the @."),
      name: z.string().optional().describe("Its display name."),
      threads_profile_picture_url: z.string().optional().describe("Its picture."),
      threads_biography: z.string().optional().describe("Its biography."),
    }),
    run: () => posts.getProfile(),
  },
  "posts:getPublishingLimit": {
    description: "How many posts the account has published in the last 24 hours, of how many it may (250).",
    args: posts.functionArgs.getPublishingLimit,
    result: z.object({
      quotaUsage: z.number().describe("Posts published in the window."),
      quotaTotal: z.number().describe("Posts allowed in it (250)."),
      quotaDurationSeconds: z.number().describe("The window, in seconds (86400)."),
    }),
    run: () => posts.getPublishingLimit(),
  },
};

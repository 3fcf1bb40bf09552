import * as pulumi from "@pulumi/pulumi";
import * as ops from "pulumi-ops";

const config = new pulumi.Config();
/** The 30th page of the user's 30: `/me/accounts` answers 25 a page. */
const pageId = config.require("pageId");

// Bob's access to the page: a role's tasks, granted through the page's business.
new ops.pages.PageRole("helper", {
  pageId,
  user: "300000000000003",
  role: (config.get("helperRole") ?? "EDITOR") as "EDITOR" | "MODERATOR",
});
// A photo post and one scheduled for launch day.
new ops.pages.PagePost("loaf", { pageId, message: "Today's loaf", photo: { url: "https://media.example/loaf.jpg" } });
new ops.pages.PagePost("launch", {
  pageId,
  message: "We open our second shop today!",
  published: false,
  scheduledPublishTime: config.require("launchAt"),
});

// A text and an image post on the short-post service.
const hello = new ops.posts.Post("hello", { mediaType: "TEXT", text: "Fresh bread at 7 🍞 https://bakery.example" });
const rye = new ops.posts.Post("rye", { mediaType: "IMAGE", imageUrl: "https://media.example/rye.jpg", text: "Rye today" });

export const helloLink = hello.permalink;
export const ryeMedia = rye.mediaUrl;
export const follows = ops.pages
  .getPageInsightsOutput({ pageId, metrics: ["page_follows", "page_media_view"], since: "2026-11-01", until: "2026-11-07" })
  .insights.apply((i) => i.map((m) => `${m.metric}:${m.values.length}`));
export const usage = ops.pages.getRateLimitInfoOutput({ pageId }).appUsage.callCount;
export const profile = ops.posts.getProfileOutput({}).threads_biography;
export const latest = ops.posts.getPostsOutput({ limit: 5 }).posts.apply((p) => p.length);
export const helloViews = hello.postId.apply((postId) =>
  postId ? ops.posts.getPostInsights({ postId, metrics: ["views"] }).then((i) => i.views ?? 0) : 0,
);

import * as pulumi from "@pulumi/pulumi";
import * as ops from "pulumi-ops";

const config = new pulumi.Config();
const pageId = config.get("pageId") ?? "200000000000001";
/** Bob helps with the page; changing his role updates it in place. */
const helper = config.get("helperUser") ?? "300000000000003";
const helperRole = (config.get("helperRole") ?? "MODERATOR") as "MODERATOR" | "EDITOR";
/**
 * When the launch post goes out: an RFC 3339 time 10 minutes to 75 days ahead, set once in config
 * (`pulumi config set launchAt 2026-12-01T09:00:00Z`). A time computed on every run would move the post each run.
 */
const launchAt = config.require("launchAt");
const draftText = config.get("draftText") ?? "Draft: our winter menu (not published yet)";
const announcement = config.get("announcement") ?? "Fresh sourdough every morning from 7.";

// The page's own profile: the fields given are managed (the page keeps the others); a change made in the Business
// Suite is found by refresh and put back by up.
new ops.pages.PageProfile("profile", {
  pageId,
  about: config.get("about") ?? "Bread since 1921, now in two shops",
  hours: { mon_1_open: "07:00", mon_1_close: "18:00", sat_1_open: "08:00", sat_1_close: "13:00" },
});

// Who may manage the page, and which page events reach our webhook.
new ops.pages.PageRole("helper", { pageId, user: helper, role: helperRole });
new ops.pages.PageSubscription("page-events", { pageId, subscribedFields: ["feed", "messages"] });

// A post that goes out on schedule, and a draft kept for later.
const launch = new ops.pages.PagePost("launch", {
  pageId,
  message: "We open our second shop today!",
  published: false,
  scheduledPublishTime: launchAt,
});
new ops.pages.PagePost("winter-menu", { pageId, message: draftText, published: false });

// Two short posts (the account may publish 250 a day: a preview that would go over it fails). The short-post
// service's webhooks (replies, mentions, ...) have no API: they are set up in its app dashboard.
// A published post cannot be edited: a new text publishes a new post and deletes this one with its likes, replies and
// views. The preview refuses that unless `allowRepublish` is set (then it says what the post has that goes).
const hello = new ops.posts.Post("announcement", {
  mediaType: "TEXT",
  text: announcement,
  allowRepublish: config.getBoolean("allowRepublish") ?? false,
});
new ops.posts.Post("loaf-photo", { mediaType: "IMAGE", imageUrl: "https://media.example/loaf.jpg", text: "Today's loaf" });

export const launchState = launch.state;
export const announcementLink = hello.permalink;
// Counts are not fields of a post: they come from its insights.
export const announcementViews = hello.postId.apply((postId) =>
  postId ? ops.posts.getPostInsights({ postId, metrics: ["views"] }).then((i) => i.views ?? 0) : 0,
);
export const page = pulumi.output(ops.pages.getPage({ pageId })).apply((p) => ({ name: p.name, fans: p.fan_count }));

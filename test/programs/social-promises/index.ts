import * as pulumi from "@pulumi/pulumi";
import * as ops from "pulumi-ops";

const config = new pulumi.Config();
const pageId = config.require("pageId");
const allowRepublish = config.getBoolean("allowRepublish") ?? false;

// Bob reads leads and monetization insights: tasks no role stands for.
new ops.pages.PageRole("leads", { pageId, user: "300000000000003", tasks: ["ANALYZE", "MANAGE_LEADS", "VIEW_MONETIZATION_INSIGHTS"] });
// A draft, kept for later.
new ops.pages.PagePost("winter-menu", { pageId, message: "Our winter menu (draft)", published: false });
// A launch post scheduled ahead (issue 57: its time, moved by hand, is drift).
new ops.pages.PagePost("launch", { pageId, message: "Spring launch", published: false, scheduledPublishTime: config.require("launchAt") });
// Two short posts: a new text replaces one (a delete and a publish of the day's quotas).
new ops.posts.Post("rye", { text: config.get("ryeText") ?? "Rye today.", allowRepublish });
new ops.posts.Post("spelt", { text: config.get("speltText") ?? "Spelt tomorrow.", allowRepublish });

// A metric the provider does not list, which the service answers.
export const byCountry = ops.pages
  .getPageInsightsOutput({ pageId, metrics: ["page_follows_country"] })
  .insights.apply((i) => i.map((m) => m.metric));

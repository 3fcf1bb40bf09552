/**
 * The reference's examples as data: each function's here, each resource's in its folder's schema.ts (`example`),
 * gathered here from the registry. scripts/example-render.ts writes each in TypeScript, Python, Go and YAML from the
 * schema, and the tests run or compile all four (reference-examples*.test.ts), the YAML ones through the engine
 * against the emulators, so the values must be ones the services accept (the emulators' seed data: zone example.com,
 * page 200000000000001, remote desktop kiosk.local; the test publishes the skill `bread-proofing` and a short post
 * first, as a registry and an account in use have them).
 */

import { registry } from "../provider/registry";
import { components } from "../provider/component-registry";
import { ref, type Example, type Step } from "../provider/doc-example";

export { ref, Ref, type Example, type Step, type Value } from "../provider/doc-example";

/** Each resource's example, from its folder's schema.ts (`example`), by schema token. */
export const RESOURCE_EXAMPLES: Record<string, Example> = Object.fromEntries([
  ...Object.entries(registry)
    .filter(([, entry]) => entry.docs.example)
    .map(([token, entry]) => [`ops:${token}`, entry.docs.example!]),
  ...Object.entries(components).map(([token, entry]) => [`ops:${token}`, entry.example]),
]);

const PAGE = "200000000000001";
const zone: Step = { token: "ops:edge:getZone", name: "zone", args: { name: "example.com" } };

/** Resources with no example: retired ones, which a program fails to declare. */
export const NO_EXAMPLE = new Set(
  Object.keys(registry)
    .filter((t) => registry[t].retired)
    .map((t) => `ops:${t}`),
);

export const FUNCTION_EXAMPLES: Record<string, Example> = {
  "ops:control:listTools": { step: { name: "toolList", args: {} }, exports: { tools: ref("toolList.tools") } },
  "ops:control:screenshot": { step: { name: "screen", args: {} }, exports: { screenMimeType: ref("screen.mimeType") } },
  "ops:edge:getCacheStats": {
    before: [zone],
    step: { name: "cache", args: { zoneId: ref("zone.id") } },
    exports: { colos: ref("cache.colos") },
  },
  "ops:edge:getSecurityEvents": {
    before: [zone],
    step: { name: "events", args: { zoneId: ref("zone.id"), since: -60 } },
    exports: { securityEvents: ref("events.events") },
  },
  "ops:edge:getZone": {
    step: { name: "found", args: { name: "example.com" } },
    exports: { zoneId: ref("found.id"), zoneStatus: ref("found.status") },
  },
  "ops:edge:getZoneAnalytics": {
    before: [zone],
    step: { name: "traffic", args: { zoneId: ref("zone.id"), since: -1440 } },
    exports: { requests: ref("traffic.requests") },
  },
  "ops:edge:getUnmanagedRecords": {
    step: { name: "outsideCode", args: { zoneName: "example.com" } },
    exports: { unmanagedRecords: ref("outsideCode.unmanaged"), serviceRecords: ref("outsideCode.apart") },
  },
  "ops:edge:listWorkerScripts": { step: { name: "workerScripts", args: {} }, exports: { scripts: ref("workerScripts.scripts") } },
  "ops:edge:parseZoneFile": {
    step: { name: "parsed", args: { origin: "example.com", text: "www 300 IN A 203.0.113.10\n" } },
    exports: { parsedRecords: ref("parsed.records") },
  },
  "ops:edge:toZoneFile": {
    step: { name: "zoneFile", args: { origin: "example.com", records: [{ type: "A", name: "www", content: "203.0.113.10", ttl: 300 }] } },
    exports: { zoneFileText: ref("zoneFile.text") },
  },
  "ops:edge:verifyToken": { step: { name: "token", args: {} }, exports: { tokenStatus: ref("token.status") } },
  "ops:pages:getPage": { step: { name: "page", args: { pageId: PAGE } }, exports: { pageName: ref("page.name") } },
  "ops:pages:getPageInsights": {
    step: { name: "insights", args: { pageId: PAGE, metrics: ["page_follows", "page_views_total"] } },
    exports: { firstMetric: ref("insights.insights[0].metric") },
  },
  "ops:pages:getPagePostInsights": {
    before: [{ token: "ops:pages:PagePost", name: "opening", args: { pageId: PAGE, message: "Our second shop opens on Monday." } }],
    step: { name: "postStats", args: { postId: ref("opening.id"), metrics: ["post_clicks", "post_reactions_by_type_total"] } },
    exports: { clicks: ref("postStats.insights[0].value") },
  },
  "ops:pages:getPosts": { step: { name: "feed", args: { pageId: PAGE, limit: 5 } }, exports: { pagePosts: ref("feed.posts") } },
  "ops:pages:getRateLimitInfo": { step: { name: "usage", args: { pageId: PAGE } }, exports: { appUsage: ref("usage.appUsage") } },
  "ops:posts:getPostInsights": {
    before: [{ token: "ops:posts:getPosts", name: "latest", args: { limit: 1 } }],
    step: { name: "postInsights", args: { postId: ref("latest.posts[0].id"), metrics: ["views", "likes"] } },
    exports: { views: ref("postInsights.views") },
  },
  "ops:posts:getPosts": { step: { name: "recent", args: { limit: 10 } }, exports: { recentPosts: ref("recent.posts") } },
  "ops:posts:getProfile": { step: { name: "profile", args: {} }, exports: { username: ref("profile.username") } },
  "ops:posts:getPublishingLimit": { step: { name: "quota", args: {} }, exports: { quotaUsage: ref("quota.quotaUsage") } },
  "ops:runner:listModels": { step: { name: "installed", args: {} }, exports: { models: ref("installed.models") } },
  "ops:runner:listRunningModels": { step: { name: "running", args: {} }, exports: { runningModels: ref("running.models") } },
  "ops:skills:getSkill": {
    step: { name: "skill", args: { slug: "bread-proofing" } },
    exports: { skillDescription: ref("skill.description") },
  },
  "ops:skills:getSkillMarkdown": {
    step: { name: "skillMd", args: { slug: "bread-proofing" } },
    exports: { skillMarkdown: ref("skillMd.markdown") },
  },
  "ops:skills:searchSkills": { step: { name: "search", args: { q: "oven" } }, exports: { skills: ref("search.skills") } },
};

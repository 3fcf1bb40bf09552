/**
 * One flat table of the read-only functions the provider plugin serves as invokes (`ops:edge:getZone`, ...), the
 * functions of schema.json, and their reference docs. Arguments are the zod schemas the TypeScript functions parse;
 * each result is an object described by a zod schema here (a list comes back under a named property, as Pulumi's
 * function results are objects). TypeScript programs call the same functions in-process (sdk/<module>/functions.ts).
 *
 * Left out: `control.openRemoteDesktop`, which acts on a computer (it is not read-only), and `screenshot`'s `path`,
 * which would write a file where the plugin runs instead of where the program runs.
 */
import { z } from "zod";
import * as control from "./control/functions";
import { RECORD_TYPES } from "./edge/dns-record/normalize";

/** A record as parseZoneFile gives it and toZoneFile takes it. */
const ZoneRecord = z.object({
  type: z.enum(RECORD_TYPES),
  name: z.string(),
  content: z.string().optional(),
  data: z.record(z.string(), z.union([z.number(), z.string()])).optional(),
  ttl: z.number(),
  priority: z.number().optional(),
  proxied: z.boolean().optional(),
});
import * as edge from "./edge/functions";
import * as pages from "./pages/functions";
import * as posts from "./posts/functions";
import * as runner from "./runner/functions";
import { SKILL_FIELDS } from "./skills/client";
import * as skills from "./skills/functions";

export interface FunctionEntry {
  description: string;
  args: z.ZodType;
  result: z.ZodObject;
  run(args: any): Promise<unknown>;
}

const Totals = (...keys: string[]) => z.object(Object.fromEntries(keys.map((k) => [k, z.number()])));
const Skill = z.object({ slug: z.string(), ...SKILL_FIELDS });
const Size = z.object({ width: z.number(), height: z.number() });

/** A usage header's percentages of an allowance. */
const RATE_USAGE = z.object({ callCount: z.number().describe("Calls, in percent of the allowance."), totalCputime: z.number().describe("CPU time, in percent."), totalTime: z.number().describe("Total time, in percent.") });

export const functions: Record<string, FunctionEntry> = {
  "control:listTools": {
    description: "The tools the computer-control endpoint offers.",
    args: z.object({}),
    result: z.object({ tools: z.array(z.object({ name: z.string(), description: z.string().optional() })) }),
    run: async () => ({ tools: await control.listTools() }),
  },
  "control:screenshot": {
    description: "A screenshot of the controlled computer, as its server sends it (PNG or JPEG): its size in pixels and in points (the unit clicks take), the density between them, and the image (base64).",
    args: z.object({ density: z.number().positive().optional().describe("Pixels per point; by default the screenshot's width over the host's desktop width in points (asked once), else 1.") }),
    result: z.object({
      pixels: Size,
      points: Size,
      density: z.number().describe("Pixels per point."),
      mimeType: z.string().describe("`image/png` or `image/jpeg`."),
      imageBase64: z.string().describe("The image as the server sent it."),
      pngBase64: z.string().optional().describe("The same image when it is a PNG (deprecated: read imageBase64 and mimeType)."),
    }),
    run: async (a) => {
      const s = await control.screenshot({ density: a.density });
      const base64 = s.data.toString("base64");
      return { pixels: s.pixels, points: s.points, density: s.density, mimeType: s.mimeType, imageBase64: base64, ...(s.mimeType === "image/png" ? { pngBase64: base64 } : {}) };
    },
  },
  "edge:getCacheStats": {
    description: "Cache statistics per location of a zone in a window (the last day unless given), with each location's hit ratio, from the GraphQL Analytics API (`httpRequestsAdaptiveGroups`); a window outside the dataset's limits for the zone's plan is refused naming them.",
    args: edge.functionArgs.getCacheStats,
    result: z.object({
      colos: z.array(z.object({ colo: z.string(), requests: Totals("all", "cached", "uncached"), bandwidth: Totals("all", "cached"), hitRatio: z.number() })),
    }),
    run: async (a) => ({ colos: await edge.getCacheStats(a) }),
  },
  "edge:getSecurityEvents": {
    description: "The security events of a zone in a window (the last day unless given), newest first, from the GraphQL Analytics API (`firewallEventsAdaptive`); a window outside the dataset's limits for the zone's plan is refused naming them.",
    args: edge.functionArgs.getSecurityEvents,
    result: z.object({
      events: z.array(
        z.object({ rayId: z.string(), action: z.string(), source: z.string(), clientIp: z.string(), country: z.string(), host: z.string(), path: z.string(), occurredAt: z.string() }),
      ),
    }),
    run: async (a) => ({ events: await edge.getSecurityEvents(a) }),
  },
  "edge:getZone": {
    description: "The zone with this name; fails clearly when none or several match.",
    args: edge.functionArgs.getZone,
    result: z.object({ id: z.string(), name: z.string(), status: z.string() }),
    run: (a) => edge.getZone(a),
  },
  "edge:getZoneAnalytics": {
    description: "A zone's traffic totals over whole days (UTC) of a window: `since` a negative offset in minutes or a time, `until` `now` or a time; from the GraphQL Analytics API (`httpRequests1dGroups`), the window held to the dataset's limits for the zone's plan.",
    args: edge.functionArgs.getZoneAnalytics,
    result: z.object({
      since: z.string(),
      until: z.string(),
      requests: Totals("all", "cached", "uncached"),
      bandwidth: Totals("all", "cached", "uncached"),
      threats: Totals("all"),
      pageviews: Totals("all"),
      uniques: Totals("all"),
    }),
    run: (a) => edge.getZoneAnalytics(a),
  },
  "edge:listWorkerScripts": {
    description: "The account's edge scripts (the account of ops:edgeAccountId unless given).",
    args: edge.functionArgs.listWorkerScripts,
    result: z.object({ scripts: z.array(z.object({ name: z.string(), etag: z.string().optional(), size: z.number().optional(), modifiedOn: z.string().optional() })) }),
    run: async (a) => ({ scripts: await edge.listWorkerScripts(a) }),
  },
  "edge:parseZoneFile": {
    description: "A standard zone file (BIND format) read into the records of an `ops.edge.DnsRecordSet`, every type the service manages, keyed `<type>:<name>` (`<type>:<name>:<value>` when several share a type and name, so a key follows its record's value, not its line). The SOA and apex NS records are the service's own and are listed in `skipped`; a bad line is refused with its number and fix. Sends nothing.",
    args: edge.functionArgs.parseZoneFile,
    result: z.object({
      records: z.record(z.string(), ZoneRecord),
      skipped: z.array(z.object({ line: z.number(), type: z.string(), name: z.string(), reason: z.string() })),
      lines: z.record(z.string(), z.number()).describe("The line each record was read from, by key."),
    }),
    run: (a) => edge.parseZoneFile(a),
  },
  "edge:toZoneFile": {
    description: "Records (a DnsRecordSet's `records` output, or any map or list of records) written as a BIND zone file that `parseZoneFile` reads back unchanged; a proxied record carries the service's `cf_tags=cf-proxied:true` marker. Sends nothing.",
    args: edge.functionArgs.toZoneFile,
    result: z.object({ text: z.string().describe("The zone file.") }),
    run: async (a) => ({ text: edge.toZoneFile(a) }),
  },
  "edge:verifyToken": {
    description: "Whether the configured API token is valid: its id, status and kind. A user token verifies at `/user/tokens/verify`, an account-owned token (the kind the service recommends) at `/accounts/{account_id}/tokens/verify`; both are tried.",
    args: edge.functionArgs.verifyToken,
    result: z.object({
      id: z.string().describe("The token's id."),
      status: z.string().describe("`active`, `disabled` or `expired`."),
      kind: z.enum(["user", "account"]).describe("`user` for a user API token, `account` for an account-owned API token."),
      accountId: z.string().optional().describe("The account an account-owned token belongs to."),
      expiresOn: z.string().optional().describe("When the token expires, if it does."),
    }),
    run: () => edge.verifyToken(),
  },
  "pages:getPage": {
    description: "A page's public fields (name, about, category, link, followers_count by default).",
    args: pages.functionArgs.getPage,
    result: z.object({
      id: z.string().optional(),
      name: z.string().optional(),
      about: z.string().optional(),
      category: z.string().optional(),
      link: z.string().optional(),
      phone: z.string().optional(),
      website: z.string().optional(),
      fan_count: z.number().optional(),
      followers_count: z.number().optional(),
    }),
    run: (a) => pages.getPage(a),
  },
  "pages:getPageInsights": {
    description: "A page's metrics (page_follows, page_media_view, ...) per day, optionally between two days at most 90 apart; the metrics the service removed are refused with their replacements. In Python, read an insight's `values` inside an `apply`: the Python SDK cannot export or `Output.all` an object with a field of that name (pulumi/pulumi#12806).",
    args: pages.functionArgs.getPageInsights,
    result: z.object({ insights: z.array(z.object({ metric: z.string(), period: z.string(), values: z.array(z.object({ value: z.number(), end_time: z.string() })) })) }),
    run: async (a) => ({ insights: await pages.getPageInsights(a) }),
  },
  "pages:getPosts": {
    description: "A page's latest posts.",
    args: pages.functionArgs.getPosts,
    result: z.object({
      posts: z.array(z.object({ id: z.string(), message: z.string().optional(), created_time: z.string().optional(), is_published: z.boolean().optional(), status_type: z.string().optional(), permalink_url: z.string().optional() })),
    }),
    run: async (a) => ({ posts: await pages.getPosts(a) }),
  },
  "pages:getRateLimitInfo": {
    description: "The app's (and a page's) usage of its rate limits, in percent, from the service's usage headers (X-App-Usage, X-Page-Usage, X-Business-Use-Case-Usage).",
    args: pages.functionArgs.getRateLimitInfo,
    result: z.object({
      appUsage: RATE_USAGE,
      pageUsage: RATE_USAGE.optional(),
      businessUseCaseUsage: z.array(RATE_USAGE.extend({ type: z.string(), estimatedTimeToRegainAccessMinutes: z.number() })),
    }),
    run: (a) => pages.getRateLimitInfo(a),
  },
  "posts:getPostInsights": {
    description: "A short post's counts (views, likes, replies, reposts, quotes, shares), read from its insights: the service keeps them off the post.",
    args: posts.functionArgs.getPostInsights,
    result: z.object({ views: z.number().optional(), likes: z.number().optional(), replies: z.number().optional(), reposts: z.number().optional(), quotes: z.number().optional(), shares: z.number().optional() }),
    run: (a) => posts.getPostInsights(a),
  },
  "posts:getPosts": {
    description: "The account's latest short posts (all pages read, up to `limit`). Counts are not fields of a post: use getPostInsights.",
    args: posts.functionArgs.getPosts,
    result: z.object({
      posts: z.array(
        z.object({
          id: z.string(),
          media_type: z.string().optional().describe("TEXT_POST, IMAGE, VIDEO, CAROUSEL_ALBUM, AUDIO or REPOST_FACADE."),
          media_url: z.string().optional(),
          permalink: z.string().optional(),
          shortcode: z.string().optional(),
          text: z.string().optional(),
          timestamp: z.string().optional(),
          username: z.string().optional(),
        }),
      ),
    }),
    run: async (a) => ({ posts: await posts.getPosts(a) }),
  },
  "posts:getProfile": {
    description: "The short-post account's profile.",
    args: posts.functionArgs.getProfile,
    result: z.object({ id: z.string(), username: z.string().optional(), name: z.string().optional(), threads_profile_picture_url: z.string().optional(), threads_biography: z.string().optional() }),
    run: () => posts.getProfile(),
  },
  "posts:getPublishingLimit": {
    description: "How many posts the account has published in the last 24 hours, of how many it may (250).",
    args: posts.functionArgs.getPublishingLimit,
    result: z.object({ quotaUsage: z.number(), quotaTotal: z.number(), quotaDurationSeconds: z.number() }),
    run: () => posts.getPublishingLimit(),
  },
  "runner:listModels": {
    description: "The models present on the runner.",
    args: z.object({}),
    result: z.object({
      models: z.array(
        z.object({ name: z.string(), digest: z.string(), size: z.number(), family: z.string().optional(), parameterSize: z.string().optional(), quantizationLevel: z.string().optional(), modifiedAt: z.string().optional() }),
      ),
    }),
    run: async () => ({ models: await runner.listModels() }),
  },
  "runner:listRunningModels": {
    description: "The models loaded in the runner's memory now.",
    args: z.object({}),
    result: z.object({ models: z.array(z.object({ name: z.string(), size: z.number(), sizeVram: z.number().optional(), expiresAt: z.string().optional() })) }),
    run: async () => ({ models: await runner.listRunningModels() }),
  },
  "skills:getSkill": {
    description: "A published skill by its slug.",
    args: skills.functionArgs.getSkill,
    result: Skill,
    run: (a) => skills.getSkill(a),
  },
  "skills:getSkillMarkdown": {
    description: "A published skill's SKILL.md text.",
    args: skills.functionArgs.getSkillMarkdown,
    result: z.object({ markdown: z.string() }),
    run: async (a) => ({ markdown: await skills.getSkillMarkdown(a) }),
  },
  "skills:searchSkills": {
    description: "Skills whose name, description or tags match `q` (all skills when empty).",
    args: skills.functionArgs.searchSkills,
    result: z.object({ skills: z.array(Skill) }),
    run: async (a) => ({ skills: await skills.searchSkills(a) }),
  },
};

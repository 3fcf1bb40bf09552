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
  name: z.string().describe("The record's name, relative to the origin (`@` for the apex)."),
  content: z.string().optional().describe("Its value, for the types that take `content`."),
  data: z
    .record(z.string(), z.union([z.number(), z.string()]))
    .optional()
    .describe("Its fields, for the types that take `data`."),
  ttl: z.number().describe("Its TTL in seconds."),
  priority: z.number().optional().describe("Its priority (MX, URI)."),
  proxied: z.boolean().optional().describe("Whether the service proxies it (the `cf_tags=cf-proxied:true` marker)."),
});
import * as edge from "./edge/functions";

/** A record as getUnmanagedRecords tells it. */
const UnmanagedRecord = z.object({
  id: z.string().describe("The record's id."),
  type: z.string().describe("Its type."),
  name: z.string().describe("Its name relative to the zone (`@` the apex), as a DnsRecordSet's records take it."),
  content: z.string().describe("Its value as the service writes it."),
  ttl: z.number().describe("Its TTL in seconds (1: automatic)."),
  proxied: z.boolean().describe("Whether the service proxies it."),
  priority: z.number().optional().describe("Its priority (MX, URI)."),
  comment: z.string().optional().describe("Its comment."),
});
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

/** Counts by kind: `all`, and of those `cached`, `uncached` where the dataset splits them. */
const TOTAL_ABOUT: Record<string, string> = {
  all: "All of them.",
  cached: "Those served from the edge's cache.",
  uncached: "Those fetched from the origin.",
};
const Totals = (...keys: string[]) => z.object(Object.fromEntries(keys.map((k) => [k, z.number().describe(TOTAL_ABOUT[k])])));
const Skill = z.object({ slug: z.string().describe("The skill's address in the registry."), ...SKILL_FIELDS });
const Size = z.object({ width: z.number().describe("Width."), height: z.number().describe("Height.") });

/** A usage header's percentages of an allowance. */
const RATE_USAGE = z.object({
  callCount: z.number().describe("Calls, in percent of the allowance."),
  totalCputime: z.number().describe("CPU time, in percent."),
  totalTime: z.number().describe("Total time, in percent."),
});

export const functions: Record<string, FunctionEntry> = {
  "control:listTools": {
    description: "The tools the computer-control endpoint offers.",
    args: z.object({}),
    result: z.object({
      tools: z
        .array(
          z.object({
            name: z.string().describe("The tool's name, as a call names it."),
            description: z.string().optional().describe("What the server says the tool does."),
          }),
        )
        .describe("Every tool the endpoint lists."),
    }),
    run: async () => ({ tools: await control.listTools() }),
  },
  "control:screenshot": {
    description:
      "A screenshot of the controlled computer, as its server sends it (PNG or JPEG): its size in pixels and in points (the unit clicks take), the density between them, and the image (base64).",
    args: z.object({
      density: z
        .number()
        .positive()
        .optional()
        .describe("Pixels per point; by default the screenshot's width over the host's desktop width in points (asked once), else 1."),
    }),
    result: z.object({
      pixels: Size.describe("The image's size in pixels."),
      points: Size.describe("The screen's size in points, the unit clicks take."),
      density: z.number().describe("Pixels per point."),
      mimeType: z.string().describe("`image/png` or `image/jpeg`."),
      imageBase64: z.string().describe("The image as the server sent it."),
      pngBase64: z.string().optional().describe("The same image when it is a PNG (deprecated: read imageBase64 and mimeType)."),
    }),
    run: async (a) => {
      const s = await control.screenshot({ density: a.density });
      const base64 = s.data.toString("base64");
      return {
        pixels: s.pixels,
        points: s.points,
        density: s.density,
        mimeType: s.mimeType,
        imageBase64: base64,
        ...(s.mimeType === "image/png" ? { pngBase64: base64 } : {}),
      };
    },
  },
  "edge:getCacheStats": {
    description:
      "Cache statistics per location of a zone in a window (the last day unless given), with each location's hit ratio, from the GraphQL Analytics API (`httpRequestsAdaptiveGroups`); a window outside the dataset's limits for the zone's plan is refused naming them.",
    args: edge.functionArgs.getCacheStats,
    result: z.object({
      colos: z
        .array(
          z.object({
            colo: z.string().describe("The location's code (an airport code, `FRA`)."),
            requests: Totals("all", "cached", "uncached").describe("Requests the location answered."),
            bandwidth: Totals("all", "cached").describe("Bytes it sent."),
            hitRatio: z.number().describe("Cached requests over all, from 0 to 1."),
          }),
        )
        .describe("One entry per location that served the zone in the window."),
    }),
    run: async (a) => ({ colos: await edge.getCacheStats(a) }),
  },
  "edge:getSecurityEvents": {
    description:
      "The security events of a zone in a window (the last day unless given), newest first, from the GraphQL Analytics API (`firewallEventsAdaptive`); a window outside the dataset's limits for the zone's plan is refused naming them.",
    args: edge.functionArgs.getSecurityEvents,
    result: z.object({
      events: z
        .array(
          z.object({
            rayId: z.string().describe("The request's id (Ray ID)."),
            action: z.string().describe("What was done: `block`, `challenge`, `log`, ..."),
            source: z.string().describe("What acted: `firewallCustom`, `ratelimit`, `waf`, ..."),
            clientIp: z.string().describe("The client's address."),
            country: z.string().describe("The client's country (ISO 3166-1 alpha-2)."),
            host: z.string().describe("The host asked for."),
            path: z.string().describe("The path asked for."),
            occurredAt: z.string().describe("When (RFC 3339)."),
          }),
        )
        .describe("The events, newest first."),
    }),
    run: async (a) => ({ events: await edge.getSecurityEvents(a) }),
  },
  "edge:getZone": {
    description: "The zone with this name; fails clearly when none or several match.",
    args: edge.functionArgs.getZone,
    result: z.object({
      id: z.string().describe("The zone's id, which resources and functions take as `zoneId`."),
      name: z.string().describe("The zone's domain name."),
      status: z.string().describe("`active`, `pending` (name servers not yet moved), `initializing`, `moved` or `deactivated`."),
    }),
    run: (a) => edge.getZone(a),
  },
  "edge:getZoneAnalytics": {
    description:
      "A zone's traffic totals over whole days (UTC) of a window: `since` a negative offset in minutes or a time, `until` `now` or a time; from the GraphQL Analytics API (`httpRequests1dGroups`), the window held to the dataset's limits for the zone's plan.",
    args: edge.functionArgs.getZoneAnalytics,
    result: z.object({
      since: z.string().describe("The window's first day counted (UTC), as `YYYY-MM-DD`: the same all day for the same window."),
      until: z.string().describe("The window's last day counted (UTC), as `YYYY-MM-DD`."),
      requests: Totals("all", "cached", "uncached").describe("Requests."),
      bandwidth: Totals("all", "cached", "uncached").describe("Bytes sent."),
      threats: Totals("all").describe("Requests the service counted as threats."),
      pageviews: Totals("all").describe("Requests for HTML pages."),
      uniques: Totals("all").describe(
        "Each day's unique visitors (distinct client addresses of that day), added up over the days counted: a visitor seen on two days counts twice, as the daily dataset has no count across days.",
      ),
    }),
    run: (a) => edge.getZoneAnalytics(a),
  },
  "edge:getUnmanagedRecords": {
    description:
      "The zone's records that are not among `managedIds` and carry no pulumi-ops stack's label, with the service's own records — read-only, Worker-made, app- or tunnel-managed — listed apart, as an authoritative DnsRecordSet never deletes them. What it checks is only that: labels exist where the zone's plan takes tags (paid plans), so on a Free zone a record of this stack or another is listed unless `managedIds` names it — pass the ids of this stack's sets and records (a DnsRecordSet's `ids` values, a DnsRecord's `id`); a TypeScript program that leaves `managedIds` out has the ids of the sets and records it declared before the call left out. One listing of the zone; sends nothing.",
    args: edge.functionArgs.getUnmanagedRecords,
    result: z.object({
      zoneId: z.string().describe("The zone's id."),
      zoneName: z.string().describe("The zone's name."),
      total: z.number().describe("Every record the zone holds."),
      unmanaged: z
        .array(UnmanagedRecord)
        .describe(
          "Records neither among `managedIds` nor labelled by a pulumi-ops stack: what an authoritative set at their names would delete.",
        ),
      apart: z
        .array(
          UnmanagedRecord.extend({
            reason: z
              .enum(["read-only", "worker", "system"])
              .describe(
                "`read-only` (the service keeps it: a custom domain's, Email Routing's, ...), `worker` (a Worker is its origin), `system` (an app or a tunnel manages it).",
              ),
          }),
        )
        .describe("The service's own records, never deleted by pulumi-ops."),
      labelled: z
        .array(UnmanagedRecord.extend({ stack: z.string().describe("The stack its `pulumi-ops-stack:` tag names.") }))
        .describe("Records a pulumi-ops stack labelled as its own (its tag) and not among `managedIds`."),
    }),
    run: (a) => edge.getUnmanagedRecords(a),
  },
  "edge:listWorkerScripts": {
    description: "The account's edge scripts (the account of ops:edgeAccountId unless given).",
    args: edge.functionArgs.listWorkerScripts,
    result: z.object({
      scripts: z
        .array(
          z.object({
            name: z.string().describe("The script's name."),
            etag: z.string().optional().describe("Its content's tag."),
            size: z.number().optional().describe("Its size in bytes."),
            modifiedOn: z.string().optional().describe("When it last changed (RFC 3339)."),
          }),
        )
        .describe("Every script of the account."),
    }),
    run: async (a) => ({ scripts: await edge.listWorkerScripts(a) }),
  },
  "edge:parseZoneFile": {
    description:
      "A standard zone file (BIND format) read into the records of an `ops.edge.DnsRecordSet`, every type the service manages, keyed `<type>:<name>` (`<type>:<name>:<value>` when several share a type and name, so a key follows its record's value, not its line). The SOA and apex NS records are the service's own and are listed in `skipped`; a bad line is refused with its number and fix. Sends nothing.",
    args: edge.functionArgs.parseZoneFile,
    result: z.object({
      records: z.record(z.string(), ZoneRecord).describe("The records, by key: a DnsRecordSet's `records` input."),
      skipped: z
        .array(
          z.object({
            line: z.number().describe("Its line."),
            type: z.string().describe("Its type."),
            name: z.string().describe("Its name."),
            reason: z.string().describe("Why it was left out."),
          }),
        )
        .describe("Records left out (SOA, apex NS), with why."),
      lines: z.record(z.string(), z.number()).describe("The line each record was read from, by key."),
    }),
    run: (a) => edge.parseZoneFile(a),
  },
  "edge:toZoneFile": {
    description:
      "Records (a DnsRecordSet's `records` output, or any map or list of records) written as a BIND zone file that `parseZoneFile` reads back unchanged; a proxied record carries the service's `cf_tags=cf-proxied:true` marker. Sends nothing.",
    args: edge.functionArgs.toZoneFile,
    result: z.object({ text: z.string().describe("The zone file.") }),
    run: async (a) => ({ text: edge.toZoneFile(a) }),
  },
  "edge:verifyToken": {
    description:
      "Whether the configured API token is valid: its id, status and kind. A user token verifies at `/user/tokens/verify`, an account-owned token (the kind the service recommends) at `/accounts/{account_id}/tokens/verify`; both are tried.",
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
  "runner:listModels": {
    description: "The models present on the runner.",
    args: z.object({}),
    result: z.object({
      models: z
        .array(
          z.object({
            name: z.string().describe("`model:tag`."),
            digest: z.string().describe("Its digest (sha256), which changes with its content."),
            size: z.number().describe("Its size on disk, in bytes."),
            family: z.string().optional().describe("Its architecture's family (`llama`, `qwen2`, ...)."),
            parameterSize: z.string().optional().describe("Its parameters (`494.03M`, `3.2B`)."),
            quantizationLevel: z.string().optional().describe("Its quantization (`Q4_K_M`, ...)."),
            modifiedAt: z.string().optional().describe("When it last changed on the runner."),
          }),
        )
        .describe("Every model present."),
    }),
    run: async () => ({ models: await runner.listModels() }),
  },
  "runner:listRunningModels": {
    description: "The models loaded in the runner's memory now.",
    args: z.object({}),
    result: z.object({
      models: z
        .array(
          z.object({
            name: z.string().describe("`model:tag`."),
            size: z.number().describe("Memory it takes, in bytes."),
            sizeVram: z.number().optional().describe("Of which on the GPU."),
            expiresAt: z.string().optional().describe("When it will be unloaded if unused."),
          }),
        )
        .describe("Every model loaded."),
    }),
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
    result: z.object({ markdown: z.string().describe("The SKILL.md: front matter, then the body.") }),
    run: async (a) => ({ markdown: await skills.getSkillMarkdown(a) }),
  },
  "skills:searchSkills": {
    description: "Skills whose name, description or tags match `q` (all skills when empty).",
    args: skills.functionArgs.searchSkills,
    result: z.object({ skills: z.array(Skill).describe("The matching skills.") }),
    run: async (a) => ({ skills: await skills.searchSkills(a) }),
  },
};

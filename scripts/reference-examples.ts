/**
 * The reference's examples, one per resource and function, as data: scripts/example-render.ts writes each in
 * TypeScript, Python, Go and YAML from the schema, and the tests run or compile all four (reference-examples*.test.ts),
 * the YAML ones through the engine against the emulators, so the values here must be ones the services accept
 * (the emulators' seed data: zone example.com, page 200000000000001, remote desktop kiosk.local; the test publishes
 * the skill `bread-proofing` and a short post first, as a registry and an account in use have them).
 */

/** Another step's output, by path: `zone.id`, `writer.name`, `latest.posts[0].id`. */
export class Ref {
  constructor(readonly path: string) {}
}
export const ref = (path: string) => new Ref(path);

export type Value = string | number | boolean | Ref | Value[] | { [key: string]: Value };

export interface Step {
  /** A resource (`ops:edge:DnsRecord`) or a function (`ops:edge:getZone`), by schema token. */
  token: string;
  /** The variable, and a resource's name. */
  name: string;
  args: Record<string, Value>;
}

export interface Example {
  /** Steps before the one the example is for: what it takes its inputs from. */
  before?: Step[];
  step: Omit<Step, "token">;
  /** Stack outputs, for a function's example: what it answers. */
  exports?: Record<string, Ref>;
}

const PAGE = "200000000000001";
const zone: Step = { token: "ops:edge:getZone", name: "zone", args: { name: "example.com" } };

export const RESOURCE_EXAMPLES: Record<string, Example> = {
  "ops:control:RemoteCommand": { step: { name: "marker", args: { create: "touch /tmp/ready", delete: "rm -f /tmp/ready" } } },
  "ops:control:RemoteDesktopSession": { step: { name: "kiosk", args: { host: "kiosk.local", username: "ops" } } },
  "ops:edge:DnsRecord": {
    step: { name: "www", args: { zoneName: "example.com", type: "A", name: "www", content: "203.0.113.10", proxied: true } },
  },
  "ops:edge:DnsRecordSet": {
    step: {
      name: "hosts",
      args: {
        zoneName: "example.com",
        records: {
          docs: { type: "CNAME", name: "docs", content: "docs-host.example.net", proxied: true },
          "api-a": { type: "A", name: "api", content: "203.0.113.20", ttl: 300 },
        },
      },
    },
  },
  "ops:edge:RulesetRule": {
    step: {
      name: "cacheStatic",
      args: {
        zoneName: "example.com",
        phase: "http_request_cache_settings",
        expression: 'http.request.uri.path wildcard "/static/*"',
        action: "set_cache_settings",
        actionParameters: { cache: true },
      },
    },
  },
  "ops:edge:FirewallRule": {
    step: { name: "badNet", args: { zoneName: "example.com", expression: "ip.src in {198.51.100.0/24}", action: "block" } },
  },
  "ops:edge:PageRule": {
    step: {
      name: "static",
      args: {
        zoneName: "example.com",
        targets: ["example.com/static/*"],
        actions: [{ id: "cache_level", value: "cache_everything" }],
        priority: 1,
      },
    },
  },
  "ops:edge:RateLimit": {
    // What a Free plan allows: a 10-second count and a 10-second ban.
    step: {
      name: "login",
      args: {
        zoneName: "example.com",
        threshold: 10,
        period: 10,
        action: { mode: "ban", timeout: 10 },
        match: { request: { url: "*/login*" } },
      },
    },
  },
  "ops:edge:WorkerScript": {
    step: { name: "edgeScript", args: { name: "hello", source: "worker.js", vars: { GREETING: "hello" }, workersDev: false } },
  },
  "ops:edge:WorkerRoute": {
    before: [{ token: "ops:edge:WorkerScript", name: "routedScript", args: { name: "hello-routed", source: "worker.js" } }],
    step: { name: "helloRoute", args: { zoneName: "example.com", pattern: "example.com/hello/*", script: ref("routedScript.name") } },
  },
  "ops:edge:WorkerDomain": {
    before: [{ token: "ops:edge:WorkerScript", name: "apiScript", args: { name: "hello-api", source: "worker.js" } }],
    step: { name: "helloDomain", args: { zoneName: "example.com", hostname: "hello.example.com", script: ref("apiScript.name") } },
  },
  "ops:edge:ZoneSetting": { step: { name: "https", args: { zoneName: "example.com", settingId: "always_use_https", value: "on" } } },
  "ops:pages:PagePost": { step: { name: "launch", args: { pageId: PAGE, message: "We open at 7!" } } },
  "ops:pages:PageRole": { step: { name: "helper", args: { pageId: PAGE, user: "300000000000003", role: "MODERATOR" } } },
  "ops:pages:PageSubscription": { step: { name: "events", args: { pageId: PAGE, subscribedFields: ["feed", "messages"] } } },
  "ops:posts:Post": { step: { name: "hello", args: { mediaType: "TEXT", text: "Fresh bread at 7." } } },
  "ops:runner:RunnerModel": {
    before: [{ token: "ops:runner:RunnerModel", name: "base", args: { name: "qwen2.5:0.5b" } }],
    step: {
      name: "baker",
      args: {
        name: "baker",
        from: ref("base.name"),
        system: "You are the bakery's assistant. Answer briefly.",
        parameters: { temperature: 0.2 },
      },
    },
  },
  "ops:skills:GeneratedSkill": {
    before: [{ token: "ops:runner:RunnerModel", name: "writer", args: { name: "llama3.2" } }],
    step: { name: "runbook", args: { slug: "oven-runbook", sources: ["docs/oven.md"], model: ref("writer.name"), category: "ops" } },
  },
  "ops:skills:Skill": { step: { name: "ovenCare", args: { slug: "oven-care", source: "skills/oven-care/SKILL.md", category: "ops" } } },
};

/** Resources with no example: retired ones, which a program fails to declare. */
export const NO_EXAMPLE = new Set(["ops:posts:WebhookSubscription"]);

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

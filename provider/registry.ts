/**
 * One flat table: resource type token -> handler, schemas and metadata. A handler module is imported when its
 * type is first served: the provider process the engine starts for every command then loads one module's handlers
 * and client, not all of them.
 */
import type { z } from "zod";
import type { Example } from "./doc-example";
import type { Handler } from "./handler";
import * as dnsRecordSchema from "./edge/dns-record/schema";
import * as dnsRecordSetSchema from "./edge/dns-record-set/schema";
import * as firewallRuleSchema from "./edge/firewall-rule/schema";
import * as pageRuleSchema from "./edge/page-rule/schema";
import * as rateLimitSchema from "./edge/rate-limit/schema";
import * as rulesetRuleSchema from "./edge/ruleset-rule/schema";
import * as workerScriptSchema from "./edge/worker-script/schema";
import * as workerRouteSchema from "./edge/worker-route/schema";
import * as workerDomainSchema from "./edge/worker-domain/schema";
import * as kvNamespaceSchema from "./edge/kv-namespace/schema";
import * as r2BucketSchema from "./edge/r2-bucket/schema";
import * as d1DatabaseSchema from "./edge/d1-database/schema";
import * as pagePostSchema from "./pages/page-post/schema";
import * as pageRoleSchema from "./pages/page-role/schema";
import * as pageSubscriptionSchema from "./pages/page-subscription/schema";
import * as pageProfileSchema from "./pages/page-profile/schema";
import * as postSchema from "./posts/post/schema";
import * as webhookSubscriptionSchema from "./posts/webhook-subscription/schema";
import * as remoteCommandSchema from "./control/command/schema";
import * as remoteDesktopSessionSchema from "./control/remote-desktop/schema";
import * as remoteFileSchema from "./control/file/schema";
import * as runnerModelSchema from "./runner/model/schema";
import * as generatedSkillSchema from "./skills/generated-skill/schema";
import * as skillSchema from "./skills/skill/schema";
import * as zoneSettingSchema from "./edge/zone-setting/schema";
import { canonicalModel } from "./runner/model-name";

export interface ResourceEntry {
  handler: () => Promise<Handler>;
  inputs: z.ZodType;
  outputs: z.ZodType;
  description: string;
  /**
   * A resource the service no longer offers an API for: `check` refuses it with this line (so a preview fails), and
   * it is kept only so the state of older releases can drop it. The schema marks it deprecated with the same text.
   */
  retired?: string;
  /**
   * Outputs derived from inputs that may be secret, under other names (the engine re-marks only same-named ones):
   * returned wrapped as secrets on both doors. `anyInputSecret` is known on the plugin door only.
   */
  secretOutputs?: (inputs: Record<string, any>, anyInputSecret: boolean) => string[];
  /**
   * The one thing on the service this resource stands for, where two resources could stand for the same (a setting,
   * a script name, a slug, a host's session): two of the program with different inputs are refused at check, since
   * each up would leave whichever ran last (preflight.ts). Undefined: the service keeps one object per resource.
   */
  sameThing?: (inputs: Record<string, any>) => string;
  /** The inputs as the schema types them, where the engine carries some in a compact form (a record set's text). */
  typed?: (inputs: Record<string, any>) => Promise<Record<string, any>>;
  /** Inputs the service keeps as sets: carried as texts in checked inputs, so a change shows as values added and removed (set-text.ts). */
  sets?: readonly string[];
  /** The id `get()`, `pulumi import` and the import option read the object by; undefined: nothing to read by id. */
  importId: string | undefined;
  /**
   * The type's documentation, from its folder's schema.ts: the class's doc comment (`classDoc`) and the example of the
   * reference and of that comment (`example`; none for a retired type). scripts/gen-sdk-classes.ts and gen-docs.ts
   * write them out.
   */
  docs: { classDoc: string; example?: Example };
}

export const registry: Record<string, ResourceEntry> = {
  [remoteCommandSchema.token]: {
    importId: undefined, // not an object the service keeps: declare it
    handler: async () => (await import("./control/command/handler")).remoteCommand,
    docs: remoteCommandSchema,
    inputs: remoteCommandSchema.RemoteCommandInputs,
    outputs: remoteCommandSchema.RemoteCommandOutputs,
    description: "A command run on a host through the computer-control endpoint when the resource is created, updated or destroyed.",
    // What a command prints may be what a secret input put there (as pulumi-command treats stdout and stderr).
    secretOutputs: (r, anyInputSecret) =>
      r.secret === true || anyInputSecret ? ["create", "update", "delete", "environment", "stdout", "stderr"] : [],
  },
  [remoteFileSchema.token]: {
    sameThing: (r) => `the file ${r.path}`,
    importId: undefined, // a file is taken over by declaring it (adopt), as the host cannot list what a program wrote
    handler: async () => (await import("./control/file/handler")).remoteFile,
    docs: remoteFileSchema,
    inputs: remoteFileSchema.RemoteFileInputs,
    outputs: remoteFileSchema.RemoteFileOutputs,
    description: "A file on a host, written through the computer-control endpoint's command tool and compared by its content's hash.",
    secretOutputs: (r, anyInputSecret) => (r.secret === true || anyInputSecret ? ["content"] : []),
  },
  [remoteDesktopSessionSchema.token]: {
    sameThing: (r) => `the remote-desktop session to ${r.host}`,
    importId: undefined, // not an object the service keeps: declare it
    handler: async () => (await import("./control/remote-desktop/handler")).remoteDesktopSession,
    docs: remoteDesktopSessionSchema,
    inputs: remoteDesktopSessionSchema.RemoteDesktopSessionInputs,
    outputs: remoteDesktopSessionSchema.RemoteDesktopSessionOutputs,
    description:
      "A remote-desktop session opened through a helper computer's control tools when the stack is applied (the spec's procedure).",
    secretOutputs: () => ["password", "helperToken"], // kept for diff and delete; always secret
  },
  [dnsRecordSchema.token]: {
    sets: ["tags"],
    importId: "the record's `.id` (its zone is found among the token's zones), or `<zoneId>/<recordId>` (then no zone search)",
    handler: async () => (await import("./edge/dns-record/handler")).dnsRecord,
    docs: dnsRecordSchema,
    inputs: dnsRecordSchema.DnsRecordInputs,
    outputs: dnsRecordSchema.DnsRecordOutputs,
    description: "A DNS record of a zone on the edge network.",
  },
  [dnsRecordSetSchema.token]: {
    sets: ["ignore"],
    importId: undefined, // the service keeps no object for a set: declare it, with `adopt: true` to take records over
    handler: async () => (await import("./edge/dns-record-set/handler")).dnsRecordSet,
    docs: dnsRecordSetSchema,
    inputs: dnsRecordSetSchema.DnsRecordSetInputs,
    outputs: dnsRecordSetSchema.DnsRecordSetOutputs,
    description:
      "Many DNS records of one zone as one resource, each under a stable key: up sends only the records that change, refresh is one listing.",
    typed: async (r) => {
      const { expanded } = await import("./edge/dns-record-set/text");
      try {
        return expanded(r);
      } catch {
        return r; // not a text the set can read: check says so
      }
    },
  },
  [firewallRuleSchema.token]: {
    importId: "the rule's `.id` (its zone is found among the token's zones), or `<zoneId>/<ruleId>`",
    handler: async () => (await import("./edge/firewall-rule/handler")).firewallRule,
    docs: firewallRuleSchema,
    inputs: firewallRuleSchema.FirewallRuleInputs,
    outputs: firewallRuleSchema.FirewallRuleOutputs,
    description: "A firewall rule: a filter expression and the action for the requests it matches.",
  },
  [pageRuleSchema.token]: {
    importId: "the rule's `.id` (its zone is found among the token's zones), or `<zoneId>/<ruleId>`",
    handler: async () => (await import("./edge/page-rule/handler")).pageRule,
    docs: pageRuleSchema,
    inputs: pageRuleSchema.PageRuleInputs,
    outputs: pageRuleSchema.PageRuleOutputs,
    description: "A page rule: a URL pattern and the actions applied to matching requests.",
  },
  [rulesetRuleSchema.token]: {
    importId: "the rule's `.id` with its zone and phase: `<zoneId>/<phase>/<ruleId>`",
    handler: async () => (await import("./edge/ruleset-rule/handler")).rulesetRule,
    docs: rulesetRuleSchema,
    inputs: rulesetRuleSchema.RulesetRuleInputs,
    outputs: rulesetRuleSchema.RulesetRuleOutputs,
    description:
      "One rule of a zone's entry point ruleset in any phase: cache, redirect, transform, origin, configuration, custom and rate limiting rules.",
  },
  [rateLimitSchema.token]: {
    importId: "the rule's `.id` (its zone is found among the token's zones), or `<zoneId>/<ruleId>`",
    handler: async () => (await import("./edge/rate-limit/handler")).rateLimit,
    docs: rateLimitSchema,
    inputs: rateLimitSchema.RateLimitInputs,
    outputs: rateLimitSchema.RateLimitOutputs,
    description: "A rate-limit rule: at most `threshold` requests per `period` seconds to a URL pattern, then `action`.",
  },
  [workerScriptSchema.token]: {
    sets: ["compatibilityFlags"],
    sameThing: (r) => `the edge script ${r.name}${r.accountId ? ` of account ${r.accountId}` : ""}`,
    importId: "`<accountId>/<name>`",
    handler: async () => (await import("./edge/worker-script/handler")).workerScript,
    secretOutputs: () => ["secretsDigest"], // a digest of secrets: kept encrypted like them
    docs: workerScriptSchema,
    inputs: workerScriptSchema.WorkerScriptInputs,
    outputs: workerScriptSchema.WorkerScriptOutputs,
    description:
      "An edge script, uploaded with its compatibility date, variables and secrets, and compared by the SHA-256 of its body; served through a WorkerRoute, a WorkerDomain or workers.dev.",
  },
  [workerRouteSchema.token]: {
    sameThing: (r) => `the route ${r.pattern} of zone ${r.zoneName ?? r.zoneId}`,
    importId: "`<zoneId>/<routeId>`",
    handler: async () => (await import("./edge/worker-route/handler")).workerRoute,
    docs: workerRouteSchema,
    inputs: workerRouteSchema.WorkerRouteInputs,
    outputs: workerRouteSchema.WorkerRouteOutputs,
    description: "A route of a zone: the requests matching a URL pattern run an edge script (or none).",
  },
  [workerDomainSchema.token]: {
    sameThing: (r) => `the custom domain ${r.hostname}`,
    importId: "`<accountId>/<domainId>`",
    handler: async () => (await import("./edge/worker-domain/handler")).workerDomain,
    docs: workerDomainSchema,
    inputs: workerDomainSchema.WorkerDomainInputs,
    outputs: workerDomainSchema.WorkerDomainOutputs,
    description: "A custom domain: a host name an edge script serves (the service makes and keeps its DNS record and certificate).",
  },
  [zoneSettingSchema.token]: {
    sameThing: (r) => `the setting ${r.settingId} of zone ${r.zoneName ?? r.zoneId}`,
    importId: "`<zoneId>/<settingId>`",
    handler: async () => (await import("./edge/zone-setting/handler")).zoneSetting,
    docs: zoneSettingSchema,
    inputs: zoneSettingSchema.ZoneSettingInputs,
    outputs: zoneSettingSchema.ZoneSettingOutputs,
    description: "One setting of a zone (ssl, always_use_https, security_level, ...); destroy restores the value found before.",
  },
  [pagePostSchema.token]: {
    importId: "`<pageId>_<postId>`",
    handler: async () => (await import("./pages/page-post/handler")).pagePost,
    docs: pagePostSchema,
    inputs: pagePostSchema.PagePostInputs,
    outputs: pagePostSchema.PagePostOutputs,
    description: "A post on a page: text, link or photos; published, scheduled or a draft.",
  },
  [pageRoleSchema.token]: {
    sets: ["tasks"],
    sameThing: (r) => `the role of user ${r.user} on page ${r.pageId}`,
    importId: "`<pageId>/<user>`",
    handler: async () => (await import("./pages/page-role/handler")).pageRole,
    docs: pageRoleSchema,
    inputs: pageRoleSchema.PageRoleInputs,
    outputs: pageRoleSchema.PageRoleOutputs,
    description: "A person's access to a page: a role's tasks, or tasks, granted through the page's business (needs the MANAGE task).",
  },
  [pageProfileSchema.token]: {
    sameThing: (r) => `page ${r.pageId}'s profile`,
    importId: "`<pageId>/profile` (every field of the profile is then managed: drop those the program leaves to the page)",
    handler: async () => (await import("./pages/page-profile/handler")).pageProfile,
    docs: pageProfileSchema,
    inputs: pageProfileSchema.PageProfileInputs,
    outputs: pageProfileSchema.PageProfileOutputs,
    description: "A page's own profile: about, description, website, phone, emails and opening hours.",
  },
  [pageSubscriptionSchema.token]: {
    sets: ["subscribedFields"],
    sameThing: (r) => `the app's subscription to page ${r.pageId}`,
    importId: "`<pageId>/subscribed_apps`",
    handler: async () => (await import("./pages/page-subscription/handler")).pageSubscription,
    docs: pageSubscriptionSchema,
    inputs: pageSubscriptionSchema.PageSubscriptionInputs,
    outputs: pageSubscriptionSchema.PageSubscriptionOutputs,
    description: "The page events (feed, messages, ...) sent to the app's webhook.",
  },
  [kvNamespaceSchema.token]: {
    sameThing: (r) => `the KV namespace "${r.title}" of account ${r.accountId}`,
    importId: "`<accountId>/<namespaceId>`",
    handler: async () => (await import("./edge/kv-namespace/handler")).kvNamespace,
    docs: kvNamespaceSchema,
    inputs: kvNamespaceSchema.KvNamespaceInputs,
    outputs: kvNamespaceSchema.KvNamespaceOutputs,
    description: "A Workers KV namespace: the keys and values a Worker reads through a kv_namespace binding.",
  },
  [r2BucketSchema.token]: {
    sameThing: (r) => `the R2 bucket ${r.name} (${r.jurisdiction}) of account ${r.accountId}`,
    importId: "`<accountId>/<jurisdiction>/<name>`",
    handler: async () => (await import("./edge/r2-bucket/handler")).r2Bucket,
    docs: r2BucketSchema,
    inputs: r2BucketSchema.R2BucketInputs,
    outputs: r2BucketSchema.R2BucketOutputs,
    description: "An R2 bucket: the objects a Worker reads through an r2_bucket binding.",
  },
  [d1DatabaseSchema.token]: {
    sameThing: (r) => `the D1 database ${r.name} of account ${r.accountId}`,
    importId: "`<accountId>/<databaseId>`",
    handler: async () => (await import("./edge/d1-database/handler")).d1Database,
    docs: d1DatabaseSchema,
    inputs: d1DatabaseSchema.D1DatabaseInputs,
    outputs: d1DatabaseSchema.D1DatabaseOutputs,
    description: "A D1 database: SQLite at the edge, which a Worker queries through a d1 binding.",
  },
  [postSchema.token]: {
    importId: "`<postId>`",
    handler: async () => (await import("./posts/post/handler")).post,
    docs: postSchema,
    inputs: postSchema.PostInputs,
    outputs: postSchema.PostOutputs,
    description:
      "A published short post (text, image or video): a container made, processed and published; the account may publish 250 posts per 24 hours.",
  },
  [webhookSubscriptionSchema.token]: {
    importId: "`<appId>/posts`",
    handler: async () => (await import("./posts/webhook-subscription/handler")).webhookSubscription,
    docs: webhookSubscriptionSchema,
    inputs: webhookSubscriptionSchema.WebhookSubscriptionInputs,
    outputs: webhookSubscriptionSchema.WebhookSubscriptionOutputs,
    description:
      "Retired: the short-post service has no API for webhook subscriptions (they are set up in its app dashboard). Kept so 0.3.0 stacks can remove it.",
    retired: webhookSubscriptionSchema.DASHBOARD_STEPS,
  },
  [runnerModelSchema.token]: {
    sameThing: (r) => `the runner model ${canonicalModel(String(r.name))}`,
    importId: "`<name:tag>`",
    handler: async () => (await import("./runner/model/handler")).runnerModel,
    docs: runnerModelSchema,
    inputs: runnerModelSchema.RunnerModelInputs,
    outputs: runnerModelSchema.RunnerModelOutputs,
    description: "A model on the runner: pulled by name, or created from a base with a system prompt and parameters.",
  },
  [generatedSkillSchema.token]: {
    sameThing: (r) => `the skill ${r.slug}`,
    importId: "`<slug>` (reads it; import it as a `skills:Skill`, as the registry keeps no sources or model)",
    handler: async () => (await import("./skills/generated-skill/handler")).generatedSkill,
    docs: generatedSkillSchema,
    inputs: generatedSkillSchema.GeneratedSkillInputs,
    outputs: generatedSkillSchema.GeneratedSkillOutputs,
    description: "A skill generated from source texts by a runner model, validated, then published.",
  },
  [skillSchema.token]: {
    sameThing: (r) => `the skill ${r.slug}`,
    importId: "`<slug>`",
    handler: async () => (await import("./skills/skill/handler")).skill,
    docs: skillSchema,
    inputs: skillSchema.SkillInputs,
    outputs: skillSchema.SkillOutputs,
    description:
      "A skill published to the registry, or to the Claude API's skills endpoints (ops:skillsKind `claude`: the whole folder, kept as versions), from inline fields or a SKILL.md file.",
  },
};

/**
 * Every setting the provider reads, by service: its stack config key (`ops:<name>`), its environment variables, its
 * default and what it takes. The docs' configuration tables and schema.json's provider inputs are generated from
 * these; config.ts reads them.
 */
export interface Setting {
  /** The name as a provider input and inside an account: `edgeApiToken`. */
  name: string;
  /** The stack config key: `ops:edgeApiToken`. */
  key: string;
  /** The key of the first release (`edge:apiToken`), still read on the dynamic door. */
  legacyKey: string;
  env: string;
  /**
   * The names the service's own tools read (wrangler, its Terraform provider, its official SDKs), read after `env`
   * so a CI that already exports them needs nothing more.
   */
  alsoEnv?: string[];
  secret?: boolean;
  default?: string;
  description: string;
  /** A number setting's allowed range. */
  range?: [number, number];
  /** A URL setting. */
  url?: boolean;
  /** A true/false setting. */
  bool?: boolean;
  /** A setting that takes one of these words. */
  oneOf?: string[];
}

type SettingSpec = Omit<Setting, "name" | "key" | "legacyKey">;

/** A service's settings, named `<service><Key>` under the `ops` namespace. */
function settings<T extends Record<string, SettingSpec>>(service: string, table: T): { [K in keyof T]: Setting } {
  return Object.fromEntries(
    Object.entries(table).map(([k, spec]) => {
      const name = service ? service + k[0].toUpperCase() + k.slice(1) : k;
      return [k, { ...spec, name, key: `ops:${name}`, legacyKey: `${service || "ops"}:${k}` }];
    }),
  ) as { [K in keyof T]: Setting };
}

/** Every setting of the edge service: the README's configuration table lists exactly these. */
export const EDGE_SETTINGS = settings("edge", {
  apiToken: {
    env: "EDGE_API_TOKEN",
    alsoEnv: ["CLOUDFLARE_API_TOKEN"],
    secret: true,
    description: "API token, user or account-owned, sent as `Authorization: Bearer`.",
  },
  apiKey: {
    env: "EDGE_API_KEY",
    alsoEnv: ["CLOUDFLARE_API_KEY"],
    secret: true,
    description: "Legacy global API key (with `ops:edgeEmail`), sent as `X-Auth-Key`.",
  },
  email: { env: "EDGE_EMAIL", alsoEnv: ["CLOUDFLARE_EMAIL"], description: "Account e-mail for the legacy key, sent as `X-Auth-Email`." },
  baseUrl: {
    env: "EDGE_BASE_URL",
    alsoEnv: ["CLOUDFLARE_BASE_URL", "CLOUDFLARE_API_BASE_URL"],
    default: "https://api.cloudflare.com",
    url: true,
    description: "The API's base URL; `/client/v4` is appended (a URL that already ends in `/client/v4` is taken as it is).",
  },
  accountId: {
    env: "EDGE_ACCOUNT_ID",
    alsoEnv: ["CLOUDFLARE_ACCOUNT_ID"],
    description:
      "Account for account-scoped calls (edge scripts) and where an account-owned token verifies (else the account of the zones it sees).",
  },
  rateLimit: {
    env: "EDGE_RATE_LIMIT",
    default: "1200",
    range: [1, 1_000_000],
    description: "Requests per window this provider allows itself (it uses 95%), shared by all resources of a run.",
  },
  rateLimitWindowSeconds: {
    env: "EDGE_RATE_LIMIT_WINDOW_SECONDS",
    default: "300",
    range: [1, 86_400],
    description: "The window of ops:edgeRateLimit, in seconds.",
  },
  batchSize: {
    env: "EDGE_BATCH_SIZE",
    default: "200",
    range: [0, 3500],
    description:
      "Changes a DnsRecordSet sends per `dns_records/batch` request: the zone plan's limit (200 on the free plan, 3,500 on paid plans); 0 sends a request per record.",
  },
  timeoutSeconds: { env: "EDGE_TIMEOUT_SECONDS", default: "30", range: [1, 3600], description: "Per-request timeout." },
  maxRetries: {
    env: "EDGE_MAX_RETRIES",
    default: "6",
    range: [0, 20],
    description: "Retries of a throttled (429), failed (5xx) or dropped request.",
  },
  adoptExisting: {
    env: "EDGE_ADOPT_EXISTING",
    default: "false",
    bool: true,
    description:
      "For a recovery run after an interrupted up: every edge resource whose natural key is already taken adopts that object, as if it had `adopt: true`. Unset it afterwards.",
  },
});

export const PAGES_SETTINGS = settings("pages", {
  accessToken: {
    env: "PAGES_ACCESS_TOKEN",
    alsoEnv: ["FACEBOOK_PAGE_ACCESS_TOKEN"],
    secret: true,
    description: "A page token, or a user token from which the page token of each page is derived.",
  },
  appId: { env: "PAGES_APP_ID", alsoEnv: ["FACEBOOK_APP_ID"], description: "The app's id (for token exchange and debugging)." },
  appSecret: { env: "PAGES_APP_SECRET", alsoEnv: ["FACEBOOK_APP_SECRET"], secret: true, description: "The app's secret." },
  baseUrl: {
    env: "PAGES_BASE_URL",
    default: "https://graph.facebook.com",
    url: true,
    description: "The service's base URL; the API version is appended.",
  },
  apiVersion: {
    env: "PAGES_API_VERSION",
    default: "v26.0",
    description:
      "The Graph API version (`v26.0`, the newest today). An expired one is answered as the oldest live version: a preview warns when the version has expired or expires within 90 days.",
  },
  timeoutSeconds: { env: "PAGES_TIMEOUT_SECONDS", default: "30", range: [1, 3600], description: "Per-request timeout." },
  maxRetries: { env: "PAGES_MAX_RETRIES", default: "6", range: [0, 20], description: "Retries of a throttled, failed or dropped request." },
  scheduleMarginMinutes: {
    env: "PAGES_SCHEDULE_MARGIN_MINUTES",
    default: "60",
    range: [0, 100_000],
    description:
      "How long a review may take: a new scheduled time less than the service's 10-minute lead plus this many minutes ahead is warned at preview, as the up that follows the merge may come too late for it.",
  },
  adoptExisting: {
    env: "PAGES_ADOPT_EXISTING",
    default: "false",
    bool: true,
    description:
      "For a recovery run after a killed CLI: a page post whose identical message (and link) was made in the last 24 hours is taken over instead of posted again, and a PageRole or PageSubscription whose access or subscription is already there takes it over, as if it had `adopt: true`. Unset it afterwards.",
  },
});

export const POSTS_SETTINGS = settings("posts", {
  accessToken: { env: "POSTS_ACCESS_TOKEN", alsoEnv: ["THREADS_ACCESS_TOKEN"], secret: true, description: "The user's access token." },
  baseUrl: {
    env: "POSTS_BASE_URL",
    default: "https://graph.threads.net",
    url: true,
    description: "The service's base URL; the API version (`/v1.0`) is appended.",
  },
  appSecret: {
    env: "POSTS_APP_SECRET",
    alsoEnv: ["THREADS_APP_SECRET"],
    secret: true,
    description:
      "The app's secret: a short-lived user token is exchanged for a long-lived one (`th_exchange_token`) for the run, never stored.",
  },
  apiVersion: {
    env: "POSTS_API_VERSION",
    default: "v1.0",
    description: "The API version, the path's first part (`v1.0`, the service's only version today).",
  },
  timeoutSeconds: { env: "POSTS_TIMEOUT_SECONDS", default: "30", range: [1, 3600], description: "Per-request timeout." },
  maxRetries: { env: "POSTS_MAX_RETRIES", default: "6", range: [0, 20], description: "Retries of a throttled, failed or dropped request." },
  adoptExisting: {
    env: "POSTS_ADOPT_EXISTING",
    default: "false",
    bool: true,
    description:
      "For a recovery run after a killed CLI: a post of the same text and media type published in the last 24 hours is taken over instead of published again. Unset it afterwards.",
  },
  publishTimeoutSeconds: {
    env: "POSTS_PUBLISH_TIMEOUT_SECONDS",
    default: "300",
    range: [1, 86_400],
    description: "How long a post waits for its media to be processed (the service advises checking once a minute, for at most 5 minutes).",
  },
  statusPollSeconds: {
    env: "POSTS_STATUS_POLL_SECONDS",
    default: "60",
    range: [0, 3600],
    description: "How often a container's processing status is asked, after a first look at once (the service advises once a minute).",
  },
});

export const RUNNER_SETTINGS = settings("runner", {
  host: {
    env: "RUNNER_HOST",
    alsoEnv: ["OLLAMA_HOST"],
    default: "127.0.0.1:11434",
    description:
      "The runner: `host`, `host:port`, `:port`, a bare IPv6 address or a URL (a path is kept, for a runner behind a proxy), read as the runner's own client reads OLLAMA_HOST: port 11434 unless a scheme says otherwise, `ollama.com` over https, a listen-on-all address (`0.0.0.0`, `::`) reached on the loopback.",
  },
  apiKey: {
    env: "RUNNER_API_KEY",
    alsoEnv: ["OLLAMA_API_KEY"],
    secret: true,
    description: "An API key for a hosted runner, sent as `Authorization: Bearer`.",
  },
  timeoutSeconds: {
    env: "RUNNER_TIMEOUT_SECONDS",
    default: "600",
    range: [1, 86_400],
    description: "Per-request timeout (a pull of a large model is one long request).",
  },
  adoptExisting: {
    env: "RUNNER_ADOPT_EXISTING",
    default: "false",
    bool: true,
    description:
      "For a recovery run after an interrupted up: every RunnerModel whose name the runner already lists takes it over, as if it had `adopt: true`. Unset it afterwards.",
  },
  registryUrl: {
    env: "RUNNER_REGISTRY_URL",
    default: "https://registry.ollama.ai",
    url: true,
    description:
      "The model registry a preview asks what a tag points at now (for a RunnerModel's `expectedDigest`); its manifests are read, nothing is pulled.",
  },
});

export const SKILLS_SETTINGS = settings("skills", {
  url: { env: "SKILLS_URL", default: "http://127.0.0.1:8300", url: true, description: "The skills registry's base URL." },
  token: { env: "SKILLS_TOKEN", secret: true, description: "Bearer token for publishing, when the registry asks for one." },
  timeoutSeconds: { env: "SKILLS_TIMEOUT_SECONDS", default: "30", range: [1, 3600], description: "Per-request timeout." },
  adoptExisting: {
    env: "SKILLS_ADOPT_EXISTING",
    default: "false",
    bool: true,
    description:
      "For a recovery run after an interrupted up: every skill whose slug the registry already holds takes it over, as if it had `adopt: true`. Unset it afterwards.",
  },
  kind: {
    env: "SKILLS_KIND",
    default: "registry",
    oneOf: ["registry", "claude"],
    description:
      "Where skills are published: `registry` (the skills registry at ops:skillsUrl, SKILL.md alone) or `claude` (the Claude API's skills endpoints at ops:skillsClaudeUrl: the whole skill folder, kept as versions).",
  },
  claudeUrl: {
    env: "ANTHROPIC_BASE_URL",
    default: "https://api.anthropic.com",
    url: true,
    description: "The Claude API's base URL, for ops:skillsKind `claude` (the official SDKs read ANTHROPIC_BASE_URL too).",
  },
  claudeApiKey: {
    env: "ANTHROPIC_API_KEY",
    secret: true,
    description:
      "An Anthropic API key of the workspace the skills belong to, for ops:skillsKind `claude` (sent as the official SDKs send it: Authorization: Bearer).",
  },
});

export const CONTROL_SETTINGS = settings("control", {
  url: {
    env: "CONTROL_URL",
    default: "http://127.0.0.1:8200",
    url: true,
    description: "The computer-control endpoint's base URL (`/mcp` is appended).",
  },
  token: { env: "CONTROL_TOKEN", secret: true, description: "Bearer token, when the endpoint asks for one." },
  vncPassword: { env: "CONTROL_VNC_PASSWORD", secret: true, description: "The remote-desktop password for openRemoteDesktop." },
  timeoutSeconds: {
    env: "CONTROL_TIMEOUT_SECONDS",
    default: "120",
    range: [1, 86_400],
    description: "Per-request timeout (a tool call waits for its command to finish).",
  },
  protocol: {
    env: "CONTROL_PROTOCOL",
    default: "auto",
    oneOf: ["auto", "2025"],
    description:
      "The MCP revision to speak: `auto` (the newest the endpoint answers: 2026-07-28's `server/discover` first, then the 2025 handshake) or `2025` (the 2025 handshake only, for an endpoint whose newer revision misbehaves).",
  },
  rerunInterrupted: {
    env: "CONTROL_RERUN_INTERRUPTED",
    default: "false",
    bool: true,
    description:
      "For one run after a killed `pulumi up`: `true` runs again the create commands that run had started and never recorded (by default they are refused, as pulumi-ops cannot tell whether they ran). Check the host first; unset it afterwards.",
  },
});

/** Settings of the provider itself. */
export const GENERAL_SETTINGS = settings("", {
  quiet: {
    env: "PULUMI_OPS_QUIET",
    default: "false",
    description: "`true` (or `1`): no progress lines and no warnings from pulumi-ops; failures are still shown.",
  },
  adoptFromStack: {
    env: "PULUMI_OPS_ADOPT_FROM_STACK",
    description:
      "For a run that takes over objects another stack labelled as its own (a skill's `pulumi-ops-stack` metadata, a Worker's or a paid zone's record's `pulumi-ops-stack:` tag): that stack's `<project>/<stack>`. Adopting resources then take them (they become this stack's, and the other stack's destroy leaves them); a runner model, which carries no label, is refused instead, naming how that stack lets go. Unset it afterwards.",
  },
  maxDeletes: {
    env: "PULUMI_OPS_MAX_DELETES",
    range: [0, 10_000_000],
    description:
      "The most DNS records one run may delete, across the stack's DnsRecords and DnsRecordSets (removed keys, type changes, authoritative removals, resources deleted). Unset: no limit. A set's own planned deletes fail its preview; those of resources removed from the program are counted at up, before the first one past the limit is sent. A destroy runs with the config the last up left.",
  },
  acknowledgedWarnings: {
    env: "PULUMI_OPS_ACKNOWLEDGED_WARNINGS",
    description:
      "Warning kinds this stack has read and acts on knowingly, comma-separated (`page-rules-deprecated`, `posts-token-expiry`, ...: each warning that has a kind names it): those are no longer shown; every other warning still is, once per command.",
  },
  previewChecks: {
    env: "PULUMI_OPS_PREVIEW_CHECKS",
    default: "true",
    bool: true,
    description:
      "A preview asks each service the program uses one read (token verification, the runner's model list, ...), so that a bad token or an unreachable endpoint fails the preview; `false` for offline previews.",
  },
});

/** Every setting, in the order the docs list them. */
export const ALL_SETTINGS: Setting[] = [
  GENERAL_SETTINGS,
  EDGE_SETTINGS,
  PAGES_SETTINGS,
  POSTS_SETTINGS,
  RUNNER_SETTINGS,
  SKILLS_SETTINGS,
  CONTROL_SETTINGS,
].flatMap((t) => Object.values(t));

/** The stack config key of the named accounts: an object of accounts, each an object of settings by name. */
export const ACCOUNTS_KEY = "ops:accounts";

/**
 * Settings a release had and a later one retired. A stack keeps its config when it upgrades, so such a key is named
 * in one warning (the release that retired it, what replaces it, and how to remove it) and never fails a check; only
 * a key no release ever had is "not a pulumi-ops setting". test/unit/retired-settings.test.ts holds every release's
 * settings (test/fixtures/settings-by-release.json) to this list, so that no removal breaks a stack again.
 */
export const RETIRED_SETTINGS: Record<string, { since: string; instead: string }> = {
  "ops:postsAppToken": {
    since: "0.5.0",
    instead:
      "it held the app token of WebhookSubscription, and the short-post service has no API for webhook subscriptions (they are set up in its app dashboard); nothing replaces it",
  },
};

/** The one line a retired setting gets. */
export function retiredSettingLine(key: string): string {
  const r = RETIRED_SETTINGS[key];
  return `${key} was retired in pulumi-ops ${r.since} and is ignored: ${r.instead}. Remove it from the stack's config: pulumi config rm ${key}`;
}

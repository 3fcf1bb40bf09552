/**
 * Credentials and endpoints, one set of keys on both doors: stack config `ops:<name>` (handed to the dynamic
 * provider's `configure()`, and to the plugin's Configure as its provider inputs) comes first, the environment
 * second. Named accounts (`ops:accounts`, chosen by a resource's `account` input) override them per resource.
 * Nothing here is ever written into a resource's inputs or outputs, so no credential reaches state.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { kindOf } from "./check";
import { ConfigError, MissingCredentialError } from "./http/errors";
import { readQuietWith, registerSecret } from "./log";

export interface ConfigSource {
  get(key: string): string | undefined;
}

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

readQuietWith(
  () => read(GENERAL_SETTINGS.quiet),
  () => read(GENERAL_SETTINGS.acknowledgedWarnings),
);

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

let stack: ConfigSource | undefined;

/** Called with the stack config: by the dynamic provider's `configure()`, and by the plugin's Configure. */
export function useStackConfig(source: ConfigSource | undefined): void {
  stack = source;
  accountsCache = undefined;
}

type Accounts = Record<string, Record<string, string>>;
let accountsCache: { accounts: Accounts; problems: string[] } | undefined;

/** `ops:accounts`, parsed once per configuration: a JSON object (structured config) or already an object. */
function namedAccounts(source = stack): { accounts: Accounts; problems: string[] } {
  if (source === stack && accountsCache) return accountsCache;
  const raw = source?.get(ACCOUNTS_KEY) as unknown;
  const accounts: Accounts = {};
  const problems: string[] = [];
  let value: unknown = raw;
  if (typeof raw === "string" && raw !== "") {
    try {
      value = JSON.parse(raw);
    } catch {
      value = undefined;
      problems.push(
        `${ACCOUNTS_KEY} must be an object of accounts: set it with \`pulumi config set --secret --path '${ACCOUNTS_KEY}.<account>.edgeApiToken' <token>\``,
      );
    }
  }
  if (value !== undefined && value !== "" && value !== null) {
    if (typeof value !== "object" || Array.isArray(value))
      problems.push(`${ACCOUNTS_KEY} must be an object of accounts, such as {"eu": {"edgeApiToken": "..."}}`);
    else {
      const byName = new Map(ALL_SETTINGS.map((s) => [s.name, s]));
      for (const [account, settingsOf] of Object.entries(value as Record<string, unknown>)) {
        if (!settingsOf || typeof settingsOf !== "object" || Array.isArray(settingsOf)) {
          problems.push(`${ACCOUNTS_KEY}.${account} must be an object of settings, such as {"edgeApiToken": "..."}`);
          continue;
        }
        accounts[account] = {};
        for (const [name, v] of Object.entries(settingsOf as Record<string, unknown>)) {
          const known = byName.get(name);
          if (!known)
            problems.push(`${ACCOUNTS_KEY}.${account}.${name} is not a setting: the settings are ${[...byName.keys()].join(", ")}`);
          else {
            accounts[account][name] = String(v);
            if (known.secret) registerSecret(String(v));
          }
        }
      }
    }
  }
  const parsed = { accounts, problems };
  if (source === stack) accountsCache = parsed;
  return parsed;
}

/** The named account the current call serves (a resource's `account` input), if any. */
const currentAccount = new AsyncLocalStorage<string | undefined>();

/** Runs `f` with the settings of `account` (undefined: the stack's own settings). */
export function withAccount<T>(account: string | undefined, f: () => T): T {
  return currentAccount.run(account, f);
}

/** Why `account` cannot be used, or undefined when it can: an unknown name is refused at `check`. */
export function accountProblem(account: unknown): string | undefined {
  if (account === undefined) return undefined;
  if (typeof account !== "string" || account === "")
    return `account must be the name of an account in ops:accounts${typeof account !== "string" ? `, not ${kindOf(account)}` : ""}`;
  const { accounts } = namedAccounts();
  if (accounts[account]) return undefined;
  const known = Object.keys(accounts);
  return `account "${account}" is not configured: add its settings with \`pulumi config set --secret --path '${ACCOUNTS_KEY}.${account}.edgeApiToken' <token>\` (one line per setting it needs)${known.length ? `; the configured accounts are ${known.join(", ")}` : ""}`;
}

/** A setting's value: the named account's (when a call serves one), else the stack's, else the environment's. */
function lookup(s: Setting, account = currentAccount.getStore(), source = stack): string | undefined {
  if (account !== undefined) {
    const own = namedAccounts().accounts[account];
    if (!own) throw new ConfigError(accountProblem(account)!);
    if (own[s.name] !== undefined) return own[s.name];
    // An account's credentials are its own: a missing one is not borrowed from the stack's default account.
    if (s.secret) return undefined;
  }
  return (
    source?.get(s.key) ??
    source?.get(s.legacyKey) ??
    process.env[s.env] ??
    s.alsoEnv?.map((name) => process.env[name]).find((v) => v !== undefined)
  );
}

/**
 * Every setting that is set (in config, an account or the environment) and out of its range or not a URL, so that
 * a bad value fails `pulumi preview` instead of the first change. Missing credentials are not judged here: a stack
 * that does not use a service need not configure it.
 */
export function configProblems(source = stack): string[] {
  const { accounts } = namedAccounts(source);
  const problems = [...namedAccounts(source).problems];
  const check = (s: Setting, raw: string | undefined, where: string) => {
    if (raw === undefined || raw === "") return;
    if (s.range) {
      const n = Number(raw);
      if (!Number.isFinite(n) || n < s.range[0] || n > s.range[1])
        problems.push(`${where} must be a number from ${s.range[0]} to ${s.range[1]}; got "${raw}"`);
    }
    if (s.bool && !["true", "false"].includes(raw)) problems.push(`${where} must be true or false; got "${raw}"`);
    if (s.oneOf && !s.oneOf.includes(raw)) problems.push(`${where} must be one of ${s.oneOf.join(", ")}; got "${raw}"`);
    if (s === RUNNER_SETTINGS.host && runnerHostProblem(raw))
      problems.push(`${where} must be host, host:port or an http(s) URL (the port defaults to 11434); got "${raw}"`);
    if (s.url && !isHttpUrl(raw)) problems.push(notAUrl(where, raw));
  };
  for (const s of ALL_SETTINGS) {
    check(s, lookup(s, undefined, source), `${s.key} (or ${envNames(s)})`);
    for (const [name, own] of Object.entries(accounts)) check(s, own[s.name], `${ACCOUNTS_KEY}.${name}.${s.name}`);
  }
  return [...new Set(problems)];
}

/**
 * The credentials the stack's config sets while this run's environment sets another value: the config's is used,
 * so a job that exports a narrower token (a pull request's read-only preview) would run with the config's. Each as
 * [setting key, line]; values are never named.
 */
export function credentialOverrides(source = stack): [string, string][] {
  return ALL_SETTINGS.filter((s) => s.secret).flatMap((s): [string, string][] => {
    const configured = source?.get(s.key) ?? source?.get(s.legacyKey);
    const env = [s.env, ...(s.alsoEnv ?? [])].find((name) => process.env[name]);
    if (!configured || !env || process.env[env] === configured) return [];
    return [
      [
        s.key,
        `${s.key} in the stack's config overrides ${env} in this run's environment (they differ), so this run uses the config's credential, not the one the job set; if the job's is meant (a read-only token for previews), remove it from the config: pulumi config rm ${s.key}`,
      ],
    ];
  });
}

export function read(s: Setting): string | undefined {
  const value = lookup(s) ?? s.default;
  const v = value === "" ? undefined : value;
  if (s.secret) registerSecret(v);
  return v;
}

/** How a message names a setting: the account's key when one is in use, else the stack key and the variable. */
export function settingName(s: Setting): string {
  const account = currentAccount.getStore();
  return account === undefined ? `${s.key} (or ${envNames(s)})` : `${ACCOUNTS_KEY}.${account}.${s.name}`;
}

/** A setting's environment variables, in the order they are read: `EDGE_API_TOKEN or CLOUDFLARE_API_TOKEN`. */
export function envNames(s: Setting): string {
  return [s.env, ...(s.alsoEnv ?? [])].join(" or ");
}

/** A `bool: true` setting: "true" or not. */
export function readFlag(s: Setting): boolean {
  return read(s) === "true";
}

export function readNumber(s: Setting): number {
  const [min, max] = s.range ?? [Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY];
  const raw = read(s);
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min || n > max) {
    throw new ConfigError(`${settingName(s)} must be a number from ${min} to ${max}; got "${raw}"`);
  }
  return n;
}

export type EdgeAuth = { kind: "token"; token: string } | { kind: "key"; key: string; email: string };

export interface EdgeConfig {
  baseUrl: string;
  auth: EdgeAuth;
  accountId?: string;
  rateLimit: { requests: number; perSeconds: number };
  /** Changes per `dns_records/batch` request; 0: none sent. */
  batchSize: number;
  timeoutMs: number;
  maxRetries: number;
  adoptExisting: boolean;
}

export function edgeConfig(): EdgeConfig {
  const s = EDGE_SETTINGS;
  const token = read(s.apiToken);
  const key = read(s.apiKey);
  const email = read(s.email);
  let auth: EdgeAuth;
  // A global API key (`cfk_…`, the service's token formats) is sent as X-Auth-Key with the e-mail, never as a bearer.
  if (token?.startsWith("cfk_")) {
    throw new ConfigError(
      `edge: ${settingName(s.apiToken)} holds a global API key (it starts with cfk_), which the service takes only with the account's e-mail: set it as ${s.apiKey.key} (\`pulumi config set --secret ${s.apiKey.key} <key>\`) with ${s.email.key}, and unset ${s.apiToken.key}; or create an API token and set that`,
    );
  }
  if (token) auth = { kind: "token", token };
  else if (key && email) auth = { kind: "key", key, email };
  else {
    const account = currentAccount.getStore();
    throw new MissingCredentialError(
      account !== undefined
        ? `edge: account "${account}" has no credentials. Set its token: \`pulumi config set --secret --path '${ACCOUNTS_KEY}.${account}.edgeApiToken' <token>\``
        : `edge: no credentials. Set the API token as secret stack config (\`pulumi config set --secret ${s.apiToken.key} <token>\`) ` +
            `or the environment variable ${envNames(s.apiToken)}; for the legacy scheme set ${s.apiKey.key} and ${s.email.key} ` +
            `(or ${envNames(s.apiKey)} and ${envNames(s.email)})` +
            (key && !email ? `. ${s.apiKey.key} is set but ${s.email.key} is missing` : ""),
      s.apiToken.key,
      envNames(s.apiToken),
    );
  }
  const baseUrl = read(s.baseUrl)!
    .replace(/\/+$/, "")
    .replace(/\/client\/v4$/, "");
  try {
    new URL(baseUrl);
  } catch {
    throw new ConfigError(`${settingName(s.baseUrl)} is not a URL: "${baseUrl}"`);
  }
  return {
    baseUrl,
    auth,
    accountId: read(s.accountId),
    rateLimit: { requests: readNumber(s.rateLimit), perSeconds: readNumber(s.rateLimitWindowSeconds) },
    batchSize: readNumber(s.batchSize),
    timeoutMs: readNumber(s.timeoutSeconds) * 1000,
    maxRetries: readNumber(s.maxRetries),
    adoptExisting: readFlag(s.adoptExisting),
  };
}

/** `host:port` or a URL, as RUNNER_HOST takes it. */
export function runnerUrl(host: string): string {
  // As the runner's own client reads OLLAMA_HOST (envconfig.Host, then ConnectableHost): without a scheme, http and
  // port 11434 (`ollama.com`: https, 443); with one, that scheme's port; a path kept; a bare IPv6 address taken as an
  // address; a listen-on-all address reached on the loopback.
  const s = host.trim();
  let [scheme, hostport] = s.includes("://") ? [s.slice(0, s.indexOf("://")), s.slice(s.indexOf("://") + 3)] : ["http", s];
  let defaultPort = s.includes("://") ? (scheme === "https" ? "443" : scheme === "http" ? "80" : "11434") : "11434";
  if (s === "ollama.com") [scheme, hostport, defaultPort] = ["https", "ollama.com:443", "443"];
  const slash = hostport.indexOf("/");
  const path = slash >= 0 ? hostport.slice(slash) : "";
  if (slash >= 0) hostport = hostport.slice(0, slash);
  let name: string;
  let port: string;
  const bracketed = /^\[([^\]]+)\](?::(\d*))?$/.exec(hostport);
  const colons = (hostport.match(/:/g) ?? []).length;
  if (bracketed) [name, port] = [bracketed[1], bracketed[2] || defaultPort];
  else if (colons === 1) [name, port] = hostport.split(":") as [string, string];
  else [name, port] = [hostport || "127.0.0.1", defaultPort]; // a bare IPv6 address (several colons), or a host alone
  if (!/^\d+$/.test(port) || Number(port) > 65535) port = defaultPort;
  if (name === "" || name === "0.0.0.0") name = "127.0.0.1";
  if (name === "::") name = "::1";
  const u = new URL(`${scheme}://${name.includes(":") ? `[${name}]` : name}:${port}`);
  return `${u.protocol}//${u.host}${path.replace(/\/+$/, "")}`;
}

/** ops:runnerHost is host, host:port, :port or an http(s) URL. */
function runnerHostProblem(raw: string): boolean {
  try {
    return !/^https?:\/\//.test(runnerUrl(raw)) || /\s/.test(raw);
  } catch {
    return true;
  }
}

/** An http(s) URL with its scheme: `new URL("localhost:8300")` parses, as the scheme "localhost:". */
function isHttpUrl(raw: string): boolean {
  try {
    return /^https?:$/.test(new URL(raw).protocol) && /^https?:\/\//i.test(raw);
  } catch {
    return false;
  }
}

const notAUrl = (where: string, raw: string) =>
  `${where} must be an http(s) URL such as https://host.example, with its scheme; got "${raw}"`;

/** A URL setting, checked, without trailing slashes. */
export function readUrl(s: Setting): string {
  const url = read(s)!.replace(/\/+$/, "");
  if (!isHttpUrl(url)) throw new ConfigError(notAUrl(settingName(s), url));
  return url;
}

/** A base URL setting, without trailing slashes or the version segment the client appends. */
export function readBaseUrl(s: Setting, version: string): string {
  const url = readUrl(s);
  return url.endsWith(version) ? url.slice(0, -version.length) : url;
}

/** A credential that must be there, with one error that names the config key and the variable. */
export function requireSecret(s: Setting, what: string): string {
  const v = read(s);
  if (!v) {
    const account = currentAccount.getStore();
    throw new MissingCredentialError(
      account !== undefined
        ? `${what}: set it in account "${account}" (\`pulumi config set --secret --path '${ACCOUNTS_KEY}.${account}.${s.name}' <value>\`)`
        : `${what}: set it as secret stack config (\`pulumi config set --secret ${s.key} <value>\`) or the environment variable ${envNames(s)}`,
      s.key,
      envNames(s),
    );
  }
  return v;
}

/**
 * A client per distinct value of `settings` (one per named account that sets them differently), built on first
 * use: each keeps its own connections and rate-limit budget for the whole run.
 */
export function clientPerSettings<T>(settings: Setting[], make: () => T): () => T {
  const clients = new Map<string, T>();
  return () => {
    const key = JSON.stringify(settings.map((s) => read(s) ?? null));
    let client = clients.get(key);
    if (!client) clients.set(key, (client = make()));
    return client;
  };
}

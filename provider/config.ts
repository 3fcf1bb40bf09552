/**
 * Credentials and endpoints, one set of keys on both doors: stack config `ops:<name>` (handed to the dynamic
 * provider's `configure()`, and to the plugin's Configure as its provider inputs) comes first, the environment
 * second. Named accounts (`ops:accounts`, chosen by a resource's `account` input) override them per resource.
 * Nothing here is ever written into a resource's inputs or outputs, so no credential reaches state. What settings
 * there are is settings.ts; how a URL setting is written, urls.ts.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { kindOf } from "./issue-text";
import { ConfigError, MissingCredentialError } from "./http/errors";
import { readQuietWith, registerSecret } from "./log";
import { ACCOUNTS_KEY, ALL_SETTINGS, EDGE_SETTINGS, GENERAL_SETTINGS, RUNNER_SETTINGS, type Setting } from "./settings";
import { isHttpUrl, notAUrl, runnerHostProblem } from "./urls";

// The settings (settings.ts) are read through this module by every importer: one place to import from.
export * from "./settings";

export interface ConfigSource {
  get(key: string): string | undefined;
}

// The log reads its settings through config (log.ts imports nothing of it: imports run one way).
readQuietWith(
  () => read(GENERAL_SETTINGS.quiet),
  () => read(GENERAL_SETTINGS.acknowledgedWarnings),
);

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

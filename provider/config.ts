/**
 * Credentials and endpoints. Stack config (handed to the dynamic provider's `configure()`) comes first, environment
 * variables second. Nothing here is ever written into a resource's inputs or outputs, so it never reaches state.
 */
import { ConfigError } from "./http/errors";
import { registerSecret } from "./log";

export interface ConfigSource {
  get(key: string): string | undefined;
}

export interface Setting {
  key: string;
  env: string;
  secret?: boolean;
  default?: string;
  description: string;
  /** A number setting's allowed range. */
  range?: [number, number];
  /** A URL setting. */
  url?: boolean;
  /** A true/false setting. */
  bool?: boolean;
}

/** Every setting of the edge service: the README's configuration table lists exactly these. */
export const EDGE_SETTINGS = {
  apiToken: { key: "edge:apiToken", env: "EDGE_API_TOKEN", secret: true, description: "API token, sent as `Authorization: Bearer`." },
  apiKey: { key: "edge:apiKey", env: "EDGE_API_KEY", secret: true, description: "Legacy global API key (with `edge:email`), sent as `X-Auth-Key`." },
  email: { key: "edge:email", env: "EDGE_EMAIL", description: "Account e-mail for the legacy key, sent as `X-Auth-Email`." },
  baseUrl: { key: "edge:baseUrl", env: "EDGE_BASE_URL", default: "https://api.cloudflare.com", url: true, description: "The API's base URL; `/client/v4` is appended." },
  accountId: { key: "edge:accountId", env: "EDGE_ACCOUNT_ID", description: "Account for account-scoped calls (edge scripts)." },
  rateLimit: { key: "edge:rateLimit", env: "EDGE_RATE_LIMIT", default: "1200", range: [1, 1_000_000], description: "Requests per window this provider allows itself (it uses 95%), shared by all resources of a run." },
  rateLimitWindowSeconds: { key: "edge:rateLimitWindowSeconds", env: "EDGE_RATE_LIMIT_WINDOW_SECONDS", default: "300", range: [1, 86_400], description: "The window of edge:rateLimit, in seconds." },
  timeoutSeconds: { key: "edge:timeoutSeconds", env: "EDGE_TIMEOUT_SECONDS", default: "30", range: [1, 3600], description: "Per-request timeout." },
  maxRetries: { key: "edge:maxRetries", env: "EDGE_MAX_RETRIES", default: "6", range: [0, 20], description: "Retries of a throttled (429), failed (5xx) or dropped request." },
  adoptExisting: { key: "edge:adoptExisting", env: "EDGE_ADOPT_EXISTING", default: "false", bool: true, description: "For a recovery run after an interrupted up: every edge resource whose natural key is already taken adopts that object, as if it had `adopt: true`. Unset it afterwards." },
} satisfies Record<string, Setting>;

export const PAGES_SETTINGS = {
  accessToken: { key: "pages:accessToken", env: "PAGES_ACCESS_TOKEN", secret: true, description: "A page token, or a user token from which the page token of each page is derived." },
  appId: { key: "pages:appId", env: "PAGES_APP_ID", description: "The app's id (for token exchange and debugging)." },
  appSecret: { key: "pages:appSecret", env: "PAGES_APP_SECRET", secret: true, description: "The app's secret." },
  baseUrl: { key: "pages:baseUrl", env: "PAGES_BASE_URL", default: "https://graph.facebook.com", url: true, description: "The service's base URL; `/v18.0` is appended." },
  timeoutSeconds: { key: "pages:timeoutSeconds", env: "PAGES_TIMEOUT_SECONDS", default: "30", range: [1, 3600], description: "Per-request timeout." },
  maxRetries: { key: "pages:maxRetries", env: "PAGES_MAX_RETRIES", default: "6", range: [0, 20], description: "Retries of a throttled, failed or dropped request." },
  adoptExisting: { key: "pages:adoptExisting", env: "PAGES_ADOPT_EXISTING", default: "false", bool: true, description: "For a recovery run after a killed CLI: a page post whose identical message (and link) was made in the last 24 hours is taken over instead of posted again. Unset it afterwards." },
} satisfies Record<string, Setting>;

export const POSTS_SETTINGS = {
  accessToken: { key: "posts:accessToken", env: "POSTS_ACCESS_TOKEN", secret: true, description: "The user's access token." },
  appToken: { key: "posts:appToken", env: "POSTS_APP_TOKEN", secret: true, description: "The app token, for webhook subscriptions." },
  baseUrl: { key: "posts:baseUrl", env: "POSTS_BASE_URL", default: "https://graph.threads.net", url: true, description: "The service's base URL; `/v1.0` is appended." },
  timeoutSeconds: { key: "posts:timeoutSeconds", env: "POSTS_TIMEOUT_SECONDS", default: "30", range: [1, 3600], description: "Per-request timeout." },
  maxRetries: { key: "posts:maxRetries", env: "POSTS_MAX_RETRIES", default: "6", range: [0, 20], description: "Retries of a throttled, failed or dropped request." },
  adoptExisting: { key: "posts:adoptExisting", env: "POSTS_ADOPT_EXISTING", default: "false", bool: true, description: "For a recovery run after a killed CLI: a post whose identical text and media were published in the last 24 hours is taken over instead of published again. Unset it afterwards." },
  publishTimeoutSeconds: { key: "posts:publishTimeoutSeconds", env: "POSTS_PUBLISH_TIMEOUT_SECONDS", default: "300", range: [1, 86_400], description: "How long a post waits for its media to be processed." },
} satisfies Record<string, Setting>;

export const RUNNER_SETTINGS = {
  host: { key: "runner:host", env: "RUNNER_HOST", default: "127.0.0.1:11434", description: "The runner: `host:port` or a URL." },
  timeoutSeconds: { key: "runner:timeoutSeconds", env: "RUNNER_TIMEOUT_SECONDS", default: "600", range: [1, 86_400], description: "Per-request timeout (a pull of a large model is one long request)." },
} satisfies Record<string, Setting>;

export const SKILLS_SETTINGS = {
  url: { key: "skills:url", env: "SKILLS_URL", default: "http://127.0.0.1:8300", url: true, description: "The skills registry's base URL." },
  token: { key: "skills:token", env: "SKILLS_TOKEN", secret: true, description: "Bearer token for publishing, when the registry asks for one." },
  timeoutSeconds: { key: "skills:timeoutSeconds", env: "SKILLS_TIMEOUT_SECONDS", default: "30", range: [1, 3600], description: "Per-request timeout." },
} satisfies Record<string, Setting>;

export const CONTROL_SETTINGS = {
  url: { key: "control:url", env: "CONTROL_URL", default: "http://127.0.0.1:8200", url: true, description: "The computer-control endpoint's base URL (`/mcp` is appended)." },
  token: { key: "control:token", env: "CONTROL_TOKEN", secret: true, description: "Bearer token, when the endpoint asks for one." },
  vncPassword: { key: "control:vncPassword", env: "CONTROL_VNC_PASSWORD", secret: true, description: "The remote-desktop password for openRemoteDesktop." },
  timeoutSeconds: { key: "control:timeoutSeconds", env: "CONTROL_TIMEOUT_SECONDS", default: "120", range: [1, 86_400], description: "Per-request timeout (a tool call waits for its command to finish)." },
} satisfies Record<string, Setting>;

let stack: ConfigSource | undefined;

/** Called by the dynamic provider's `configure()` with the whole decrypted stack config. */
export function useStackConfig(source: ConfigSource | undefined): void {
  stack = source;
}

/**
 * Every setting that is set (in config or the environment) and out of its range or not a URL, so that a bad value
 * fails `pulumi preview` instead of the first change. Missing credentials are not judged here: a stack that does
 * not use a service need not configure it.
 */
export function configProblems(): string[] {
  const all: Setting[] = [EDGE_SETTINGS, PAGES_SETTINGS, POSTS_SETTINGS, RUNNER_SETTINGS, SKILLS_SETTINGS, CONTROL_SETTINGS].flatMap((t) => Object.values(t));
  const problems: string[] = [];
  for (const s of all) {
    const raw = stack?.get(s.key) ?? process.env[s.env];
    if (raw === undefined || raw === "") continue;
    if (s.range) {
      const n = Number(raw);
      if (!Number.isFinite(n) || n < s.range[0] || n > s.range[1]) problems.push(`${s.key} (or ${s.env}) must be a number from ${s.range[0]} to ${s.range[1]}; got "${raw}"`);
    }
    if (s.bool && !["true", "false"].includes(raw)) problems.push(`${s.key} (or ${s.env}) must be true or false; got "${raw}"`);
    if (s === RUNNER_SETTINGS.host && runnerHostProblem(raw)) problems.push(`${s.key} (or ${s.env}) must be host, host:port or an http(s) URL (the port defaults to 11434); got "${raw}"`);
    if (s.url && !isHttpUrl(raw)) problems.push(notAUrl(s, raw));
  }
  return problems;
}

export function read(s: Setting): string | undefined {
  const value = stack?.get(s.key) ?? process.env[s.env] ?? s.default;
  const v = value === "" ? undefined : value;
  if (s.secret) registerSecret(v);
  return v;
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
    throw new ConfigError(`${s.key} (or ${s.env}) must be a number from ${min} to ${max}; got "${raw}"`);
  }
  return n;
}

export type EdgeAuth = { kind: "token"; token: string } | { kind: "key"; key: string; email: string };

export interface EdgeConfig {
  baseUrl: string;
  auth: EdgeAuth;
  accountId?: string;
  rateLimit: { requests: number; perSeconds: number };
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
  if (token) auth = { kind: "token", token };
  else if (key && email) auth = { kind: "key", key, email };
  else {
    throw new ConfigError(
      "edge: no credentials. Set the API token as secret stack config (`pulumi config set --secret edge:apiToken <token>`) " +
        "or the environment variable EDGE_API_TOKEN; for the legacy scheme set edge:apiKey and edge:email " +
        "(or EDGE_API_KEY and EDGE_EMAIL)" + (key && !email ? ". edge:apiKey is set but edge:email is missing" : ""),
    );
  }
  const baseUrl = read(s.baseUrl)!.replace(/\/+$/, "").replace(/\/client\/v4$/, "");
  try {
    new URL(baseUrl);
  } catch {
    throw new ConfigError(`edge:baseUrl (or EDGE_BASE_URL) is not a URL: "${baseUrl}"`);
  }
  return {
    baseUrl,
    auth,
    accountId: read(s.accountId),
    rateLimit: { requests: readNumber(s.rateLimit), perSeconds: readNumber(s.rateLimitWindowSeconds) },
    timeoutMs: readNumber(s.timeoutSeconds) * 1000,
    maxRetries: readNumber(s.maxRetries),
    adoptExisting: readFlag(s.adoptExisting),
  };
}

/** `host:port` or a URL, as RUNNER_HOST takes it. */
export function runnerUrl(host: string): string {
  // As the official client reads it: `:port` is the loopback; without a scheme, http and the default port 11434;
  // with a scheme and no port, that scheme's own port.
  const explicit = host.includes("://");
  const withScheme = host.startsWith(":") ? `http://127.0.0.1${host}` : explicit ? host : `http://${host}`;
  const u = new URL(withScheme);
  if (!u.port && !explicit) u.port = "11434";
  if (u.hostname === "0.0.0.0") u.hostname = "127.0.0.1"; // a listen-on-all address, reached locally
  return u.origin;
}

/** runner:host is host, host:port, :port or an http(s) URL. */
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

const notAUrl = (s: Setting, raw: string) => `${s.key} (or ${s.env}) must be an http(s) URL such as https://host.example, with its scheme; got "${raw}"`;

/** A URL setting, checked, without trailing slashes. */
export function readUrl(s: Setting): string {
  const url = read(s)!.replace(/\/+$/, "");
  if (!isHttpUrl(url)) throw new ConfigError(notAUrl(s, url));
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
  if (!v) throw new ConfigError(`${what}: set it as secret stack config (\`pulumi config set --secret ${s.key} <value>\`) or the environment variable ${s.env}`);
  return v;
}

/** The edge service's settings (provider/settings.ts gathers every service's). */
import { settings } from "../setting";

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

/** The posts service's settings (provider/settings.ts gathers every service's). */
import { settings } from "../setting";

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

/** The pages service's settings (provider/settings.ts gathers every service's). */
import { settings } from "../setting";

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

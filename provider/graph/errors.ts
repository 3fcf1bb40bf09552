/**
 * The page-management and short-post services' errors: the `{error:{message,type,code,error_subcode}}` envelope
 * turned into typed errors with the documents' remedies, and their throttling (codes that arrive as HTTP 400/403,
 * with usage headers saying what was spent and when access returns).
 */
import { ApiError, AuthError, RateLimitError, ServerError, ValidationError } from "../http/errors";

export interface GraphErrorBody {
  message?: string;
  type?: string;
  code?: number;
  error_subcode?: number;
  is_transient?: boolean;
}

/**
 * Throttling: app (4), user (17), page (32), custom (613) and the business use case codes (80001 pages, 80002
 * Instagram, 80004 ads, 80005 lead ads, 80006 Messenger, 80008 WhatsApp, 80009 catalog, 80014 catalog batch).
 */
const THROTTLED = new Set([4, 17, 32, 613, 80001, 80002, 80003, 80004, 80005, 80006, 80008, 80009, 80014]);

/** What each service's calls need, named in a permission error's remedy. */
const PERMISSIONS: Record<string, string> = {
  posts: "threads_basic (reading), threads_content_publish (posting), threads_delete (deleting), threads_manage_insights (counts)",
  pages:
    "pages_show_list and pages_read_engagement (reading), pages_manage_posts (posting), pages_manage_metadata (subscriptions, access), read_insights (insights), business_management (access through a business)",
};
export const TOKEN_KEY: Record<string, string> = {
  posts: "ops:postsAccessToken (THREADS_ACCESS_TOKEN)",
  pages: "ops:pagesAccessToken (FACEBOOK_PAGE_ACCESS_TOKEN)",
};

/** Code 190 by subcode: what happened to the token, and what brings a working one. */
function tokenRemedy(service: string, e: GraphErrorBody): string {
  const key = TOKEN_KEY[service] ?? "the access token";
  switch (e.error_subcode) {
    case 463:
      return `The token expired (190/463): get a new one (a long-lived one lasts 60 days; set the app id and secret and pulumi-ops exchanges short-lived ones) and set it as ${key}`;
    case 460:
      return `The token was invalidated when the user changed their password (190/460): the user logs in again; set the new token as ${key}`;
    case 458:
      return `The user removed the app (190/458): they must authorize it again; set the new token as ${key}`;
    case 459:
    case 464:
      return `The user's account needs attention (190/${e.error_subcode}): they log in to the service's site and follow its steps, then a new token is set as ${key}`;
    case 467:
      return `The token is no longer valid (190/467: logged out, or replaced by a newer one): set a fresh token as ${key}`;
    case 492:
      return `The page token's user lost their role on the page (190/492): give them access to the page again, or use a token of someone who has it, as ${key}`;
    default:
      return `Invalid OAuth access token (190${e.error_subcode ? `/${e.error_subcode}` : ""}): check ${key}`;
  }
}

export function graphError(service: string, status: number, e: GraphErrorBody, method: string, path: string): ApiError {
  const code = e.code;
  const d = { service, status, code, subcode: e.error_subcode, message: e.message ?? `HTTP ${status}`, method, path };
  if (code === 190 || code === 102) return new AuthError({ ...d, remedy: tokenRemedy(service, e) });
  if (code !== undefined && THROTTLED.has(code))
    return new RateLimitError({
      ...d,
      remedy: "Still throttled after waiting: run again later, or lower how many resources run at once (--parallel)",
    });
  if (code === 10 || (code !== undefined && code >= 200 && code <= 299) || status === 403) {
    return new AuthError({
      ...d,
      remedy: `Insufficient privileges: the token needs the permission for this call (${PERMISSIONS[service] ?? "see the service's permission reference"}), and its user the access it needs`,
    });
  }
  // "Does not exist, cannot be loaded due to missing permissions, or does not support this operation": a wrong token
  // answers it as a deleted object does, so it is gone only once a check that can tell says so (GraphClient.call).
  if (code === 100 && e.error_subcode === 33) return new UnreachableObjectError(d);
  if (code === 368)
    return new ValidationError({
      ...d,
      remedy: "Content policy violation: the service judged the content spam-like or misleading; change it",
    });
  if (status >= 500 || code === 1 || code === 2 || e.is_transient)
    return new ServerError({ ...d, remedy: "The service failed; run the command again" });
  return new ValidationError(d);
}

/** Graph's 100/33: the object does not exist, or this token may not see it (GraphClient.call tells which). */
export class UnreachableObjectError extends ValidationError {}

/**
 * The wait before the next try of a throttled call: the business use case header's `estimated_time_to_regain_access`
 * (minutes) when it names one, else 2, 4, 8 ... seconds; at most a minute, so a run never stalls silently.
 */
export function throttleWait(headers: Record<string, string | string[] | undefined>, attempt: number): number {
  const minutes = regainMinutes(headers) ?? 0;
  const ms = minutes > 0 ? minutes * 60_000 : 2 ** attempt * 1000 * (0.75 + Math.random() / 2);
  return Math.min(ms, 60_000);
}

/** The business use case header's `estimated_time_to_regain_access` in minutes (undefined when it names none). */
function regainMinutes(headers: Record<string, string | string[] | undefined>): number | undefined {
  let minutes: number | undefined;
  try {
    for (const entries of Object.values(
      JSON.parse(String(headers["x-business-use-case-usage"] ?? "{}")) as Record<string, { estimated_time_to_regain_access?: number }[]>,
    )) {
      for (const u of entries)
        if (typeof u.estimated_time_to_regain_access === "number") minutes = Math.max(minutes ?? 0, u.estimated_time_to_regain_access);
    }
  } catch {
    /* a header that is not JSON says nothing */
  }
  return minutes;
}

/**
 * A throttled call the service says will not be served for more than a minute: waiting inside the run only stalls it
 * (a preview would sit through its retries), so it fails at once with when calls resume.
 */
export function throttledFor(
  err: ApiError,
  headers: Record<string, string | string[] | undefined>,
  method: string,
  path: string,
): RateLimitError | undefined {
  const minutes = regainMinutes(headers);
  const at = (m: number) => new Date(Date.now() + m * 60_000).toISOString().replace(/:\d\d\.\d+Z$/, "Z");
  const failure = (remedy: string) =>
    new RateLimitError({
      service: err.service,
      status: err.status,
      code: err.code,
      subcode: err.subcode,
      message: err.apiMessage,
      method,
      path,
      remedy,
    });
  if (minutes !== undefined && minutes > 1)
    return failure(
      `The service throttles these calls for about ${minutes} more minutes (until about ${at(minutes)}, X-Business-Use-Case-Usage): run again then`,
    );
  // An allowance the usage headers show spent (100%): counted over a rolling hour, with no reset time. A business use
  // case whose header names a wait (even 0) is judged by it, not by its percentages.
  // The code says whose allowance it is where the headers cannot: a user token's X-App-Usage shows the fuller of the
  // app's and the user's, and codes 17 and 32 (a Pages API call made with a user token) are the user's (the Graph API's
  // rate limiting guide: platform rate limits, and its table of Pages codes).
  const byCode: Record<number, string> = {
    17: "user's hourly call allowance (code 17, User request limit reached)",
    32: "user's hourly call allowance for Pages API calls (code 32, Page request limit reached)",
  };
  const spent = byCode[Number(err.code ?? 0)] ?? spentAllowance(headers, minutes !== undefined);
  if (spent)
    return failure(
      `The ${spent} is used up (100%): calls are counted over a rolling hour, so run again later, within the hour (by about ${at(60)} at the latest), or spread the work over runs`,
    );
  return undefined;
}

const USAGE_HEADERS: [string, string][] = [
  ["x-app-usage", "app's hourly call allowance (X-App-Usage)"],
  ["x-page-usage", "page's hourly call allowance (X-Page-Usage)"],
  ["x-business-use-case-usage", "page's call allowance (the Pages business use case, X-Business-Use-Case-Usage)"],
];

/** Which allowance the usage headers show at 100%, if one is. */
function spentAllowance(headers: Record<string, string | string[] | undefined>, waitNamed = false): string | undefined {
  for (const [name, what] of USAGE_HEADERS) {
    if (waitNamed && name === "x-business-use-case-usage") continue;
    try {
      const parsed = JSON.parse(String(headers[name] ?? "{}")) as Record<string, unknown>;
      // X-Business-Use-Case-Usage nests its usage by object id; the others are flat.
      const entries = name === "x-business-use-case-usage" ? Object.values(parsed).flat() : [parsed];
      for (const u of entries as Record<string, number>[])
        if (Math.max(u?.call_count ?? 0, u?.total_cputime ?? 0, u?.total_time ?? 0) >= 100) return what;
    } catch {
      /* a header that is not JSON says nothing */
    }
  }
  return undefined;
}

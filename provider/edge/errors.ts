/**
 * The edge API's failures as typed errors, each with its remedy: the service's error codes today, and the token
 * permission a refused call needs.
 */
import { AlreadyExistsError, ApiError, AuthError, NotFoundError, RateLimitError, ServerError, ValidationError } from "../http/errors";
import type * as wire from "./wire";

/**
 * The service's codes today (its API reference and the deprecation notes; docs/service-today.md): 81057 "The record
 * already exists", 81058 "An identical record already exists", 81053/81054 a CNAME clash; 81044 is "The record does
 * not exist". Throttling is 429 with 971 (1015 is the visitor-facing edge error, and the sunset analytics' code).
 * A proxied record the proxy refuses: 9041 (and 9003/9004), since 2024-10-01 no longer wrapped in 1004.
 */
/** A record that exists already, or a CNAME beside another record (8105x). */
const ALREADY_EXISTS = [81053, 81054, 81057, 81058];
/**
 * Codes that say a name is taken on one product's create only (elsewhere they mean other things): a KV namespace's
 * title (10014, "a namespace with this account ID and title already exists"), an R2 bucket's name (10073 in the
 * error-codes page, 10004 as the live API was seen answering), a D1 database's name (7502, "Internal error").
 */
const TAKEN_ON: [RegExp, number[]][] = [
  [/\/storage\/kv\/namespaces$/, [10014]],
  [/\/r2\/buckets$/, [10073, 10004]],
  [/\/d1\/database$/, [7502]],
];
const RATE_LIMITED = [971, 10100];
const AUTH = [10000, 9106, 9103, 9109, 6003, 1000];
const NOT_PROXIABLE = [9003, 9004, 9041];
/** Endpoints the service retired: 1015 from the sunset analytics, 10020 from the read-only firewall rules API. */
const RETIRED = [1015, 10020];

export const SET_TOKEN =
  "Set a valid API token: pulumi config set --secret ops:edgeApiToken <token> (or EDGE_API_TOKEN, or CLOUDFLARE_API_TOKEN)";

const REMEDY = {
  auth: "Verify the token (ops:edgeApiToken, EDGE_API_TOKEN or CLOUDFLARE_API_TOKEN) and regenerate it with the permission this call needs",
  exists: "Look it up by name and update it: set `adopt: true` on the resource to take over the existing object",
  prohibited: "Set proxied to false: a private address cannot be served through the proxy",
  rate: "Rate limited after every retry: lower ops:edgeRateLimit (requests per 5 minutes) or run with less --parallel",
};

/** The token permission a call needs, as the account's API token page names it. */
export function permissionFor(method: string, path: string): string {
  const edit = method === "GET" ? "Read" : "Edit";
  if (path.startsWith("/accounts/") && path.includes("/workers/")) return `Account / Workers Scripts / ${edit}`;
  if (path.includes("/storage/kv/")) return `Account / Workers KV Storage / ${edit}`;
  if (path.includes("/r2/")) return `Account / Workers R2 Storage / ${edit}`;
  if (path.includes("/d1/")) return `Account / D1 / ${edit}`;
  if (/\/workers\/routes/.test(path)) return `Zone / Workers Routes / ${edit}`;
  if (/\/dns_records/.test(path)) return `Zone / DNS / ${edit}`;
  if (/\/settings/.test(path)) return `Zone / Zone Settings / ${edit}`;
  if (/\/pagerules/.test(path)) return `Zone / Page Rules / ${edit}`;
  if (/\/firewall\/|\/rate_limits|\/rulesets/.test(path)) return `Zone / Zone WAF / ${edit}`;
  if (/\/analytics|\/security\/events/.test(path)) return "Zone / Analytics / Read";
  return `Zone / Zone / ${edit}`;
}

export function toError(status: number, errors: wire.EdgeErrorItem[], method: string, path: string, text: string): ApiError {
  const first = errors.find((e) => e.code !== undefined) ?? errors[0];
  const code = first?.code;
  const message = errors.length
    ? errors.map((e) => e.message || `code ${e.code ?? "unknown"}`).join("; ")
    : text.slice(0, 200) || "no error detail";
  const d = { service: "edge", status, code, message, method, path };
  const has = (codes: number[]) => errors.some((e) => e.code !== undefined && codes.includes(e.code));
  if (status === 429 || has(RATE_LIMITED)) return new RateLimitError({ ...d, remedy: REMEDY.rate });
  // 10020 is also the workers routes' "A route with the same pattern already exists": retired only on firewall paths.
  if (/\/workers\/routes/.test(path) && has([10020]))
    return new AlreadyExistsError({
      ...d,
      remedy: "Set `adopt: true` on the WorkerRoute to take over the route with this pattern, or choose another pattern",
    });
  if (status === 410 || has(RETIRED.filter((c) => c !== 10020 || /\/(firewall|filters)/.test(path))))
    return new ValidationError({
      ...d,
      remedy:
        "The service retired this endpoint: upgrade pulumi-ops, whose resources use the endpoints that replaced it (docs/service-today.md)",
    });
  if (has(ALREADY_EXISTS) && status !== 404) return new AlreadyExistsError({ ...d, remedy: REMEDY.exists });
  if (method === "POST" && TAKEN_ON.some(([p, codes]) => p.test(path) && has(codes)))
    return new AlreadyExistsError({ ...d, remedy: REMEDY.exists });
  if (status === 401 || status === 403 || has(AUTH)) return new AuthError({ ...d, remedy: REMEDY.auth });
  // The Workers endpoints' "not found" codes (a script, a route, a custom domain, a secret), whatever the status.
  if (status === 404 || (/\/workers\//.test(path) && has([10007, 10009, 100114, 10056]))) return new NotFoundError(d);
  if (/\/r2\/buckets\//.test(path) && has([10008]))
    return new ValidationError({
      ...d,
      remedy:
        "Empty the bucket first (its objects through the S3 API, wrangler r2 object delete, or a lifecycle rule), then run the command again",
    });
  if (has(NOT_PROXIABLE)) return new ValidationError({ ...d, remedy: REMEDY.prohibited });
  if (status >= 500) return new ServerError({ ...d, remedy: "The service failed; run the command again later" });
  return new ValidationError(d);
}

/** The server has no such route (a faster path it does not offer): 400 with code 7003, or 405. */
export function noRoute(e: unknown): boolean {
  return e instanceof ApiError && !(e instanceof AuthError) && ((e.status === 400 && e.code === 7003) || e.status === 405);
}

/**
 * Who may call the edge emulator, as the service decides it: the permissions a token carries (one Read and one Edit
 * per product), the demo's credentials, and the endpoints the Cloudflare API v4 documents (what strict mode serves).
 */
import type { Reply, Request } from "../kit";
/** How a topic's routes are added: a method, a path under `/client/v4`, the permission it needs, and its handler. */
export type EdgeRoute = (m: string, p: string, perm: Permission, h: (req: Request) => Reply | Promise<Reply>) => void;

export type Permission =
  | "zone:read"
  | "dns:read"
  | "dns:edit"
  | "zone_settings:read"
  | "zone_settings:edit"
  | "page_rules:edit"
  | "firewall:edit"
  | "rate_limits:edit"
  | "workers:edit"
  | "analytics:read"
  | "page_rules:read"
  | "firewall:read"
  | "rate_limits:read"
  | "workers:read"
  // The per-product permissions of the other rule phases (Cache Rules, Single Redirect, Transform Rules, Origin
  // Rules, Config Rules, ...), one pair here.
  | "rules:read"
  | "rules:edit"
  // Zone / Workers Routes (a zone's routes; scripts, domains and subdomains are the account's Workers Scripts).
  | "workers_routes:read"
  | "workers_routes:edit"
  // Zone / Zone Edit: adding a zone to the account (POST /zones).
  | "zone:edit"
  // Account / Workers KV Storage.
  | "workers_kv:read"
  | "workers_kv:edit"
  // Account / Workers R2 Storage, and Account / D1.
  | "workers_r2:read"
  | "workers_r2:edit"
  | "d1:read"
  | "d1:edit"
  // Account / Queues.
  | "queues:read"
  | "queues:edit";

export const ALL_PERMISSIONS: Permission[] = [
  "zone:read",
  "dns:read",
  "dns:edit",
  "zone_settings:read",
  "zone_settings:edit",
  "page_rules:edit",
  "firewall:edit",
  "rate_limits:edit",
  "workers:edit",
  "analytics:read",
  "rules:edit",
  "workers_routes:edit",
  "zone:edit",
  "workers_kv:edit",
  "workers_r2:edit",
  "d1:edit",
  "queues:edit",
];
/** What a read-only token of a pipeline's pull-request job holds: every Read permission, no Edit. */
export const READ_PERMISSIONS: Permission[] = [
  "zone:read",
  "dns:read",
  "zone_settings:read",
  "page_rules:read",
  "firewall:read",
  "rate_limits:read",
  "workers:read",
  "analytics:read",
  "rules:read",
  "workers_routes:read",
  "workers_kv:read",
  "workers_r2:read",
  "d1:read",
  "queues:read",
];

/** The endpoints of the Cloudflare API v4 the emulator serves, as method and path pattern. */
export const DOCUMENTED: [string, RegExp][] = [
  ["GET", /^\/user\/tokens\/verify$/],
  ["GET", /^\/zones$/],
  ["GET", /^\/zones\/[^/]+\/settings\/ssl$/],
  ["PATCH", /^\/zones\/[^/]+\/settings\/[^/]+$/],
  ["GET", /^\/zones\/[^/]+\/dns_records$/],
  ["POST", /^\/zones\/[^/]+\/dns_records$/],
  ["PATCH", /^\/zones\/[^/]+\/dns_records\/[^/]+$/],
  ["DELETE", /^\/zones\/[^/]+\/dns_records\/[^/]+$/],
  ["GET", /^\/zones\/[^/]+\/pagerules$/],
  ["POST", /^\/zones\/[^/]+\/pagerules$/],
  ["GET", /^\/accounts\/[^/]+\/workers\/scripts$/],
  ["PUT", /^\/accounts\/[^/]+\/workers\/scripts\/[^/]+$/],
  ["GET", /^\/zones\/[^/]+\/firewall\/rules$/],
  ["POST", /^\/zones\/[^/]+\/firewall\/rules$/],
  ["POST", /^\/zones\/[^/]+\/rate_limits$/],
  ["GET", /^\/zones\/[^/]+\/analytics\/dashboard$/],
  ["GET", /^\/zones\/[^/]+\/security\/events$/],
  ["GET", /^\/zones\/[^/]+\/analytics\/colos$/],
  ["GET", /^\/accounts\/[^/]+\/storage\/kv\/namespaces$/],
  ["POST", /^\/accounts\/[^/]+\/storage\/kv\/namespaces$/],
  ["GET", /^\/accounts\/[^/]+\/storage\/kv\/namespaces\/[^/]+$/],
  ["PUT", /^\/accounts\/[^/]+\/storage\/kv\/namespaces\/[^/]+$/],
  ["DELETE", /^\/accounts\/[^/]+\/storage\/kv\/namespaces\/[^/]+$/],
  ["GET", /^\/accounts\/[^/]+\/r2\/buckets(\/[^/]+)?$/],
  ["POST", /^\/accounts\/[^/]+\/r2\/buckets$/],
  ["PATCH", /^\/accounts\/[^/]+\/r2\/buckets\/[^/]+$/],
  ["DELETE", /^\/accounts\/[^/]+\/r2\/buckets\/[^/]+$/],
  ["GET", /^\/accounts\/[^/]+\/d1\/database(\/[^/]+)?$/],
  ["POST", /^\/accounts\/[^/]+\/d1\/database(\/[^/]+\/query)?$/],
  ["DELETE", /^\/accounts\/[^/]+\/d1\/database\/[^/]+$/],
  ["GET", /^\/accounts\/[^/]+\/queues(\/[^/]+)?$/],
  ["POST", /^\/accounts\/[^/]+\/queues(\/[^/]+\/messages\/pull)?$/],
  ["DELETE", /^\/accounts\/[^/]+\/queues\/[^/]+$/],
];

export const DEMO_TOKEN = "edge-demo-token-0123456789";
/** An account-owned token of the demo account, with every permission. */
export const DEMO_ACCOUNT_TOKEN = "cfat_edge-demo-account-token-0123456789";
export const READONLY_TOKEN = "edge-readonly-token-0123456789";
export const DEMO_ACCOUNT = "0a1b2c3d4e5f60718293a4b5c6d7e8f9";

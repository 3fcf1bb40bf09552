/**
 * The page service's fixed cast: the version prefix, the app, its tokens, the page, the roles and their tasks, the
 * users. Apart from server.ts so that its routes (routes.ts) read them without importing the server back.
 */
/** The internal prefix routes are registered under: a request's version is mapped onto it. */
export const V = "/v26.0";
export const PAGES_APP = { id: "100000000000001", secret: "pages-app-secret-0123" };
export const PAGES_USER_TOKEN = "pages-user-token-0123456789";
export const PAGES_PAGE_TOKEN = "pages-page-token-0123456789";
export const PAGES_MODERATOR_TOKEN = "pages-moderator-token-0123";
export const PAGES_EXPIRED_TOKEN = "pages-expired-token-0123456";
/** A short-lived user token (an hour, as a login gives), to be exchanged for a long-lived one. */
export const PAGES_SHORT_USER_TOKEN = "pages-short-user-token-012345";
export const PAGE_ID = "200000000000001";

export type Role = "ADMIN" | "EDITOR" | "MODERATOR" | "ADVERTISER" | "ANALYST";
export const ROLES: Role[] = ["ADMIN", "EDITOR", "MODERATOR", "ADVERTISER", "ANALYST"];
/** The tasks a role's holder has, as the service lists them (each role holds those below it). */
export const TASKS: Record<Role, string[]> = {
  ADMIN: ["MANAGE", "CREATE_CONTENT", "MODERATE", "MESSAGING", "ADVERTISE", "ANALYZE"],
  EDITOR: ["CREATE_CONTENT", "MODERATE", "MESSAGING", "ADVERTISE", "ANALYZE"],
  MODERATOR: ["MODERATE", "MESSAGING", "ADVERTISE", "ANALYZE"],
  ADVERTISER: ["ADVERTISE", "ANALYZE"],
  ANALYST: ["ANALYZE"],
};
/** The page tasks the service grants (the official Business SDK's `Page.Tasks`). */
export const ALL_TASKS = [
  "MANAGE",
  "CREATE_CONTENT",
  "MODERATE",
  "MESSAGING",
  "ADVERTISE",
  "ANALYZE",
  "CASHIER_ROLE",
  "GLOBAL_STRUCTURE_MANAGEMENT",
  "MANAGE_JOBS",
  "MANAGE_LEADS",
  "MODERATE_COMMUNITY",
  "PAGES_MESSAGING",
  "PAGES_MESSAGING_SUBSCRIPTIONS",
  "PROFILE_PLUS_ADVERTISE",
  "PROFILE_PLUS_ANALYZE",
  "PROFILE_PLUS_CREATE_CONTENT",
  "PROFILE_PLUS_FACEBOOK_ACCESS",
  "PROFILE_PLUS_FULL_CONTROL",
  "PROFILE_PLUS_GLOBAL_STRUCTURE_MANAGEMENT",
  "PROFILE_PLUS_MANAGE",
  "PROFILE_PLUS_MANAGE_LEADS",
  "PROFILE_PLUS_MESSAGING",
  "PROFILE_PLUS_MODERATE",
  "PROFILE_PLUS_MODERATE_DELEGATE_COMMUNITY",
  "PROFILE_PLUS_REVENUE",
  "READ_PAGE_MAILBOXES",
  "VIEW_MONETIZATION_INSIGHTS",
];
export const BUSINESS_ID = "600000000000001";

export const USERS: Record<string, string> = {
  "300000000000001": "Ops Admin",
  "300000000000002": "Alice Moderator",
  "300000000000003": "Bob Editor",
};

export * from "./functions";
export { PagePost, type PagePostArgs } from "./page-post";
export { PageRole, type PageRoleArgs } from "./page-role";
export { PageSubscription, type PageSubscriptionArgs } from "./page-subscription";
export type * from "./types";

export * from "./functions";
export { Post, type PostArgs } from "./post";
export { WebhookSubscription, type WebhookSubscriptionArgs } from "./webhook-subscription";
export type * from "./types";

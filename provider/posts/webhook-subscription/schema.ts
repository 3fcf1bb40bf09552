/**
 * `ops.posts.WebhookSubscription`: kept so 0.3.0 stacks can remove it; the service has no subscriptions API (its
 * webhooks are set up in the app dashboard), so a program that declares one fails at check with these steps.
 */
import { z } from "zod";

export const token = "posts:WebhookSubscription";
export const TOPICS = ["replies", "delete", "mentions", "publish"] as const;
export const DASHBOARD_STEPS =
  "posts: the short-post service (Threads API) has no API for webhook subscriptions: remove this WebhookSubscription and set the webhook up in the app dashboard (App Dashboard > Use cases > Access the Threads API > Customize > Webhooks: callback URL, verify token, then subscribe to the topics replies, delete, mentions or publish)";

export const WebhookSubscriptionInputs = z.object({
  appId: z
    .string()
    .regex(/^\d{1,32}$/, "appId must be the app's numeric id")
    .describe("The app. Changing it replaces the subscription.")
    .meta({ replaceOnChanges: true }),
  object: z.string().default("posts").describe("Not used: the service has no subscriptions API.").meta({ replaceOnChanges: true }),
  callbackUrl: z.url({ protocol: /^https$/, error: "callbackUrl must be an https URL" }).describe("Where the service sends events."),
  fields: z
    .array(z.enum(TOPICS, { error: "fields takes replies, delete, mentions and publish" }))
    .min(1, "fields needs a topic")
    .transform((f) => [...new Set(f)].sort())
    .describe("The topics (`replies`, `delete`, `mentions`, `publish`): subscribed to in the app dashboard, not through this resource."),
  verifyToken: z
    .string()
    .min(8, "verifyToken must be at least 8 characters")
    .max(256)
    .describe("The secret the service echoes when it verifies the callback.")
    .meta({ secret: true }),
});

export const WebhookSubscriptionOutputs = z.object({
  appId: z.string(),
  object: z.string(),
  callbackUrl: z.string(),
  fields: z.array(z.string()),
  verifyToken: z.string().meta({ secret: true }),
});
export type WebhookSubscriptionInputs = z.output<typeof WebhookSubscriptionInputs>;
export type WebhookSubscriptionOutputs = z.infer<typeof WebhookSubscriptionOutputs>;

/**
 * The class's doc comment in the TypeScript SDK (scripts/gen-sdk-classes.ts writes it, whitespace folded, above the
 * example below): what the resource is for and how it behaves.
 */
export const classDoc = `
  Retired: the short-post service (the Threads API) has no API for webhook subscriptions; they are set up in its app
  dashboard (callback URL, verify token, topics \`replies\`, \`delete\`, \`mentions\`, \`publish\`). A program that
  declares one fails at preview with those steps. The class stays so a 0.3.0 stack can remove it: destroy drops it
  from state (sending nothing), and the dashboard's subscription stays.`;

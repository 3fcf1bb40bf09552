/** `ops.posts.WebhookSubscription`: the app's webhook for `mentions` and `replies`, set up with the app token. */
import { z } from "zod";

export const token = "posts:WebhookSubscription";

export const WebhookSubscriptionInputs = z.object({
  appId: z.string().regex(/^\d{1,32}$/, "appId must be the app's numeric id").describe("The app. Changing it replaces the subscription.").meta({ replaceOnChanges: true }),
  object: z.literal("posts", { error: "object must be posts" }).default("posts").describe("What the subscription is for: `posts`, the only kind the service has.").meta({ replaceOnChanges: true }),
  callbackUrl: z.url({ protocol: /^https$/, error: "callbackUrl must be an https URL" }).describe("Where the service sends events."),
  fields: z
    .array(z.enum(["mentions", "replies"], { error: "fields takes mentions and replies" }))
    .min(1, "fields needs mentions, replies or both")
    .transform((f) => [...new Set(f)].sort())
    .describe("The events sent: `mentions`, `replies` or both."),
  verifyToken: z.string().min(8, "verifyToken must be at least 8 characters").max(256).describe("The secret the service echoes when it verifies the callback.").meta({ secret: true }),
});

export const WebhookSubscriptionOutputs = z.object({
  appId: z.string(),
  object: z.string(),
  callbackUrl: z.string(),
  fields: z.array(z.string()),
  verifyToken: z.string().meta({ secret: true }),
});

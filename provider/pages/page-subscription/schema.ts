/** `ops.pages.PageSubscription`: which page events reach the app's webhook. The set replaces the app's set. */
import { z } from "zod";
import { GraphId } from "../page-role/schema";

export const token = "pages:PageSubscription";
export const PAGE_FIELDS = ["feed", "messages", "messaging_postbacks", "message_deliveries", "message_reads", "mention", "ratings"] as const;

export const PageSubscriptionInputs = z.object({
  pageId: GraphId("pageId").describe("The page. Changing it replaces the subscription.").meta({ replaceOnChanges: true }),
  subscribedFields: z
    .array(z.enum(PAGE_FIELDS, { error: `subscribedFields takes ${PAGE_FIELDS.join(", ")}` }))
    .min(1, "subscribedFields needs at least one field")
    .transform((f) => [...new Set(f)].sort())
    .describe("The events sent to the app's webhook, e.g. `feed`, `messages`, `messaging_postbacks`; the order does not matter."),
});

export const PageSubscriptionOutputs = z.object({
  pageId: z.string(),
  subscribedFields: z.array(z.string()),
  appId: z.string().optional().describe("The subscribed app."),
});

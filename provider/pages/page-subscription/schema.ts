/** `ops.pages.PageSubscription`: which page events reach the app's webhook. The set replaces the app's set. */
import { z } from "zod";
import { GraphId } from "../page-role/schema";
import type { Example } from "../../doc-example";

export const token = "pages:PageSubscription";
export const PAGE_FIELDS = [
  "feed",
  "messages",
  "messaging_postbacks",
  "message_deliveries",
  "message_reads",
  "mention",
  "ratings",
] as const;

export const PageSubscriptionInputs = z.object({
  pageId: GraphId("pageId").describe("The page. Changing it replaces the subscription.").meta({ replaceOnChanges: true }),
  subscribedFields: z
    .array(z.enum(PAGE_FIELDS, { error: `subscribedFields takes ${PAGE_FIELDS.join(", ")}` }))
    .min(1, "subscribedFields needs at least one field")
    .transform((f) => [...new Set(f)].sort())
    .describe("The events sent to the app's webhook, e.g. `feed`, `messages`, `messaging_postbacks`; the order does not matter."),
  adopt: z
    .boolean()
    .default(false)
    .describe(
      "Take over the app's existing subscription to the page (its fields become the program's; destroy gives back the fields it had). Without it, an existing subscription is refused at preview: another stack or a person set it up.",
    ),
});

export const PageSubscriptionOutputs = z.object({
  pageId: z.string(),
  subscribedFields: z.array(z.string()),
  appId: z.string().optional().describe("The subscribed app."),
  adopt: z.boolean().optional().describe("Whether the subscription was taken over (`adopt`)."),
  previousFields: z
    .array(z.string())
    .optional()
    .describe("The fields the app was subscribed to before this resource took the subscription over: destroy subscribes it to them again."),
});
export type PageSubscriptionInputs = z.output<typeof PageSubscriptionInputs>;
export type PageSubscriptionOutputs = z.infer<typeof PageSubscriptionOutputs>;

/**
 * The class's doc comment in the TypeScript SDK (scripts/gen-sdk-classes.ts writes it, whitespace folded, above the
 * example below): what the resource is for and how it behaves.
 */
export const classDoc = `
  The page events sent to this app's webhook (the app of ops:pagesAppId, else the one the token was issued to); the
  set replaces this app's set, destroy unsubscribes this app. Other apps' subscriptions on the page are left alone.`;

/**
 * The example of the reference and of the class's doc comment, in every language (scripts/example-render.ts), run
 * by the tests against the emulators' seeds.
 */
export const example: Example = { step: { name: "events", args: { pageId: "200000000000001", subscribedFields: ["feed", "messages"] } } };

/** `ops.posts.Post`: a published short post (text, image, video or carousel, with a poll, a link card, a quote). Any change replaces it. */
import { z } from "zod";
import { ruleFailure } from "../../check";
import { ref, type Example } from "../../doc-example";
import { TextAttachment, TextSpoiler, threadingRules } from "./threading";
import { countedLength, distinctLinks, HttpUrl, LIMITS } from "./limits";

export { countedLength, distinctLinks, LIMITS };

export const token = "posts:Post";
/** The inputs a post is made of: a change of any replaces it (a published post cannot be edited). */
export const REPLACING_FIELDS = [
  "mediaType",
  "text",
  "imageUrl",
  "videoUrl",
  "altText",
  "children",
  "replyControl",
  "topicTag",
  "linkAttachment",
  "quotePostId",
  "pollAttachment",
  "replyTo",
  "textAttachment",
  "textSpoilers",
  "spoilerMedia",
];
export const MEDIA_TYPES = ["TEXT", "IMAGE", "VIDEO", "CAROUSEL"] as const;
/** Who may reply, as the container's `reply_control` takes it (the post reads it back as `reply_audience`, upper case). */
export const REPLY_CONTROLS = ["everyone", "accounts_you_follow", "mentioned_only", "parent_post_author_only", "followers_only"] as const;
const AltText = z
  .string()
  .max(LIMITS.altText, { error: `altText must be at most ${LIMITS.altText} characters: the service refuses longer` });

export const CarouselItem = z
  .object({
    mediaType: z.enum(["IMAGE", "VIDEO"], { error: "a carousel item's mediaType must be IMAGE or VIDEO" }).describe("IMAGE or VIDEO."),
    imageUrl: HttpUrl.optional().describe("A public image (under 8 MB), for an IMAGE item."),
    videoUrl: HttpUrl.optional().describe("A public video (at most 1 GB and 5 minutes), for a VIDEO item."),
    altText: AltText.optional().describe(`What the item shows, for people who cannot see it (at most ${LIMITS.altText} characters).`),
  })
  .superRefine((c, ctx) => {
    if (c.mediaType === "IMAGE" && !c.imageUrl) ruleFailure(ctx, "imageUrl", "an IMAGE item needs imageUrl", ["mediaType"]);
    if (c.mediaType === "VIDEO" && !c.videoUrl) ruleFailure(ctx, "videoUrl", "a VIDEO item needs videoUrl", ["mediaType"]);
    if (c.mediaType !== "IMAGE" && c.imageUrl)
      ruleFailure(ctx, "imageUrl", "imageUrl is for IMAGE items: remove it or set mediaType IMAGE", ["mediaType"]);
    if (c.mediaType !== "VIDEO" && c.videoUrl)
      ruleFailure(ctx, "videoUrl", "videoUrl is for VIDEO items: remove it or set mediaType VIDEO", ["mediaType"]);
  })
  .describe("One image or video of a carousel.");

const PollOption = z
  .string()
  .refine((o) => o.trim().length > 0, { error: "a poll option must not be blank" })
  .refine((o) => [...o].length <= LIMITS.pollOption, {
    error: `a poll option must be at most ${LIMITS.pollOption} characters: the service refuses longer`,
  });
export const PollAttachment = z
  .object({
    optionA: PollOption.describe("The first option."),
    optionB: PollOption.describe("The second option."),
    optionC: PollOption.optional().describe("A third option."),
    optionD: PollOption.optional().describe("A fourth option (at most four)."),
  })
  .superRefine((p, ctx) => {
    if (p.optionD !== undefined && p.optionC === undefined)
      ruleFailure(ctx, "optionD", "optionD needs optionC: options are filled in order");
  })
  .describe("A poll of two to four options, each at most 25 characters.");

export const PostInputs = z
  .object({
    mediaType: z
      .enum(MEDIA_TYPES, { error: "mediaType must be TEXT, IMAGE, VIDEO or CAROUSEL" })
      .default("TEXT")
      .meta({ replaceOnChanges: true })
      .describe("What the post carries: text alone, an image (`imageUrl`), a video (`videoUrl`) or a carousel (`children`)."),
    text: z
      .string()
      .refine((t) => countedLength(t) <= 500, {
        error: (i) =>
          `text must be at most 500 characters as the service counts them (an emoji counts as its UTF-8 bytes, 4 for most): this one counts ${countedLength(String(i.input))}`,
      })
      .superRefine((t, ctx) => {
        const n = distinctLinks(t);
        if (n > 5)
          ctx.addIssue({ code: "custom", message: `text may contain at most 5 distinct links and has ${n}: the service refuses more` });
      })
      .refine((t) => t.trim().length > 0, { error: "text must not be blank (only spaces or line breaks): write the post's text" })
      .optional()
      .describe("The post's text: at most 500 characters (an emoji counts as its UTF-8 bytes) and 5 distinct links.")
      .meta({ replaceOnChanges: true }),
    imageUrl: HttpUrl.optional().describe("A public image (under 8 MB) for IMAGE posts.").meta({ replaceOnChanges: true }),
    videoUrl: HttpUrl.optional().describe("A public video (at most 1 GB and 5 minutes) for VIDEO posts.").meta({ replaceOnChanges: true }),
    altText: AltText.optional()
      .describe(`What an IMAGE or VIDEO post shows, for people who cannot see it (at most ${LIMITS.altText} characters).`)
      .meta({ replaceOnChanges: true }),
    children: z
      .array(CarouselItem)
      .min(LIMITS.carouselMin, { error: `a carousel has ${LIMITS.carouselMin} to ${LIMITS.carouselMax} items: add one` })
      .max(LIMITS.carouselMax, { error: `a carousel has at most ${LIMITS.carouselMax} items: split it into two posts` })
      .optional()
      .describe(
        `The images and videos of a CAROUSEL post, in order: ${LIMITS.carouselMin} to ${LIMITS.carouselMax}. Each is made and processed before the carousel.`,
      )
      .meta({ replaceOnChanges: true }),
    replyControl: z
      .enum(REPLY_CONTROLS, { error: `replyControl must be one of ${REPLY_CONTROLS.join(", ")}` })
      .optional()
      .describe(
        "Who may reply: `everyone` (the service's default), `accounts_you_follow`, `mentioned_only`, `parent_post_author_only` or `followers_only`.",
      )
      .meta({ replaceOnChanges: true }),
    topicTag: z
      .string()
      .min(1, { error: "topicTag must not be empty: remove it or name a topic" })
      .max(LIMITS.topicTag, { error: `topicTag must be at most ${LIMITS.topicTag} characters` })
      .refine((t) => !/[.&]/.test(t), { error: "topicTag must not contain a period (.) or an ampersand (&): the service refuses them" })
      .optional()
      .describe(`The post's topic (one tag, without \`#\`, 1 to ${LIMITS.topicTag} characters, no \`.\` or \`&\`).`)
      .meta({ replaceOnChanges: true }),
    linkAttachment: HttpUrl.optional()
      .describe("A link shown as a preview card under a TEXT post's text.")
      .meta({ replaceOnChanges: true }),
    quotePostId: z
      .string()
      .regex(/^\d+$/, {
        error: "quotePostId must be a post's numeric id (a Post's `postId` output, or the id in its share link's API answer)",
      })
      .optional()
      .describe("The id of a post this one quotes.")
      .meta({ replaceOnChanges: true }),
    pollAttachment: PollAttachment.optional().describe("A poll under a TEXT post.").meta({ replaceOnChanges: true }),
    replyTo: z
      .string()
      .regex(/^\d+$/, {
        error: "replyTo must be a post's numeric id (another Post's `postId` output, or the id of a reply in one of the account's threads)",
      })
      .optional()
      .describe(
        "The post this one replies to: another Post's `postId` (the reply is published after it and deleted before it), or the id of a post in one of the account's threads. Replies have their own quota (1,000 a day).",
      )
      .meta({ replaceOnChanges: true }),
    textAttachment: TextAttachment.optional().meta({ replaceOnChanges: true }),
    textSpoilers: z
      .array(TextSpoiler)
      .max(LIMITS.textSpoilers, { error: `at most ${LIMITS.textSpoilers} textSpoilers: the service refuses more` })
      .optional()
      .describe(`Ranges of \`text\` hidden as spoilers (at most ${LIMITS.textSpoilers}).`)
      .meta({ replaceOnChanges: true }),
    spoilerMedia: z
      .boolean()
      .optional()
      .describe("Whether the image, video or carousel is hidden as a spoiler until a reader taps it.")
      .meta({ replaceOnChanges: true }),
    allowRepublish: z
      .boolean()
      .default(false)
      .describe(
        "A published post cannot be edited: a change of its text or media replaces it — a new post is published and this one deleted, with its likes, replies and views, spending one of the day's publishes and one of its deletes. Such a change fails the preview unless this is true (the preview then says what the post has that goes).",
      ),
  })
  .superRefine((p, ctx) => {
    if (p.mediaType === "TEXT" && !p.text) ruleFailure(ctx, "text", "a TEXT post needs text", ["mediaType"]);
    if (p.mediaType === "IMAGE" && !p.imageUrl) ruleFailure(ctx, "imageUrl", "an IMAGE post needs imageUrl", ["mediaType"]);
    if (p.mediaType === "VIDEO" && !p.videoUrl) ruleFailure(ctx, "videoUrl", "a VIDEO post needs videoUrl", ["mediaType"]);
    if (p.mediaType === "CAROUSEL" && !p.children)
      ruleFailure(ctx, "children", `a CAROUSEL post needs children: ${LIMITS.carouselMin} to ${LIMITS.carouselMax} images or videos`, [
        "mediaType",
      ]);
    if (p.mediaType !== "IMAGE" && p.imageUrl)
      ruleFailure(ctx, "imageUrl", `imageUrl is for IMAGE posts: remove it or set mediaType IMAGE`, ["mediaType"]);
    if (p.mediaType !== "VIDEO" && p.videoUrl)
      ruleFailure(ctx, "videoUrl", `videoUrl is for VIDEO posts: remove it or set mediaType VIDEO`, ["mediaType"]);
    if (p.mediaType !== "CAROUSEL" && p.children)
      ruleFailure(ctx, "children", "children are for CAROUSEL posts: remove them or set mediaType CAROUSEL", ["mediaType"]);
    if (p.altText !== undefined && p.mediaType !== "IMAGE" && p.mediaType !== "VIDEO")
      ruleFailure(
        ctx,
        "altText",
        p.mediaType === "CAROUSEL"
          ? "a carousel's alt text is its items': set altText on each of children"
          : "altText is for IMAGE and VIDEO posts: remove it",
        ["mediaType"],
      );
    // Link previews and polls are text posts' (Threads API "Link attachments", "Polls").
    if (p.linkAttachment && p.mediaType !== "TEXT")
      ruleFailure(
        ctx,
        "linkAttachment",
        "linkAttachment is for TEXT posts: the service shows no link card under media; put the link in text",
        ["mediaType"],
      );
    if (p.pollAttachment && p.mediaType !== "TEXT")
      ruleFailure(ctx, "pollAttachment", "pollAttachment is for TEXT posts: the service attaches polls to text-only posts", ["mediaType"]);
    if (p.pollAttachment && p.linkAttachment)
      ruleFailure(ctx, "pollAttachment", "a post carries a poll or a link attachment, not both: remove one", ["linkAttachment"]);
    threadingRules(p, ctx);
  });

export const PostOutputs = z.object({
  mediaType: z.string(),
  text: z.string().optional(),
  imageUrl: z.string().optional(),
  videoUrl: z.string().optional(),
  permalink: z.string().optional().describe("The post's public link."),
  mediaUrl: z.string().optional().describe("The service's own address of the post's image or video (its CDN; never the URL given)."),
  shortcode: z.string().optional().describe("The post's short code, the last part of its permalink."),
  timestamp: z.string().optional().describe("When it was published."),
  username: z.string().optional().describe("The account that published it."),
  allowRepublish: z.boolean().optional().describe("Whether a change may republish the post (replace it)."),
  altText: z.string().optional(),
  children: z
    .array(
      z.object({ mediaType: z.string(), imageUrl: z.string().optional(), videoUrl: z.string().optional(), altText: z.string().optional() }),
    )
    .optional(),
  replyControl: z.string().optional(),
  topicTag: z.string().optional(),
  linkAttachment: z.string().optional(),
  quotePostId: z.string().optional(),
  pollAttachment: z
    .object({ optionA: z.string(), optionB: z.string(), optionC: z.string().optional(), optionD: z.string().optional() })
    .optional(),
  replyTo: z.string().optional(),
  textAttachment: z.object({ text: z.string(), link: z.string().optional() }).optional(),
  textSpoilers: z.array(z.object({ offset: z.number(), length: z.number() })).optional(),
  spoilerMedia: z.boolean().optional(),
  childIds: z.array(z.string()).optional().describe("The carousel's items' media ids, in order (CAROUSEL posts)."),
  postId: z
    .string()
    .optional()
    .describe(
      "The post's id. Equal to the resource's id, except for a post whose publish answer was lost: its resource keeps the `pending-…` id until the next `pulumi refresh`.",
    ),
});
export type PostInputs = z.output<typeof PostInputs>;
export type PostOutputs = z.infer<typeof PostOutputs>;

/**
 * The class's doc comment in the TypeScript SDK (scripts/gen-sdk-classes.ts writes it, whitespace folded, above the
 * example below): what the resource is for and how it behaves.
 */
export const classDoc = `
  A published short post (the Threads API). Created as a container at \`/me/threads\`, published once its media is
  processed (looked at once a minute by default, ops:postsStatusPollSeconds, within ops:postsPublishTimeoutSeconds).
  The account may publish 250 posts per 24 hours: a preview that would go over it fails, saying when quota frees up.
  Counts are not outputs: \`ops.posts.getPostInsights\`. Any change replaces it; destroy deletes it (the service
  allows 100 deletions per account per day). A reply (\`replyTo\`) is published after the post it answers and deleted
  before it; replies have a quota of their own (1,000 a day). \`ops.posts.Thread\` publishes a list of texts as a chain.`;

/**
 * The example of the reference and of the class's doc comment, in every language (scripts/example-render.ts), run
 * by the tests against the emulators' seeds.
 */
export const example: Example = {
  before: [{ token: "ops:posts:Post", name: "hello", args: { mediaType: "TEXT", text: "Fresh bread at 7." } }],
  // A thread is a post and its replies, each to the one before (the TypeScript SDK's ops.posts.Thread chains them).
  step: { name: "rye", args: { text: "Rye on Fridays.", replyTo: ref("hello.id") } },
};

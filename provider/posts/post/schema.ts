/** `ops.posts.Post`: a published short post (text, image or video). Any change replaces it. */
import { z } from "zod";
import { ruleFailure } from "../../check";

/** The service's count (Threads API, "Posts" limitations): an emoji counts as its UTF-8 bytes, any other character as one. */
export function countedLength(text: string): number {
  return [...text].reduce((n, ch) => n + (/\p{Extended_Pictographic}/u.test(ch) ? Buffer.byteLength(ch) : 1), 0);
}
/** Distinct URLs in the text: the service refuses a post with more than 5 (THREADS_API__LINK_LIMIT_EXCEEDED, since 2025-12-22). */
export function distinctLinks(text: string): number {
  return new Set(text.match(/\b(?:https?:\/\/|www\.)\S+/gi) ?? []).size;
}

export const token = "posts:Post";
export const MEDIA_TYPES = ["TEXT", "IMAGE", "VIDEO"] as const;
const HttpUrl = z.url({ protocol: /^https?$/, error: "must be a public http(s) URL" });

export const PostInputs = z
  .object({
    mediaType: z.enum(MEDIA_TYPES, { error: "mediaType must be TEXT, IMAGE or VIDEO" }).default("TEXT").meta({ replaceOnChanges: true }).describe("What the post carries: text alone, an image (`imageUrl`) or a video (`videoUrl`)."),
    text: z
      .string()
      .refine((t) => countedLength(t) <= 500, { error: (i) => `text must be at most 500 characters as the service counts them (an emoji counts as its UTF-8 bytes, 4 for most): this one counts ${countedLength(String(i.input))}` })
      .refine((t) => distinctLinks(t) <= 5, { error: "text may contain at most 5 distinct links: the service refuses more" })
      .refine((t) => t.trim().length > 0, { error: "text must not be blank (only spaces or line breaks): write the post's text" })
      .optional()
      .describe("The post's text: at most 500 characters (an emoji counts as its UTF-8 bytes) and 5 distinct links.")
      .meta({ replaceOnChanges: true }),
    imageUrl: HttpUrl.optional().describe("A public image (under 8 MB) for IMAGE posts.").meta({ replaceOnChanges: true }),
    videoUrl: HttpUrl.optional().describe("A public video (at most 1 GB and 5 minutes) for VIDEO posts.").meta({ replaceOnChanges: true }),
    allowRepublish: z
      .boolean()
      .default(false)
      .describe("A published post cannot be edited: a change of its text or media replaces it — a new post is published and this one deleted, with its likes, replies and views, spending one of the day's publishes and one of its deletes. Such a change fails the preview unless this is true (the preview then says what the post has that goes)."),
  })
  .superRefine((p, ctx) => {
    if (p.mediaType === "TEXT" && !p.text) ruleFailure(ctx, "text", "a TEXT post needs text", ["mediaType"]);
    if (p.mediaType === "IMAGE" && !p.imageUrl) ruleFailure(ctx, "imageUrl", "an IMAGE post needs imageUrl", ["mediaType"]);
    if (p.mediaType === "VIDEO" && !p.videoUrl) ruleFailure(ctx, "videoUrl", "a VIDEO post needs videoUrl", ["mediaType"]);
    if (p.mediaType !== "IMAGE" && p.imageUrl) ruleFailure(ctx, "imageUrl", `imageUrl is for IMAGE posts: remove it or set mediaType IMAGE`, ["mediaType"]);
    if (p.mediaType !== "VIDEO" && p.videoUrl) ruleFailure(ctx, "videoUrl", `videoUrl is for VIDEO posts: remove it or set mediaType VIDEO`, ["mediaType"]);
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
  postId: z.string().optional().describe("The post's id. Equal to the resource's id, except for a post whose publish answer was lost: its resource keeps the `pending-…` id until the next `pulumi refresh`."),
});

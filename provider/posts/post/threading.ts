/**
 * What a post carries since 2025 besides its media (Threads API, "Text attachments" and "Spoilers"): long text under
 * a text post, and spoilers over ranges of its text or over its media; with the rules the documents state.
 */
import { z } from "zod";
import { ruleFailure } from "../../check";
import { distinctLinks, HttpUrl, LIMITS } from "./limits";

export const TextAttachment = z
  .object({
    text: z
      .string()
      .refine((t) => t.trim().length > 0, { error: "textAttachment.text must not be blank: write the long text, or remove textAttachment" })
      .refine((t) => [...t].length <= LIMITS.attachedText, {
        error: (i) =>
          `textAttachment.text must be at most ${LIMITS.attachedText} characters: this one has ${[...String(i.input)].length}; split it over replies`,
      })
      .describe(`The long text shown under the post: up to ${LIMITS.attachedText.toLocaleString("en")} characters.`),
    link: HttpUrl.optional().describe("A link shown with it (counted in the post's five links unless the text has it already)."),
  })
  .describe("Long-form text under a TEXT post, with an optional link (the service's `text_attachment`).");

export const TextSpoiler = z
  .object({
    offset: z
      .int({ error: "a spoiler's offset must be a whole number" })
      .min(0)
      .describe("Where the hidden part starts: characters from the start of `text`."),
    length: z.int({ error: "a spoiler's length must be a whole number" }).min(1).describe("How many characters are hidden."),
  })
  .describe("A range of the post's text hidden until a reader taps it.");

/** Text attachments and spoilers as "Text attachments" and "Spoilers" of the Threads API document them. */
export function threadingRules(
  p: {
    mediaType: string;
    text?: string;
    linkAttachment?: string;
    pollAttachment?: object;
    textAttachment?: z.output<typeof TextAttachment>;
    textSpoilers?: z.output<typeof TextSpoiler>[];
    spoilerMedia?: boolean;
  },
  ctx: z.RefinementCtx,
): void {
  const a = p.textAttachment;
  if (a && p.mediaType !== "TEXT")
    ruleFailure(ctx, "textAttachment", "textAttachment is for TEXT posts: the service attaches long text to text-only posts", [
      "mediaType",
    ]);
  if (a && p.pollAttachment)
    ruleFailure(ctx, "textAttachment", "a post carries a poll or a text attachment, not both: remove one", ["pollAttachment"]);
  if (a?.link && p.linkAttachment)
    ruleFailure(ctx, "textAttachment", "a post with linkAttachment cannot have a link in its textAttachment: remove one", [
      "linkAttachment",
    ]);
  const links = distinctLinks(`${p.text ?? ""} ${a?.link ?? ""}`);
  if (a?.link && links > 5 && distinctLinks(p.text ?? "") <= 5)
    ruleFailure(ctx, "textAttachment", `the text and textAttachment.link make ${links} distinct links: the service refuses more than 5`);
  if (p.spoilerMedia === true && !["IMAGE", "VIDEO", "CAROUSEL"].includes(p.mediaType))
    ruleFailure(ctx, "spoilerMedia", "spoilerMedia is for IMAGE, VIDEO and CAROUSEL posts: hide text with textSpoilers", ["mediaType"]);
  // The documents give no unit for offsets; Meta's sample app counts UTF-16 code units, the longer count, so only a
  // range past that is surely refused.
  const length = (p.text ?? "").length;
  p.textSpoilers?.forEach((r, i) => {
    if (r.offset + r.length > length)
      ruleFailure(
        ctx,
        "textSpoilers",
        `textSpoilers[${i}] (offset ${r.offset}, length ${r.length}) reaches past the text's ${length} characters: a spoiler hides part of text`,
        ["text"], // an unknown text (a preview) is not judged
      );
  });
}

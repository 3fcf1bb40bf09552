/**
 * `ops.pages.PagePost`: a text, link or photo post on a page, published now, scheduled (10 minutes to 75 days
 * ahead, with `published: false`) or kept as a draft.
 */
import { existsSync } from "node:fs";
import * as path from "node:path";
import { z } from "zod";
import { ruleFailure } from "../../check";
import { GraphId } from "../page-role/schema";
import type { Example } from "../../doc-example";

export const token = "pages:PagePost";
export const MIN_AHEAD_S = 10 * 60;
export const MAX_AHEAD_S = 75 * 24 * 3600;

const HttpUrl = z.url({ protocol: /^https?$/, error: "must be an http(s) URL" });

/**
 * A span of seconds as a person says it: "3 minutes", "2 hours", "4 days", "2 years"; under an hour with its
 * seconds ("4 minutes 59 seconds"), where a whole-minute figure would mislead next to a 10-minute limit.
 */
function span(seconds: number): string {
  const units: [number, string][] = [
    [365 * 86400, "year"],
    [86400, "day"],
    [3600, "hour"],
    [60, "minute"],
    [1, "second"],
  ];
  const [size, name] = units.find(([u]) => seconds >= u) ?? [1, "second"];
  const n = Math.floor(seconds / size);
  const said = `${n} ${name}${n === 1 ? "" : "s"}`;
  const rest = seconds % 60;
  return size === 60 && rest ? `${said} ${rest} second${rest === 1 ? "" : "s"}` : said;
}

/** Unix seconds from a number or an RFC 3339 time. */
export function unixSeconds(v: number | string): number {
  return typeof v === "number" ? v : Math.floor(Date.parse(v) / 1000);
}

export const PagePostInputs = z
  .object({
    pageId: GraphId("pageId").describe("The page. Changing it replaces the post.").meta({ replaceOnChanges: true }),
    message: z
      .string()
      .max(63206, "message must be at most 63206 characters")
      .refine((m) => m.trim().length > 0, {
        error: "message must not be blank (only spaces or line breaks): write the text, or leave message out for a link or photo post",
      })
      .optional()
      .describe("The text; edits are made in place."),
    link: HttpUrl.optional().describe("A link to share. Changing it replaces the post.").meta({ replaceOnChanges: true }),
    published: z
      .boolean()
      .default(true)
      .describe("Publish now (true), or schedule/keep as a draft (false). Changing it replaces the post.")
      .meta({ replaceOnChanges: true }),
    scheduledPublishTime: z
      .union([z.number().int(), z.iso.datetime({ offset: true, error: "scheduledPublishTime must be Unix seconds or an RFC 3339 time" })])
      .optional()
      .describe(
        "When to publish: Unix seconds or an RFC 3339 time, 10 minutes to 75 days ahead; needs published false. Compared as an instant (`…11:00:00+01:00` is `…10:00:00Z`). A new time moves a post still scheduled in place; once the post has gone out, a new time changes nothing. Adding or removing a schedule replaces the post.",
      ),
    photo: z
      .object({
        url: HttpUrl.optional().describe("An image on the web, fetched by the service."),
        file: z.string().optional().describe("A local image, sent as `source`."),
      })
      .optional()
      .describe("One photo, by public `url` or local `file`; `message` becomes its caption. Changing it replaces the post.")
      .meta({ replaceOnChanges: true }),
    photos: z
      .array(HttpUrl)
      .min(2, "photos is for several photos; use photo for one")
      .max(10, "at most 10 photos")
      .optional()
      .describe("Several photos by URL, attached to one post. Changing them replaces the post.")
      .meta({ replaceOnChanges: true }),
  })
  .superRefine((p, ctx) => {
    if (!p.message && !p.link && !p.photo && !p.photos)
      ruleFailure(ctx, "message", "a post needs a message, a link, a photo or photos", ["link", "photo", "photos"]);
    if (p.photo && p.photos) ruleFailure(ctx, "photos", "give photo or photos, not both", ["photo"]);
    if (p.photo && !p.photo.url === !p.photo.file) ruleFailure(ctx, "photo", "photo takes exactly one of url and file");
    if (p.photo?.file && !existsSync(path.resolve(p.photo.file))) ruleFailure(ctx, "photo", `photo.file ${p.photo.file} does not exist`);
    if (p.scheduledPublishTime !== undefined && p.published) {
      ruleFailure(ctx, "published", "a scheduled post needs published: false", ["scheduledPublishTime"]);
    }
  });
export type PagePostInputs = z.output<typeof PagePostInputs>;

/** The schedule window, checked only for a new or changed time (a scheduled post's time draws nearer every day). */
export function scheduleProblem(at: number | string, nowMs = Date.now()): string | undefined {
  // Milliseconds (Date.now(), getTime()) are the usual slip: 13 digits where Unix seconds have 10.
  if (typeof at === "number" && at > 1e11) {
    return `scheduledPublishTime ${at} looks like milliseconds: give Unix seconds (${Math.floor(at / 1000)}, ${new Date(at).toISOString()}) or an RFC 3339 time`;
  }
  const when = unixSeconds(at);
  const ahead = when - Math.floor(nowMs / 1000);
  if (!Number.isFinite(ahead)) return "scheduledPublishTime is not a time";
  const iso = new Date(when * 1000).toISOString().replace(/\.000Z$/, "Z");
  if (ahead <= 0) return `scheduledPublishTime ${iso} is ${span(-ahead)} in the past: a post is scheduled 10 minutes to 75 days ahead`;
  if (ahead < MIN_AHEAD_S) return `scheduledPublishTime ${iso} is only ${span(ahead)} ahead: it must be at least 10 minutes ahead`;
  if (ahead > MAX_AHEAD_S) return `scheduledPublishTime ${iso} is ${span(ahead)} ahead: it must be at most 75 days ahead`;
  return undefined;
}

/**
 * A new time that passes today but may not by the time the change is applied (a pull request previewed now, merged
 * later): within the service's lead (10 minutes) plus `marginMinutes` of now. Undefined when it is further ahead.
 */
export function scheduleTooSoon(at: number | string, marginMinutes: number, nowMs = Date.now()): string | undefined {
  const ahead = unixSeconds(at) - Math.floor(nowMs / 1000);
  if (!Number.isFinite(ahead) || ahead < MIN_AHEAD_S || ahead >= MIN_AHEAD_S + marginMinutes * 60) return undefined;
  const iso = new Date(unixSeconds(at) * 1000).toISOString().replace(/\.000Z$/, "Z");
  return `scheduledPublishTime ${iso} is ${span(ahead)} ahead: the service takes a time at least 10 minutes ahead when the up runs, so an up more than ${span(ahead - MIN_AHEAD_S)} from now (after review and merge) is refused; schedule it later, or lower ops:pagesScheduleMarginMinutes (${marginMinutes}) if the up follows at once`;
}

export const PagePostOutputs = z.object({
  pageId: z.string(),
  message: z.string().optional(),
  link: z.string().optional(),
  published: z.boolean(),
  scheduledPublishTime: z.union([z.number(), z.string()]).optional(),
  photo: z.object({ url: z.string().optional(), file: z.string().optional() }).optional(),
  photos: z.array(z.string()).optional(),
  state: z
    .enum(["published", "scheduled", "draft"])
    .describe("What the post is now; refresh keeps it current (a scheduled post becomes published)."),
  createdTime: z.string().optional().describe("When the post was made."),
  postId: z
    .string()
    .optional()
    .describe(
      "The post's id on the page (`<pageId>_<postId>`). Equal to the resource's id, except for a post whose create answer was lost: its resource keeps the `pending-…` id until the next `pulumi refresh`.",
    ),
});
export type PagePostOutputs = z.infer<typeof PagePostOutputs>;

/**
 * The class's doc comment in the TypeScript SDK (scripts/gen-sdk-classes.ts writes it, whitespace folded, above the
 * example below): what the resource is for and how it behaves.
 */
export const classDoc = `
  A post on a page: text, a link, one photo (\`photo.url\` or a local \`photo.file\`) or several (\`photos\`);
  published now, scheduled (\`published: false\` and \`scheduledPublishTime\` 10 minutes to 75 days ahead) or a draft.
  Message edits are made in place; \`state\` follows the post (a scheduled post becomes published); destroy deletes
  it.`;

/**
 * The example of the reference and of the class's doc comment, in every language (scripts/example-render.ts), run
 * by the tests against the emulators' seeds.
 */
export const example: Example = { step: { name: "launch", args: { pageId: "200000000000001", message: "We open at 7!" } } };

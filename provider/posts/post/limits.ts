/** How the short-post service counts and limits a post, as the Threads API documents it. */
import { z } from "zod";

/** A media or link URL as a container takes it: public http(s). */
export const HttpUrl = z.url({ protocol: /^https?$/, error: "must be a public http(s) URL" });

/** The service's count (Threads API, "Posts" limitations): an emoji counts as its UTF-8 bytes, any other character as one. */
export function countedLength(text: string): number {
  return [...text].reduce((n, ch) => n + (/\p{Extended_Pictographic}/u.test(ch) ? Buffer.byteLength(ch) : 1), 0);
}
/** Distinct URLs in the text: the service refuses a post with more than 5 (THREADS_API__LINK_LIMIT_EXCEEDED, since 2025-12-22). */
export function distinctLinks(text: string): number {
  return new Set(text.match(/\b(?:https?:\/\/|www\.)\S+/gi) ?? []).size;
}

/** The service's limits on a container (Threads API "Posts", "Carousels", "Polls", "Topic tags" and "Alt text"). */
export const LIMITS = {
  altText: 1000,
  topicTag: 50,
  pollOption: 25,
  carouselMin: 2,
  carouselMax: 20,
  /** "Text attachments": up to 10,000 characters; "Spoilers": at most 10 text spoilers a post. */
  attachedText: 10_000,
  textSpoilers: 10,
} as const;

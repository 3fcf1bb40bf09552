/**
 * How the short-post service counts a post's text (Threads API, "Posts" limitations): at most 500 characters,
 * an emoji counting as its UTF-8 bytes; and at most 5 links, each distinct URL in the text counting once.
 */
const EMOJI = /\p{Extended_Pictographic}/u;

export function postLength(text: string): number {
  let n = 0;
  for (const ch of text) n += EMOJI.test(ch) ? new TextEncoder().encode(ch).length : 1;
  return n;
}

export function linkCount(text: string): number {
  return new Set(text.match(/\b(?:https?:\/\/|www\.)[^\s]+/gi) ?? []).size;
}

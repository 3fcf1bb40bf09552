/** A post as the service answers it (`GET /{media}`, a listing's items): only the fields asked for, and its id. */
import type { Post } from "./media";
import { DAY, OTHER, USER } from "./seed";

/** `hasReplies`: whether any post replies to this one (the service's `has_replies`). */
export function mediaView(p: Post, fields: string[], hasReplies = false): Record<string, unknown> {
  const cdn =
    p.media_type === "TEXT" || p.media_type === "CAROUSEL"
      ? undefined
      : `https://scontent.cdninstagram.com/v/t51.2885-15/${p.id}_n.${p.media_type === "IMAGE" ? "jpg" : "mp4"}?_nc_ht=scontent.cdninstagram.com`;
  const all: Record<string, unknown> = {
    id: p.id,
    media_product_type: "THREADS",
    media_type: p.media_type === "TEXT" ? "TEXT_POST" : p.media_type === "CAROUSEL" ? "CAROUSEL_ALBUM" : p.media_type,
    media_url: cdn,
    permalink: `https://www.threads.com/@${(p.owner ?? USER.id) === USER.id ? USER.username : OTHER.username}/post/${p.shortcode}`,
    owner: { id: p.owner ?? USER.id },
    username: (p.owner ?? USER.id) === USER.id ? USER.username : OTHER.username,
    text: p.text,
    timestamp: new Date(p.timestamp).toISOString().replace(/\.\d+Z$/, "+0000"),
    shortcode: p.shortcode,
    thumbnail_url: p.media_type === "VIDEO" ? cdn?.replace(".mp4", ".jpg") : undefined,
    is_quote_post: p.quoted_post !== undefined,
    quoted_post: p.quoted_post,
    has_replies: hasReplies,
    is_reply: p.replied_to !== undefined,
    replied_to: p.replied_to ? { id: p.replied_to } : undefined,
    root_post: p.root_post ? { id: p.root_post } : undefined,
    is_reply_owned_by_me: p.replied_to !== undefined ? true : undefined,
    text_attachment: p.text_attachment,
    text_entities: p.text_entities,
    is_spoiler_media: p.is_spoiler_media,
    hide_status: "NOT_HUSHED",
    reply_audience: p.reply_audience ?? "EVERYONE",
    alt_text: p.alt_text,
    topic_tag: p.topic_tag,
    link_attachment_url: p.link_attachment_url,
    children: p.children ? { data: p.children.map((id) => ({ id })) } : undefined,
    poll_attachment: p.poll
      ? { ...p.poll, total_votes: 0, expiration_timestamp: new Date(p.timestamp + DAY).toISOString().replace(/\.\d+Z$/, "+0000") }
      : undefined,
  };
  return Object.fromEntries(
    fields
      .filter((f) => all[f] !== undefined)
      .map((f) => [f, all[f]])
      .concat([["id", p.id]]),
  );
}

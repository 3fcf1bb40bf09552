/**
 * Publishing on the short-post service, as the Threads API does it in two steps: a container made at
 * `POST /{user}/threads` (a text, an image, a video or a carousel of them, with its attachments: alt text, a link, a
 * topic, a poll, a quote, who may reply), processed for a few seconds, then published at `/{user}/threads_publish`
 * within the account's quota of 250 per 24 hours. Refusals carry the service's codes and words.
 */
import { graphError, listParam, ok, params } from "../graph";
import type { Reply, Request } from "../kit";
import { mediaProblem, REPLY_CONTROLS, type Attachments, type Container, type MediaType, type Post } from "./media";
import { PUBLISH_QUOTA, REPLY_QUOTA, T } from "./seed";
import type { PostsEmulator } from "./server";
import { linkCount, postLength } from "./text";
import { attachmentLink, replyTo, longText, spoilers } from "./threading";

export function createContainer(posts: PostsEmulator, req: Request): Reply {
  posts.user(req);
  const p = params(req);
  const type = p.media_type as MediaType;
  if (!["TEXT", "IMAGE", "VIDEO", "CAROUSEL"].includes(type))
    graphError(400, 100, "(#100) Param media_type must be one of {TEXT, IMAGE, VIDEO, CAROUSEL}", T);
  // A boolean as clients send one ("true", or Python's "True" through urlencode, as pythreads does).
  const item = /^true$/i.test(p.is_carousel_item ?? "");
  if (item && (type === "TEXT" || type === "CAROUSEL"))
    graphError(400, 100, "(#100) Param is_carousel_item is only for IMAGE and VIDEO containers", T);
  if (p.text && postLength(p.text) > 500)
    graphError(400, 100, "(#100) Param text must be at most 500 characters long (emojis count as their UTF-8 bytes)", T);
  // The link of a text attachment counts unless the text has it already (Threads API, "Text attachments").
  if (linkCount(`${p.text ?? ""} ${attachmentLink(p.text_attachment)}`) > 5)
    graphError(400, 100, "THREADS_API__LINK_LIMIT_EXCEEDED: a post may contain at most 5 links", T, 4279030);
  if (type === "TEXT" && !p.text) graphError(400, 100, "(#100) Param text is required for media_type TEXT", T);
  const url = type === "IMAGE" ? p.image_url : type === "VIDEO" ? p.video_url : undefined;
  if ((type === "IMAGE" || type === "VIDEO") && !url)
    graphError(400, 100, `(#100) Param ${type.toLowerCase()}_url is required for media_type ${type}`, T);
  const extra = attachments(posts, req, p, type, item);
  const processingMs = type === "TEXT" ? 0 : (posts.processingMs ?? 2000 + Math.floor(Math.random() * 3001));
  const c: Container = {
    id: posts.nextId(),
    media_type: type,
    carouselItem: item || undefined,
    text: p.text,
    media_url: url,
    createdAt: posts.now(),
    processingMs,
    error: url ? mediaProblem(type, url) : undefined,
    ...extra,
  };
  posts.containers.set(c.id, c);
  return ok({ id: c.id });
}

/** The container's fields besides its media, checked as the service documents them. */
function attachments(posts: PostsEmulator, req: Request, p: Record<string, string>, type: MediaType, item: boolean): Attachments {
  const out: Attachments = {};
  if (p.alt_text !== undefined) {
    if (type !== "IMAGE" && type !== "VIDEO") graphError(400, 100, "(#100) Param alt_text is only for IMAGE and VIDEO media", T);
    if ([...p.alt_text].length > 1000) graphError(400, 100, "(#100) Param alt_text must be at most 1000 characters long", T);
    out.alt_text = p.alt_text;
  }
  if (p.reply_control !== undefined) {
    if (!REPLY_CONTROLS.includes(p.reply_control))
      graphError(400, 100, `(#100) Param reply_control must be one of {${REPLY_CONTROLS.join(", ")}}`, T);
    out.reply_audience = p.reply_control.toUpperCase();
  }
  if (p.topic_tag !== undefined) {
    if (p.topic_tag.length < 1 || [...p.topic_tag].length > 50 || /[.&]/.test(p.topic_tag))
      graphError(400, 100, "(#100) Param topic_tag must be 1 to 50 characters and contain no periods (.) or ampersands (&)", T);
    out.topic_tag = p.topic_tag;
  }
  if (p.link_attachment !== undefined) {
    if (type !== "TEXT") graphError(400, 100, "(#100) Param link_attachment is only for TEXT posts", T);
    out.link_attachment_url = p.link_attachment;
  }
  if (p.quote_post_id !== undefined) {
    const quoted = posts.posts.get(p.quote_post_id);
    if (!quoted || quoted.carouselItem)
      graphError(400, 100, `(#100) Param quote_post_id must be the id of a post that exists: ${p.quote_post_id} is not`, T);
    out.quoted_post = quoted.id;
  }
  if (p.poll_attachment !== undefined) out.poll = poll(posts, p.poll_attachment, type);
  Object.assign(out, replyTo(posts, p.reply_to_id), longText(p, type), spoilers(p, type));
  if (type === "CAROUSEL") out.children = carouselChildren(posts, req, p.children);
  else if (p.children !== undefined) graphError(400, 100, "(#100) Param children is only for CAROUSEL containers", T);
  return out;
}

function poll(posts: PostsEmulator, raw: string, type: MediaType): Record<string, string> {
  if (type !== "TEXT") graphError(400, 100, "(#100) Param poll_attachment is only for TEXT posts", T);
  let poll: Record<string, unknown>;
  try {
    poll = JSON.parse(raw);
  } catch {
    return graphError(400, 100, "(#100) Param poll_attachment must be a JSON object", T);
  }
  const keys = Object.keys(poll);
  const allowed = ["option_a", "option_b", "option_c", "option_d"];
  const given = allowed.filter((k) => poll[k] !== undefined);
  if (keys.some((k) => !allowed.includes(k)) || given.length < 2 || !given.every((k, i) => k === allowed[i]))
    graphError(400, 100, "(#100) Param poll_attachment must have option_a and option_b, and optionally option_c and option_d", T);
  if (given.some((k) => typeof poll[k] !== "string" || (poll[k] as string).length < 1 || [...(poll[k] as string)].length > 25))
    graphError(400, 100, "(#100) Param poll_attachment: each option must be 1 to 25 characters long", T);
  return Object.fromEntries(given.map((k) => [k, poll[k] as string]));
}

/** A carousel's items: 2 to 20 of this account's carousel-item containers, each FINISHED. */
function carouselChildren(posts: PostsEmulator, req: Request, raw: string | undefined): string[] {
  const ids = listParam(raw);
  if (ids.length < 2 || ids.length > 20)
    graphError(400, 100, "(#100) Param children must list 2 to 20 carousel item containers", T, 4279015);
  for (const id of ids) {
    const c = posts.containers.get(id);
    if (!c || !c.carouselItem)
      graphError(400, 100, `(#100) Param children: ${id} is not a carousel item container (create it with is_carousel_item=true)`, T);
    const status = posts.status(c);
    if (status !== "FINISHED")
      graphError(400, 24, `Media Not Found: carousel item ${id} is ${status}, wait for it to be FINISHED`, T, 4279009);
  }
  void req;
  return ids;
}

export function publish(posts: PostsEmulator, req: Request): Reply {
  posts.user(req);
  const c =
    posts.containers.get(params(req).creation_id ?? "") ??
    graphError(400, 100, "(#100) Param creation_id must be a valid media container id", T);
  const status = posts.status(c);
  if (status === "IN_PROGRESS")
    graphError(
      400,
      24,
      "Media Not Found: the media is not ready to be published, wait for the container's status to be FINISHED",
      T,
      4279009,
    );
  if (status === "ERROR") graphError(400, 24, `The media could not be processed: ${c.error}`, T, 4279017);
  if (status === "EXPIRED") graphError(400, 24, "The container expired: it was not published within 24 hours", T, 4279008);
  if (status === "PUBLISHED") graphError(400, 100, "(#100) The container was already published", T);
  if (c.carouselItem) graphError(400, 100, "(#100) A carousel item is published through its CAROUSEL container", T);
  if (posts.transientPublishFailures > 0) {
    posts.transientPublishFailures--;
    graphError(400, 24, "Media Not Found", T, 4279009);
  }
  const reply = c.replied_to !== undefined;
  if (reply && posts.quotaUsed(posts.caller.id, true) >= REPLY_QUOTA)
    graphError(400, 4, `Application request limit reached: at most ${REPLY_QUOTA} replies per 24 hours`, T, 2207042);
  if (!reply && posts.quotaUsed(posts.caller.id) >= PUBLISH_QUOTA)
    graphError(400, 4, `Application request limit reached: at most ${PUBLISH_QUOTA} posts per 24 hours`, T, 2207042);
  const { id: _i, createdAt: _c, processingMs: _p, error: _e, postId: _o, media_url: _m, carouselItem: _ci, children, ...attached } = c;
  const made = (from: Container, extra: Partial<Post>): Post => ({
    ...extra,
    id: posts.nextId(),
    owner: posts.caller.id,
    media_type: from.media_type,
    source_url: from.media_url,
    timestamp: posts.now(),
    shortcode: `C${Number(posts.counter).toString(36).padStart(10, "x")}`,
    views: 0,
    likes: 0,
  });
  // A carousel's items become media of their own, shown through it.
  const items = (children ?? []).map((id) => {
    const child = posts.containers.get(id)!;
    const m = made(child, { carouselItem: true, alt_text: child.alt_text });
    child.postId = m.id;
    posts.posts.set(m.id, m);
    return m.id;
  });
  const post: Post = made(c, { ...attached, ...(children ? { children: items } : {}) });
  posts.posts.set(post.id, post);
  posts.publishes.push({ id: post.id, owner: posts.caller.id, at: post.timestamp, reply });
  c.postId = post.id;
  return ok({ id: post.id });
}

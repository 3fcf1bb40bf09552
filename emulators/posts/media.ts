/**
 * What the short-post service keeps and answers: containers and posts with their attachments, the fields a post and
 * a user have (any other refused with `(#100)`), and the media a container may point at.
 */
import { graphError } from "../graph";
import { T } from "./seed";

export type Status = "IN_PROGRESS" | "FINISHED" | "ERROR" | "EXPIRED" | "PUBLISHED";

export type MediaType = "TEXT" | "IMAGE" | "VIDEO" | "CAROUSEL";

/** What a container carries besides its media, kept on the post it becomes. */
export interface Attachments {
  alt_text?: string;
  reply_audience?: string;
  topic_tag?: string;
  link_attachment_url?: string;
  quoted_post?: string;
  poll?: Record<string, string>;
  /** A carousel's items (posts of their own, shown only through the carousel). */
  children?: string[];
  /** The post this one replies to (`reply_to_id`), and the top of its thread. */
  replied_to?: string;
  root_post?: string;
  /** Long text under a text post (`text_attachment`): up to 10,000 characters and a link. */
  text_attachment?: { plaintext: string; link_attachment_url?: string };
  /** Ranges of the text hidden as spoilers (`text_entities`), and whether the media is hidden (`is_spoiler_media`). */
  text_entities?: { entity_type: "SPOILER"; offset: number; length: number }[];
  is_spoiler_media?: boolean;
}

export interface Container extends Attachments {
  id: string;
  media_type: MediaType;
  /** An item of a carousel: published only through a CAROUSEL container. */
  carouselItem?: boolean;
  text?: string;
  media_url?: string;
  createdAt: number;
  /** How long this container is IN_PROGRESS. */
  processingMs: number;
  error?: string;
  postId?: string;
}

export interface Post extends Attachments {
  id: string;
  /** The account that published it (the first account's unless given). */
  owner?: string;
  media_type: MediaType;
  /** An item of a carousel: listed only through it. */
  carouselItem?: boolean;
  /** What the user gave; the service answers its own CDN address instead. */
  source_url?: string;
  text?: string;
  timestamp: number;
  shortcode: string;
  views: number;
  likes: number;
}

/** The fields a post has; any other is refused with `(#100) Tried accessing nonexisting field`. */
export const MEDIA_FIELDS = new Set([
  "id",
  "media_product_type",
  "media_type",
  "media_url",
  "permalink",
  "owner",
  "username",
  "text",
  "timestamp",
  "shortcode",
  "thumbnail_url",
  "children",
  "is_quote_post",
  "quoted_post",
  "has_replies",
  "is_reply",
  "replied_to",
  "root_post",
  "is_reply_owned_by_me",
  "text_attachment",
  "text_entities",
  "is_spoiler_media",
  "reposted_post",
  "location_id",
  "alt_text",
  "link_attachment_url",
  "topic_tag",
  "gif_url",
  "hide_status",
  "reply_audience",
  "poll_attachment",
]);
/** `reply_control` as a container takes it; a post answers it upper case as `reply_audience`. */
export const REPLY_CONTROLS = ["everyone", "accounts_you_follow", "mentioned_only", "parent_post_author_only", "followers_only"];
export const USER_FIELDS = new Set(["id", "username", "name", "threads_profile_picture_url", "threads_biography", "is_verified"]);
export const INSIGHT_METRICS = ["views", "likes", "replies", "reposts", "quotes", "shares"];

/** Media the emulator can "download": size and length come from the URL's query (`?bytes=`, `?seconds=`); host `unreachable.example` cannot be fetched. */
export function mediaProblem(type: string, url: string): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return `FAILED_DOWNLOADING_${type}`;
  }
  if (!/^https?:$/.test(u.protocol) || u.hostname === "unreachable.example")
    return `FAILED_DOWNLOADING_${type}: the media URL is not publicly reachable`;
  const bytes = Number(u.searchParams.get("bytes") ?? 200_000);
  const seconds = Number(u.searchParams.get("seconds") ?? 10);
  if (type === "IMAGE" && bytes >= 8 * 1024 * 1024) return "FAILED_PROCESSING_IMAGE: images must be under 8 MB";
  if (type === "VIDEO" && bytes >= 1024 * 1024 * 1024) return "FAILED_PROCESSING_VIDEO: videos must be under 1 GB";
  if (type === "VIDEO" && seconds > 300) return "INVALID_DURATION: videos must be at most 5 minutes";
  return undefined;
}

export function fieldList(raw: string | undefined, allowed: Set<string>, node: string, fallback: string): string[] {
  const fields = (raw ?? fallback)
    .split(",")
    .map((f) => f.trim())
    .filter(Boolean);
  const unknown = fields.find((f) => !allowed.has(f));
  if (unknown) graphError(400, 100, `(#100) Tried accessing nonexisting field (${unknown}) on node type (${node})`, T);
  return fields;
}

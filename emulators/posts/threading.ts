/**
 * What a container may carry besides its media since 2025: a reply to another post (`reply_to_id`, "Create
 * Replies"), a text attachment of up to 10,000 characters and a link ("Text attachments"), and spoilers over ranges
 * of the text or over its media ("Spoilers"); and the routes that read a thread back: a post's replies, its whole
 * conversation and the account's own replies (`/{media}/replies`, `/{media}/conversation`, `/{user}/replies`).
 */
import { graphError, ok, params } from "../graph";
import type { Reply, Request } from "../kit";
import { fieldList, MEDIA_FIELDS, type Attachments, type MediaType, type Post } from "./media";
import { mediaView } from "./media-view";
import { T, USER } from "./seed";
import type { PostsEmulator } from "./server";

function json(raw: string, param: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return graphError(400, 100, `(#100) Param ${param} must be JSON`, T);
  }
}

/** The link a text attachment carries, or "" (counted with the text's links). */
export function attachmentLink(raw: string | undefined): string {
  if (raw === undefined) return "";
  const a = json(raw, "text_attachment") as { link_attachment_url?: unknown };
  return typeof a?.link_attachment_url === "string" ? a.link_attachment_url : "";
}

/** A reply to a post this account may reply to: its own, or any reply in one of its own threads. */
export function replyTo(posts: PostsEmulator, id: string | undefined): Pick<Attachments, "replied_to" | "root_post"> {
  if (id === undefined) return {};
  const parent = posts.posts.get(id);
  if (!parent || parent.carouselItem)
    graphError(400, 100, `(#100) Param reply_to_id must be the id of a post that exists: ${id} is not`, T);
  const root = posts.posts.get(parent.root_post ?? parent.id);
  // A post with no owner is the first account's, as everywhere in this emulator.
  if ((root?.owner ?? USER.id) !== posts.caller.id)
    graphError(
      400,
      10,
      "(#10) Application does not have permission for this action: replying in another account's thread needs threads_keyword_search or threads_manage_mentions",
      T,
    );
  return { replied_to: parent.id, root_post: parent.root_post ?? parent.id };
}

/** `text_attachment`: a text post's long text (1 to 10,000 characters) and an optional link, never beside a poll. */
export function longText(p: Record<string, string>, type: MediaType): Pick<Attachments, "text_attachment"> {
  if (p.text_attachment === undefined) return {};
  if (type !== "TEXT") graphError(400, 100, "(#100) Param text_attachment is only for TEXT posts", T);
  if (p.poll_attachment !== undefined) graphError(400, 100, "(#100) A post cannot have both a poll and a text attachment", T);
  const a = json(p.text_attachment, "text_attachment") as Record<string, unknown>;
  const text = a?.plaintext;
  if (typeof text !== "string" || !text.trim() || [...text].length > 10_000)
    graphError(400, 100, "(#100) Param text_attachment.plaintext must be 1 to 10000 characters long", T);
  const link = a.link_attachment_url;
  if (link !== undefined && p.link_attachment !== undefined)
    graphError(400, 100, "(#100) A post with a link attachment cannot have a link in its text attachment", T);
  if (link !== undefined && (typeof link !== "string" || !/^https?:\/\//.test(link)))
    graphError(400, 100, "(#100) Param text_attachment.link_attachment_url must be a URL", T);
  return { text_attachment: { plaintext: text, ...(link !== undefined ? { link_attachment_url: link as string } : {}) } };
}

/** `text_entities` (at most 10 SPOILER ranges inside the text) and `is_spoiler_media` (images, videos, carousels). */
export function spoilers(p: Record<string, string>, type: MediaType): Pick<Attachments, "text_entities" | "is_spoiler_media"> {
  const out: Pick<Attachments, "text_entities" | "is_spoiler_media"> = {};
  if (p.text_entities !== undefined) {
    const list = json(p.text_entities, "text_entities");
    if (!Array.isArray(list)) return graphError(400, 100, "(#100) Param text_entities must be a list", T);
    if (list.length > 10) graphError(400, 100, "(#100) Param text_entities: at most 10 spoiler entities per post", T);
    const length = (p.text ?? "").length; // UTF-16 code units, as Meta's sample app counts offsets
    out.text_entities = list.map((e: Record<string, unknown>) => {
      // Meta's sample app sends offset and length as strings of digits: the service takes both.
      const whole = (v: unknown) => (typeof v === "string" && /^\d+$/.test(v) ? Number(v) : v);
      const [kind, offset, span] = [e?.entity_type, whole(e?.offset), whole(e?.length)];
      if (typeof kind !== "string" || kind.toUpperCase() !== "SPOILER")
        graphError(400, 100, "(#100) Param text_entities: entity_type must be SPOILER", T);
      if (!Number.isInteger(offset) || !Number.isInteger(span) || (offset as number) < 0 || (span as number) < 1)
        graphError(400, 100, "(#100) Param text_entities: offset and length must be whole numbers, length at least 1", T);
      if ((offset as number) + (span as number) > length)
        graphError(400, 100, "(#100) Param text_entities: a spoiler must lie within the text", T);
      return { entity_type: "SPOILER", offset: offset as number, length: span as number };
    });
  }
  if (p.is_spoiler_media !== undefined) {
    if (type !== "IMAGE" && type !== "VIDEO" && type !== "CAROUSEL")
      graphError(400, 100, "(#100) Param is_spoiler_media is only for IMAGE, VIDEO and CAROUSEL posts", T);
    out.is_spoiler_media = /^true$/i.test(p.is_spoiler_media);
  }
  return out;
}

/** Whether any post replies to `id`. */
export const hasReplies = (posts: PostsEmulator, id: string) => [...posts.posts.values()].some((x) => x.replied_to === id);

/** The routes that read replies: newest first unless `reverse=false` (the service's default is `reverse=true`). */
export function registerReplyRoutes(
  posts: PostsEmulator,
  route: (method: string, path: string, handler: (req: Request) => Reply) => void,
): void {
  const view = (req: Request, list: Post[]) => {
    const fields = fieldList(params(req).fields, MEDIA_FIELDS, "ThreadsMedia", "id");
    const ordered = list.sort((a, b) => a.timestamp - b.timestamp || a.id.localeCompare(b.id));
    if (!/^false$/i.test(params(req).reverse ?? "true")) ordered.reverse();
    return ok({ data: ordered.map((x) => mediaView(x, fields, hasReplies(posts, x.id))), paging: { cursors: {} } });
  };
  const all = () => [...posts.posts.values()];
  route("GET", "/v1.0/:id/replies", (req) => {
    if (req.params.id === "me" || req.params.id === posts.caller.id)
      return view(
        req,
        all().filter((x) => x.replied_to !== undefined && (x.owner ?? USER.id) === posts.caller.id),
      );
    const p = posts.visible(req, req.params.id);
    return view(
      req,
      all().filter((x) => x.replied_to === p.id),
    );
  });
  route("GET", "/v1.0/:id/conversation", (req) => {
    // Every reply below the post, at any depth, flattened.
    const below = new Set([posts.visible(req, req.params.id).id]);
    for (let grew = true; grew;) {
      grew = false;
      for (const x of all()) if (x.replied_to && below.has(x.replied_to) && !below.has(x.id)) grew = Boolean(below.add(x.id));
    }
    below.delete(req.params.id);
    return view(
      req,
      all().filter((x) => below.has(x.id)),
    );
  });
}

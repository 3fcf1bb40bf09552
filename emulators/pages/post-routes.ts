/**
 * A page's posts (the Graph API's Page Feed): published, scheduled (10 minutes to 75 days ahead) or unpublished, with
 * photos, a video, an event or a link; listed at `/posts`, `/scheduled_posts` and `/ads_posts`, each shown as asked.
 */
import type { Request } from "../kit";
import { graphError, ok, params } from "../graph";
import { needPage, type PageRoute } from "./access";
import type { PagePost, PagesEmulator } from "./server";

/** How far ahead a post may be scheduled, in seconds (the Page Post reference: 10 minutes to 75 days). */
export const MIN_AHEAD = 10 * 60;
export const MAX_AHEAD = 75 * 24 * 3600;

export function postView(emu: PagesEmulator, p: PagePost, fields?: string) {
  const state = emu.state(p);
  const all: Record<string, unknown> = {
    id: p.id,
    message: p.message,
    created_time: new Date(p.createdAt).toISOString().replace(/\.\d+Z$/, "+0000"),
    is_published: state === "published",
    scheduled_publish_time: p.scheduledAt !== undefined ? Math.floor(p.scheduledAt / 1000) : undefined,
    status_type: p.kind === "photo" ? "added_photos" : p.kind === "link" ? "shared_story" : "mobile_status_update",
    shares: { count: 0 },
    likes: { data: [], summary: { total_count: 0 } },
    comments: { data: [], summary: { total_count: 0 } },
    attachments: p.photos.length
      ? { data: p.photos.map((url) => ({ media: { image: { src: url } }, type: "photo" })) }
      : p.link
        ? { data: [{ unshimmed_url: p.link, url: `https://l.facebook.com/l.php?u=${encodeURIComponent(p.link)}`, type: "share" }] }
        : undefined,
    permalink_url: `https://www.facebook.com/${p.pageId}/posts/${p.id.split("_")[1]}`,
  };
  const wanted = (fields ?? "id,message,created_time").split(",").map((f) => f.split(/[.{]/)[0]);
  const removed = wanted.find((f) => ["link", "type", "caption", "name", "object_id", "source", "description"].includes(f));
  if (removed) graphError(400, 12, `(#12) ${removed} field is deprecated for versions v3.3 and higher`);
  return Object.fromEntries(
    wanted
      .filter((f) => all[f] !== undefined)
      .map((f) => [f, all[f]])
      .concat([["id", p.id]]),
  );
}

export function registerPostRoutes(emu: PagesEmulator, r: PageRoute): void {
  // Posts.
  const publish = (req: Request, kind: PagePost["kind"], photos: string[]) => {
    const page = needPage(emu, req, req.params.page, "pages_manage_posts", "CREATE_CONTENT");
    const p = params(req);
    if (p.message && p.message.length > 63206) graphError(400, 100, "(#100) message is too long");
    if (p.message && /\b(free money|click here now)\b/i.test(p.message))
      graphError(400, 368, "Content policy violation: the content looks spam-like or misleading", "OAuthException");
    const published = p.published === undefined ? true : p.published === "true";
    let scheduledAt: number | undefined;
    if (p.scheduled_publish_time !== undefined) {
      if (published) graphError(400, 100, "(#100) scheduled_publish_time needs published=false");
      const at = Number(p.scheduled_publish_time) * 1000;
      const ahead = (at - emu.now()) / 1000;
      if (!Number.isFinite(at) || ahead < MIN_AHEAD || ahead > MAX_AHEAD) {
        graphError(400, 100, "(#100) The specified scheduled publish time is invalid: it must be between 10 minutes and 75 days from now");
      }
      scheduledAt = at;
    }
    // Numeric, as the service's are: `<pageId>_<postId>`.
    const post: PagePost = {
      id: `${page.id}_${BigInt(`0x${emu.nextId().slice(0, 12)}`)}`,
      pageId: page.id,
      message: p.message,
      link: p.link,
      published,
      scheduledAt,
      createdAt: emu.now(),
      photos,
      kind,
    };
    emu.posts.set(post.id, post);
    return post;
  };
  r("POST", "/:page/feed", (req) => {
    const p = params(req);
    const attached = p.attached_media ? (JSON.parse(p.attached_media) as { media_fbid: string }[]) : [];
    const photos = attached.map(
      (m) =>
        emu.photos.get(m.media_fbid)?.url ??
        graphError(400, 100, `(#100) attached_media ${m.media_fbid} is not an unpublished photo of this page`),
    );
    if (!p.message && !p.link && !photos.length) graphError(400, 100, "(#100) A post needs a message, a link or attached_media");
    const post = publish(req, photos.length ? "photo" : p.link ? "link" : "status", photos);
    return ok({ id: post.id });
  });
  r("POST", "/:page/photos", (req) => {
    const p = params(req);
    let url = p.url;
    if (p.source) {
      // `source` is a file uploaded as multipart/form-data, as the service requires.
      const file = req.form?.source ? (JSON.parse(req.form.source) as { name: string; size: number }) : undefined;
      if (!file || !file.size) graphError(400, 324, "(#324) Requires upload file: source must be a file in a multipart/form-data body");
      if (file.size > 10 * 1024 * 1024) graphError(400, 100, "(#100) The photo is larger than 10 MB");
      url = `https://media.example/uploads/${emu.nextId().slice(0, 10)}-${file.name}`;
    }
    if (!url) graphError(400, 324, "(#324) Requires upload file: give url or source");
    if (p.url && !/^https?:\/\//.test(p.url)) graphError(400, 100, "(#100) url must be a public http(s) URL");
    if (p.published === "false" && p.scheduled_publish_time === undefined) {
      needPage(emu, req, req.params.page, "pages_manage_posts", "CREATE_CONTENT");
      const id = emu.nextId().slice(0, 15);
      emu.photos.set(id, { id, pageId: req.params.page, url: url!, caption: p.caption });
      return ok({ id });
    }
    const post = publish(
      { ...req, rawBody: "", form: undefined, query: new URLSearchParams({ ...p, source: "", message: p.caption ?? "" }) },
      "photo",
      [url!],
    );
    const id = emu.nextId().slice(0, 15);
    emu.photos.set(id, { id, pageId: req.params.page, url: url!, caption: p.caption, postId: post.id });
    // The service does not always say the post's id: then it is the photo's `page_story_id`.
    return ok(emu.photoAnswersPostId ? { id, post_id: post.id } : { id });
  });
  r("POST", "/:page/videos", (req) => {
    needPage(emu, req, req.params.page, "pages_manage_posts", "CREATE_CONTENT");
    const p = params(req);
    if (!p.file_url && !req.form?.source) graphError(400, 100, "(#100) A video needs file_url or an uploaded source");
    const post = publish(
      {
        ...req,
        rawBody: "",
        form: undefined,
        query: new URLSearchParams({ message: p.description ?? "", published: p.published ?? "true" }),
      },
      "status",
      [],
    );
    return ok({ id: post.id.split("_")[1] });
  });
  r("POST", "/:page/events", (req) => {
    needPage(emu, req, req.params.page, "pages_manage_posts", "CREATE_CONTENT");
    const p = params(req);
    if (!p.name || Number.isNaN(Date.parse(p.start_time ?? ""))) graphError(400, 100, "(#100) An event needs name and start_time");
    return ok({ id: emu.nextId().slice(0, 15) });
  });
  r("GET", "/:page/posts", (req) => {
    needPage(emu, req, req.params.page, "pages_read_engagement");
    const { fields, limit } = params(req);
    const list = [...emu.posts.values()]
      .filter((p) => p.pageId === req.params.page && emu.state(p) === "published")
      .sort((a, b) => b.createdAt - a.createdAt);
    return ok({ data: list.slice(0, Math.min(100, Number(limit ?? 25))).map((p) => postView(emu, p, fields)) });
  });
  // Unpublished posts (drafts included) are listed only here, and only to a token that may advertise for the page.
  r("GET", "/:page/ads_posts", (req) => {
    needPage(emu, req, req.params.page, "pages_manage_ads");
    const list = [...emu.posts.values()]
      .filter((p) => p.pageId === req.params.page && !p.published)
      .sort((a, b) => b.createdAt - a.createdAt);
    return ok({ data: list.slice(0, Math.min(100, Number(params(req).limit ?? 25))).map((p) => postView(emu, p, params(req).fields)) });
  });
  r("GET", "/:page/scheduled_posts", (req) => {
    needPage(emu, req, req.params.page, "pages_read_engagement");
    return ok({
      data: [...emu.posts.values()]
        .filter((p) => p.pageId === req.params.page && emu.state(p) === "scheduled")
        .map((p) => postView(emu, p, params(req).fields)),
    });
  });
}

/** The page-management service's endpoints (the Graph API for Pages). */
import type { Request } from "../kit";
import { graphError, listParam, ok, params } from "../graph";
import { ALL_TASKS, PAGES_APP, TASKS, USERS, V } from "./directory";
import type { PagePost, PagesEmulator, Token } from "./server";

const MIN_AHEAD = 10 * 60; // seconds
const MAX_AHEAD = 75 * 24 * 3600;

function tokenOf(req: Request): Token {
  return (req as Request & { token: Token }).token;
}

/** Page calls need a page token of that page carrying `scope`, and for writes a person who may do `task` there. */
function needPage(emu: PagesEmulator, req: Request, pageId: string, scope?: string, task?: string) {
  const t = tokenOf(req);
  const page =
    emu.pages.get(pageId) ??
    graphError(
      400,
      100,
      `Unsupported get request. Object with ID '${pageId}' does not exist, cannot be loaded due to missing permissions, or does not support this operation`,
      "GraphMethodException",
      33,
    );
  if (t.kind !== "page") graphError(400, 190, "(#190) This method must be called with a Page Access Token");
  if (t.pageId !== pageId) graphError(403, 200, "(#200) Insufficient privileges: the token belongs to another page");
  if (scope && !t.scopes.includes(scope)) graphError(403, 200, `(#200) Insufficient privileges: requires the ${scope} permission`);
  if (task && !emu.tasksOf(page, t.userId ?? "")?.includes(task))
    graphError(403, 200, `(#200) Insufficient privileges: requires the ${task} task on the page`);
  return page;
}

function postView(emu: PagesEmulator, p: PagePost, fields?: string) {
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

/** Deterministic insight values per metric and day. */
/** The periods of the Insights reference (`period`). */
const PERIODS = ["day", "week", "days_28", "month", "lifetime", "total_over_range"];

function insight(metric: string, pageOrPost: string, day: number): number {
  let h = 0;
  for (const c of `${metric}:${pageOrPost}:${day}`) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return 50 + (h % 950);
}

export function registerPageRoutes(emu: PagesEmulator): void {
  const r = (method: string, path: string, h: (req: Request) => ReturnType<typeof ok> | Promise<ReturnType<typeof ok>>) =>
    emu["route"](method, V + path, h);

  r("GET", "/me", (req) => {
    const t = tokenOf(req);
    if (t.kind === "page") return ok({ id: t.pageId, name: emu.pages.get(t.pageId!)?.name });
    if (t.kind === "app") return ok({ id: PAGES_APP.id, name: "pulumi-ops emulator app" });
    return ok({ id: t.userId, name: USERS[t.userId!] });
  });

  r("GET", "/me/accounts", (req) => {
    const t = tokenOf(req);
    if (t.kind !== "user") graphError(400, 100, "(#100) Tried accessing nonexisting field (accounts) on node type (Page)");
    if (!t.scopes.includes("pages_show_list"))
      graphError(403, 200, "(#200) Insufficient privileges: requires the pages_show_list permission");
    const all = [...emu.pages.values()]
      .filter((p) => emu.tasksOf(p, t.userId!))
      .map((p) => {
        const pageToken = [...emu.tokens.entries()].find(([, v]) => v.kind === "page" && v.pageId === p.id && v.userId === t.userId)?.[0];
        return { id: p.id, name: p.name, category: p.category, access_token: pageToken, tasks: emu.tasksOf(p, t.userId!) };
      });
    // 25 a page, as the service answers, with cursors and an absolute `paging.next` while more remain.
    const q = params(req);
    const limit = Math.min(Number(q.limit ?? 25), 100);
    const start = q.after ? Number(Buffer.from(q.after, "base64url").toString()) : 0;
    const data = all.slice(start, start + limit);
    const cursor = (n: number) => Buffer.from(String(n)).toString("base64url");
    const paging: Record<string, unknown> = { cursors: { before: cursor(start), after: cursor(start + data.length) } };
    if (start + data.length < all.length) {
      const next = new URL(`${emu.url}${req.path.replace(V, `/${emu.lastVersion}`)}`);
      for (const [k, v] of Object.entries({ ...q, limit: String(limit), after: cursor(start + data.length) })) next.searchParams.set(k, v);
      paging.next = next.toString();
    }
    return ok({ data, paging });
  });

  // The app a token was issued to.
  r("GET", "/app", () => ok({ id: PAGES_APP.id, name: "pulumi-ops emulator app", link: "https://apps.example/pulumi-ops" }));

  r("GET", "/debug_token", (req) => {
    if (tokenOf(req).kind !== "app") graphError(400, 190, "(#190) debug_token needs an app access token (app_id|app_secret)");
    const input = params(req).input_token;
    const t = emu.tokens.get(input ?? "");
    if (!t) return ok({ data: { is_valid: false, error: { code: 190, message: "Invalid OAuth access token" } } });
    const valid = t.expiresAt === undefined || t.expiresAt > emu.now();
    return ok({
      data: {
        app_id: PAGES_APP.id,
        type: t.kind.toUpperCase(),
        is_valid: valid,
        expires_at: t.expiresAt === undefined ? 0 : Math.floor(t.expiresAt / 1000),
        scopes: t.scopes,
        user_id: t.userId,
        ...(t.pageId ? { profile_id: t.pageId } : {}),
      },
    });
  });

  r("GET", "/oauth/access_token", (req) => {
    const p = params(req);
    if (p.client_id !== PAGES_APP.id || p.client_secret !== PAGES_APP.secret) graphError(400, 101, "Error validating client secret.");
    if (!["pg_exchange_token", "fb_exchange_token"].includes(p.grant_type))
      graphError(400, 100, "(#100) grant_type must be pg_exchange_token");
    const short = emu.tokens.get(p.pg_exchange_token ?? p.fb_exchange_token ?? "");
    if (!short) graphError(400, 190, "Invalid OAuth access token");
    const long = `long-lived-${emu.nextId()}`;
    emu.tokens.set(long, { ...short!, expiresAt: emu.now() + 60 * 24 * 3600 * 1000 });
    return ok({ access_token: long, token_type: "bearer", expires_in: 60 * 24 * 3600 });
  });

  r("POST", "/", async (req) => {
    const p = params(req);
    let batch: unknown;
    try {
      batch = JSON.parse(p.batch ?? "");
    } catch {
      graphError(400, 100, "(#100) The parameter batch is required and must be a JSON array");
    }
    if (!Array.isArray(batch)) graphError(400, 100, "(#100) batch must be a JSON array");
    if ((batch as unknown[]).length > 50) graphError(400, 1, "(#1) Too many requests in batch message. Maximum batch size is 50");
    const out = [];
    for (const item of batch as { method?: string; relative_url?: string; body?: string }[]) {
      // An item that did not finish in time is answered `null`, as the service does (test hook: batchTimeouts).
      if (emu.batchTimeouts > 0) {
        emu.batchTimeouts--;
        out.push(null);
        continue;
      }
      out.push(await batchItem(emu, item, p.access_token, p.appsecret_proof));
    }
    return ok(out);
  });

  // Page access today: `/roles` lists the people outside a business and takes no changes; access is granted and
  // removed with `/assigned_users` and tasks (which need the page's business to be read).
  r("GET", "/:page/roles", (req) => {
    const page = needPage(emu, req, req.params.page);
    return ok({ data: [...page.roles].map(([id, role]) => ({ id, name: USERS[id] ?? id, role, tasks: TASKS[role] })) });
  });
  const noRoles = () =>
    graphError(
      400,
      100,
      "(#100) Unsupported request: page roles are granted with /{page-id}/assigned_users and tasks",
      "GraphMethodException",
    );
  r("POST", "/:page/roles", noRoles);
  r("DELETE", "/:page/roles", noRoles);
  r("GET", "/:page/assigned_users", (req) => {
    const page = needPage(emu, req, req.params.page, "pages_manage_metadata", "MANAGE");
    const business = params(req).business;
    if (!business) graphError(400, 100, "(#100) The parameter business is required");
    if (business !== page.business.id) graphError(400, 100, `(#100) Business ${business} does not own or have access to page ${page.id}`);
    return ok({
      data: [...page.assigned].map(([id, tasks]) => ({ id, name: USERS[id] ?? id, tasks, user_type: "BUSINESS_USER" })),
      paging: { cursors: { before: "MA", after: "MA" } },
    });
  });
  r("POST", "/:page/assigned_users", (req) => {
    const page = needPage(emu, req, req.params.page, "pages_manage_metadata", "MANAGE");
    const { user, tasks } = params(req);
    if (!user || !/^\d+$/.test(user)) graphError(400, 100, "(#100) Param user must be a valid ID");
    if (!(user in USERS)) graphError(400, 100, `(#100) User ${user} is not a business user of business ${page.business.id}`);
    const list = listParam(tasks);
    const bad = list.find((x) => !ALL_TASKS.includes(x));
    if (!list.length || bad) graphError(400, 100, `(#100) Param tasks[0] must be one of {${ALL_TASKS.join(", ")}}`);
    page.assigned.set(user, [...new Set(list)]);
    page.roles.delete(user); // their access is the business's now
    return ok({ success: true });
  });
  r("DELETE", "/:page/assigned_users", (req) => {
    const page = needPage(emu, req, req.params.page, "pages_manage_metadata", "MANAGE");
    const { user } = params(req);
    if (!page.assigned.delete(user ?? "")) graphError(400, 100, `(#100) ${user} is not assigned to this page`);
    return ok({ success: true });
  });

  // Subscribed apps: POST replaces the calling app's field set.
  const appOf = (_req: Request) => PAGES_APP.id;
  r("GET", "/:page/subscribed_apps", (req) => {
    const page = needPage(emu, req, req.params.page);
    return ok({ data: [...page.apps].map(([id, fields]) => ({ id, name: "pulumi-ops emulator app", subscribed_fields: fields })) });
  });
  r("POST", "/:page/subscribed_apps", (req) => {
    const page = needPage(emu, req, req.params.page, "pages_manage_metadata");
    const fields = listParam(params(req).subscribed_fields);
    const known = ["feed", "messages", "messaging_postbacks", "message_deliveries", "message_reads", "mention", "ratings"];
    const bad = fields.find((f) => !known.includes(f));
    if (!fields.length || bad)
      graphError(400, 100, `(#100) Param subscribed_fields must be a list of ${known.join(", ")}${bad ? `; got ${bad}` : ""}`);
    page.apps.set(appOf(req), fields);
    return ok({ success: true });
  });
  r("DELETE", "/:page/subscribed_apps", (req) => {
    const page = needPage(emu, req, req.params.page, "pages_manage_metadata");
    page.apps.delete(appOf(req));
    return ok({ success: true });
  });

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
  r("GET", "/:id/insights", (req) => {
    const id = req.params.id;
    const isPage = emu.pages.has(id);
    if (!isPage && !emu.posts.has(id)) graphError(400, 100, `Object with ID '${id}' does not exist`, "GraphMethodException", 33);
    needPage(emu, req, isPage ? id : emu.posts.get(id)!.pageId, "pages_read_engagement");
    const p = params(req);
    // The metrics served today: impressions and fans were removed for every version on 2025-11-15.
    const known = isPage
      ? [
          "page_follows",
          "page_daily_follows",
          "page_daily_follows_unique",
          "page_daily_unfollows_unique",
          "page_media_view",
          "page_total_media_view_unique",
          "page_views_total",
          "page_post_engagements",
          "page_total_actions",
          "page_follows_country",
        ]
      : ["post_media_view", "post_total_media_view_unique", "post_clicks", "post_reactions_by_type_total"];
    const metrics = listParam(p.metric);
    const bad = metrics.find((m) => !known.includes(m));
    if (!metrics.length || bad)
      graphError(400, 100, `(#100) The value must be a valid insights metric: ${bad ?? "(none)"}; known: ${known.join(", ")}`);
    // The Insights reference's periods; a post's metrics are lifetime totals.
    const period = p.period ?? (isPage ? "day" : "lifetime");
    if (!PERIODS.includes(period)) graphError(400, 100, `(#100) period must be one of the following values: ${PERIODS.join(", ")}`);
    if (!isPage) {
      if (period !== "lifetime") graphError(400, 100, `(#100) The metrics of a post are answered for period lifetime only`);
      const value = (m: string) =>
        m === "post_reactions_by_type_total"
          ? { like: insight(`${m}:like`, id, 0) % 40, love: insight(`${m}:love`, id, 0) % 15 }
          : insight(m, id, 0);
      return ok({
        data: metrics.map((m) => ({
          id: `${id}/insights/${m}/lifetime`,
          name: m,
          period: "lifetime",
          title: m.replace(/_/g, " "),
          values: [{ value: value(m) }],
        })),
      });
    }
    const day = (s: string) => Math.floor(Date.parse(`${s}T00:00:00Z`) / 86_400_000);
    const until = p.until ? day(p.until) : Math.floor(emu.now() / 86_400_000);
    const since = p.since ? day(p.since) : until - 2;
    if (!Number.isFinite(since) || !Number.isFinite(until) || since > until)
      graphError(400, 100, "(#100) since and until must be YYYY-MM-DD dates with since before until");
    if (until - since > 90) graphError(400, 100, "(#100) There cannot be more than 90 days (7776000 s) between since and until");
    const days = Array.from({ length: Math.min(93, until - since + 1) }, (_, i) => since + i);
    // One value per period ending in the window (a week: every 7th day; the whole range: one).
    const step = { day: 1, week: 7, days_28: 28, month: 30 }[period as "day"] ?? days.length;
    const ends = days.filter((_, i) => (i + 1) % step === 0 || (step >= days.length && i === days.length - 1));
    return ok({
      data: metrics.map((m) => ({
        id: `${id}/insights/${m}/${period}`,
        name: m,
        period,
        title: m.replace(/_/g, " "),
        values: ends.map((d) => ({
          value: insight(m, id, d) * (step === days.length ? days.length : step),
          end_time: new Date((d + 1) * 86_400_000).toISOString().replace(/\.\d+Z$/, "+0000"),
        })),
      })),
    });
  });

  // One object by id: a page, a post, or the app (rate_limit_info).
  r("GET", "/:id", (req) => {
    const id = req.params.id;
    const fields = params(req).fields;
    const only = (all: Record<string, unknown>, node: string, fallback: string) => {
      const wanted = (fields ?? fallback).split(",");
      const unknown = wanted.find((f) => !(f in all));
      if (unknown) graphError(400, 100, `(#100) Tried accessing nonexisting field (${unknown}) on node type (${node})`);
      return ok(Object.fromEntries(wanted.map((f) => [f, all[f]]).concat([["id", id]])));
    };
    // An app has no `rate_limit_info` (usage is in the answers' headers).
    if (id === PAGES_APP.id)
      return only({ id, name: "pulumi-ops emulator app", link: "https://apps.example/pulumi-ops" }, "Application", "id,name");
    const page = emu.pages.get(id);
    if (page) {
      return only(
        {
          id,
          name: page.name,
          about: page.about,
          category: page.category,
          link: `https://www.facebook.com/${id}`,
          phone: "+1 555 0100",
          website: "https://bakery.example",
          fan_count: 1234,
          followers_count: 1301,
          business: page.business,
        },
        "Page",
        "id,name",
      );
    }
    const photo = emu.photos.get(id);
    if (photo) {
      needPage(emu, req, photo.pageId, "pages_read_engagement");
      return only({ id, page_story_id: photo.postId, images: [{ source: photo.url }], name: photo.caption }, "Photo", "id");
    }
    const post = emu.posts.get(id);
    if (!post)
      graphError(
        400,
        100,
        `Unsupported get request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation`,
        "GraphMethodException",
        33,
      );
    needPage(emu, req, post!.pageId, "pages_read_engagement");
    return ok(postView(emu, post!, fields));
  });
  r("POST", "/:id", (req) => {
    const post =
      emu.posts.get(req.params.id) ?? graphError(400, 100, `Object with ID '${req.params.id}' does not exist`, "GraphMethodException", 33);
    needPage(emu, req, post.pageId, "pages_manage_posts", "CREATE_CONTENT");
    const p = params(req);
    if (p.message !== undefined) post.message = p.message;
    if (p.is_published === "true") post.published = true;
    // A scheduled post's time moves in place (the Page Post reference's update takes scheduled_publish_time).
    if (p.scheduled_publish_time !== undefined) {
      if (post.published || post.scheduledAt === undefined || post.scheduledAt <= emu.now())
        graphError(400, 100, "(#100) scheduled_publish_time can only be changed on a scheduled post that is not published yet");
      const at = Number(p.scheduled_publish_time) * 1000;
      const ahead = (at - emu.now()) / 1000;
      if (!Number.isFinite(at) || ahead < MIN_AHEAD || ahead > MAX_AHEAD)
        graphError(400, 100, "(#100) The specified scheduled publish time is invalid: it must be between 10 minutes and 75 days from now");
      post.scheduledAt = at;
    }
    return ok({ success: true });
  });
  r("DELETE", "/:id", (req) => {
    const post =
      emu.posts.get(req.params.id) ?? graphError(400, 100, `Object with ID '${req.params.id}' does not exist`, "GraphMethodException", 33);
    needPage(emu, req, post.pageId, "pages_manage_posts", "CREATE_CONTENT");
    emu.posts.delete(post.id);
    return ok({ success: true });
  });
}

/** One item of a batch, answered as the service does: `{code, headers, body}` with the body JSON-encoded. */
export async function batchItem(
  emu: PagesEmulator,
  item: { method?: string; relative_url?: string; body?: string },
  token: string,
  proof?: string,
) {
  const url = new URL(`${V}/${String(item.relative_url ?? "").replace(/^\//, "")}`, "http://localhost");
  if (!url.searchParams.has("access_token")) {
    url.searchParams.set("access_token", token);
    if (proof) url.searchParams.set("appsecret_proof", proof);
  }
  const req: Request = {
    method: String(item.method ?? "GET").toUpperCase(),
    path: url.pathname,
    query: url.searchParams,
    headers: { "content-type": "application/x-www-form-urlencoded" },
    params: {},
    rawBody: item.body ?? "",
    bytes: Buffer.alloc(0),
  };
  const reply = await emu.answer(req);
  return { code: reply.status, headers: [{ name: "Content-Type", value: "application/json" }], body: JSON.stringify(reply.body) };
}

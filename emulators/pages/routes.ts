/** The page-management service's endpoints (the Graph API for Pages). */
import type { Request } from "../kit";
import { graphError, listParam, ok, params } from "../graph";
import { profileView, updateProfile } from "./profile";
import { ALL_TASKS, PAGES_APP, TASKS, USERS, V } from "./directory";
import { needPage, tokenOf, type PageRoute } from "./access";
import { registerInsightRoutes } from "./insights";
import { MAX_AHEAD, MIN_AHEAD, postView, registerPostRoutes } from "./post-routes";
import type { PagesEmulator } from "./server";

export function registerPageRoutes(emu: PagesEmulator): void {
  const r: PageRoute = (method, path, h) => emu["route"](method, V + path, h);

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

  registerPostRoutes(emu, r);
  registerInsightRoutes(emu, r);

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
          ...profileView(page),
          category: page.category,
          link: `https://www.facebook.com/${id}`,
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
    if (emu.pages.has(req.params.id)) return updateProfile(emu, req, req.params.id);
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

/**
 * A stateful emulator of the short-post service as the Threads API answers today (`/v1.0`): containers made at
 * `POST /{user}/threads`, processed after a delay, published at `/{user}/threads_publish` (250 per 24 hours, read at
 * `/{user}/threads_publishing_limit`), listed at `GET /{user}/threads`, counted at `/{media}/insights`. Unknown
 * fields and edges are refused with the service's `(#100)` errors, so a client that asks for what the service does
 * not have fails here as it would there. There is no webhook subscription API: the service sets them up in the app
 * dashboard.
 */
import { Emulator, type Reply, type Request } from "../kit";
import { graphError, listParam, ok, params, usageHeader } from "../graph";
import { fieldList, INSIGHT_METRICS, MEDIA_FIELDS, USER_FIELDS, type Container, type Post, type Status } from "./media";
import { createContainer, publish } from "./publishing";
import { mediaView } from "./media-view";
import {
  DAY,
  DELETE_QUOTA,
  OTHER,
  POSTS_OTHER_TOKEN,
  POSTS_SHORT_TOKEN,
  POSTS_USER_TOKEN,
  PUBLISH_QUOTA,
  REPLY_QUOTA,
  T,
  USER,
} from "./seed";
import { registerTokenRoutes } from "./tokens";
import { hasReplies, registerReplyRoutes } from "./threading";

export { INSIGHT_METRICS, REPLY_CONTROLS } from "./media";
export {
  DELETE_QUOTA,
  POSTS_APP,
  POSTS_AUTH_CODE,
  POSTS_OTHER_TOKEN,
  POSTS_SHORT_TOKEN,
  POSTS_USER_ID,
  POSTS_USER_TOKEN,
  PUBLISH_QUOTA,
} from "./seed";

export interface PostsEmulatorOptions {
  port?: number;
  /** How long a container stays IN_PROGRESS: by default 2 to 5 seconds, drawn per container; tests set a fixed time. */
  processingMs?: number;
}

export class PostsEmulator extends Emulator {
  readonly processingMs?: number;
  containers = new Map<string, Container>();
  posts = new Map<string, Post>();
  /** Long-lived tokens this emulator accepts, when each was issued and when it expires (60 days later). */
  tokens = new Map<string, { issuedAt: number; expiresAt: number }>();
  shortTokens = new Map<string, number>();
  deletesToday: number[] = [];
  /** The account of the request being answered (set by `before`). */
  caller = USER;
  /** The next N publishes of a FINISHED container fail with code 24 / subcode 4279009, as the service sometimes does. */
  transientPublishFailures = 0;
  /** Numeric ids, as the service's are (17 to 18 digits). */
  counter = 0;
  nextId = (): string => String(17_841_400_000_000_000n + BigInt(++this.counter) * 7919n);

  constructor(options: PostsEmulatorOptions = {}) {
    super("posts", options.port ?? 0);
    this.processingMs = options.processingMs;
    this.reset();
    this.registerRoutes();
  }

  reset(): void {
    this.counter = 0;
    this.containers.clear();
    this.posts.clear();
    // The seeded user's token was issued 30 days ago: it has 30 of its 60 days left.
    this.tokens = new Map([[POSTS_USER_TOKEN, { issuedAt: this.now() - 30 * DAY, expiresAt: this.now() + 30 * DAY }]]);
    this.shortTokens = new Map([[POSTS_SHORT_TOKEN, this.now() + 3600_000]]); // an hour, as a login gives
    this.deletesToday = [];
    this.publishes = [];
    this.transientPublishFailures = 0;
  }

  /** Graph takes a trailing slash as none. */
  protected async dispatch(req: Request): Promise<Reply> {
    if (req.path.length > 1 && req.path.endsWith("/")) req.path = req.path.replace(/\/+$/, "");
    return super.dispatch(req);
  }

  protected notFound(req: Request): Reply {
    // Graph's answer to an edge or path it does not have.
    return graphError(
      400,
      100,
      `Unsupported ${req.method.toLowerCase()} request. Object with ID '${req.path.split("/")[2] ?? ""}' does not exist, cannot be loaded due to missing permissions, or does not support this operation`,
      T,
      33,
    );
  }

  protected faultReply(status: number, retryAfter?: number): Reply {
    const body =
      status === 429
        ? { error: { message: "Application request limit reached", type: T, code: 4, is_transient: true } }
        : { error: { message: "An unknown error occurred", type: T, code: 1, is_transient: true } };
    return { status, body, headers: status === 429 ? { "retry-after": String(retryAfter ?? 1) } : {} };
  }

  /** The token: `Authorization: Bearer`, or `access_token` in the query or the form. */
  protected before(req: Request): Record<string, string> {
    if (!req.path.startsWith("/v1.0")) return {};
    const token = req.headers.authorization?.replace(/^(Bearer|OAuth) /i, "") ?? params(req).access_token;
    const short = this.shortTokens.get(token ?? "");
    if (short !== undefined && short < this.now())
      graphError(401, 190, "Error validating access token: Session has expired", "OAuthException", 463);
    if (short === undefined && !this.tokens.has(token ?? "") && token !== POSTS_OTHER_TOKEN)
      graphError(401, 190, "Invalid OAuth access token - Cannot parse access token", "OAuthException");
    const long = this.tokens.get(token ?? "");
    if (long && long.expiresAt < this.now())
      graphError(401, 190, "Error validating access token: Session has expired", "OAuthException", 463);
    this.caller = token === POSTS_OTHER_TOKEN ? OTHER : USER;
    return { "x-app-usage": usageHeader(this.log.length, 4800) };
  }

  status(c: Container): Status {
    if (c.postId) return "PUBLISHED";
    const age = this.now() - c.createdAt;
    if (age > DAY) return "EXPIRED";
    if (age < c.processingMs) return "IN_PROGRESS";
    return c.error ? "ERROR" : "FINISHED";
  }

  /** The first account's posts published in the 24 hours before now, oldest first. */
  publishedInWindow(owner = USER.id): Post[] {
    return this.own(owner)
      .filter((p) => !p.carouselItem && p.timestamp > this.now() - DAY)
      .sort((a, b) => a.timestamp - b.timestamp);
  }

  /**
   * Every publish through the API, kept when its post is deleted: the service counts "API-published posts within a
   * 24-hour moving period" (the Threads API overview, Posts), and a post deleted since was still published then.
   */
  publishes: { id: string; owner: string; at: number; reply?: boolean }[] = [];

  /**
   * The publishes a quota counts now: those of the log in the window, and posts put there by a test as they are.
   * Replies have a quota of their own (`reply_quota_usage`, 1,000 a day), apart from posts' 250.
   */
  quotaUsed(owner = USER.id, replies = false): number {
    const since = this.now() - DAY;
    const counted = (reply: boolean | undefined) => Boolean(reply) === replies;
    const ids = new Set(this.publishes.filter((p) => p.owner === owner && p.at > since && counted(p.reply)).map((p) => p.id));
    for (const p of this.publishedInWindow(owner)) if (counted(p.replied_to !== undefined)) ids.add(p.id);
    return ids.size;
  }

  private own(owner = this.caller.id): Post[] {
    return [...this.posts.values()].filter((p) => (p.owner ?? USER.id) === owner);
  }

  /** A post the caller may see: another account's answers as a missing one does (100/33). */
  visible(req: Request, id: string): Post {
    const p = this.posts.get(id);
    return p && (p.owner ?? USER.id) === this.caller.id ? p : this.missing(req, id);
  }

  /** `me` or this emulator's user id; any other user is not this token's. */
  user(req: Request): void {
    if (req.params.user !== "me" && req.params.user !== this.caller.id)
      graphError(
        400,
        100,
        `Unsupported ${req.method.toLowerCase()} request. Object with ID '${req.params.user}' does not exist, cannot be loaded due to missing permissions, or does not support this operation`,
        T,
        33,
      );
  }

  private registerRoutes(): void {
    registerTokenRoutes(this, (method, path, handler) => this.route(method, path, handler));
    this.route("POST", "/v1.0/:user/threads", (req) => createContainer(this, req));
    this.route("POST", "/v1.0/:user/threads_publish", (req) => publish(this, req));
    this.route("GET", "/v1.0/:user/threads", (req) => this.list(req));
    registerReplyRoutes(this, (method, path, handler) => this.route(method, path, handler));
    this.route("GET", "/v1.0/:user/threads_publishing_limit", (req) => {
      this.user(req);
      const fields = fieldList(
        params(req).fields,
        new Set(["quota_usage", "config", "reply_quota_usage", "reply_config", "delete_quota_usage", "delete_config"]),
        "ThreadsPublishingLimit",
        "quota_usage",
      );
      // Deletes are counted too (the Threads changelog of 2025-07-14: `delete_quota_usage`, `delete_config`).
      this.deletesToday = this.deletesToday.filter((t) => t > this.now() - DAY);
      const all: Record<string, unknown> = {
        quota_usage: this.quotaUsed(this.caller.id),
        config: { quota_total: PUBLISH_QUOTA, quota_duration: 86_400 },
        reply_quota_usage: this.quotaUsed(this.caller.id, true),
        reply_config: { quota_total: REPLY_QUOTA, quota_duration: 86_400 },
        delete_quota_usage: this.deletesToday.length,
        delete_config: { quota_total: DELETE_QUOTA, quota_duration: 86_400 },
      };
      return ok({ data: [Object.fromEntries(fields.map((f) => [f, all[f]]))] });
    });
    this.route("GET", "/v1.0/:id/insights", (req) => {
      const p = this.visible(req, req.params.id);
      const metrics = listParam(params(req).metric);
      const bad = metrics.find((m) => !INSIGHT_METRICS.includes(m));
      if (!metrics.length || bad)
        graphError(400, 100, `(#100) metric[0] must be one of the following values: ${INSIGHT_METRICS.join(", ")}`, T);
      const value: Record<string, number> = { views: p.views, likes: p.likes, replies: 0, reposts: 0, quotes: 0, shares: 0 };
      return ok({
        data: metrics.map((name) => ({
          name,
          period: "lifetime",
          values: [{ value: value[name] }],
          title: name[0].toUpperCase() + name.slice(1),
          id: `${p.id}/insights/${name}/lifetime`,
        })),
      });
    });
    this.route("GET", "/v1.0/:id", (req) => {
      if (req.params.id === "me" || req.params.id === USER.id || req.params.id === OTHER.id) return this.profile(req);
      const c = this.containers.get(req.params.id);
      if (c) {
        const status = this.status(c);
        return ok({ id: c.id, status, ...(status === "ERROR" ? { error_message: c.error } : {}) });
      }
      const p = this.visible(req, req.params.id);
      return ok(mediaView(p, fieldList(params(req).fields, MEDIA_FIELDS, "ThreadsMedia", "id"), hasReplies(this, p.id)));
    });
    this.route("DELETE", "/v1.0/:id", (req) => {
      const p = this.visible(req, req.params.id);
      this.deletesToday = this.deletesToday.filter((t) => t > this.now() - DAY);
      if (this.deletesToday.length >= DELETE_QUOTA)
        graphError(400, 4, `Application request limit reached: at most ${DELETE_QUOTA} deletions per 24 hours`, T);
      this.deletesToday.push(this.now());
      this.posts.delete(p.id);
      for (const child of p.children ?? []) this.posts.delete(child);
      return ok({ success: true, deleted_id: p.id });
    });
  }

  private profile(req: Request): Reply {
    req.params.user = req.params.id;
    this.user(req);
    const u = this.caller;
    const all: Record<string, unknown> = {
      id: u.id,
      username: u.username,
      name: u.name,
      threads_profile_picture_url: "https://scontent.cdninstagram.com/v/t51.2885-19/profile.jpg",
      threads_biography: u.biography,
      is_verified: false,
    };
    const fields = fieldList(params(req).fields, USER_FIELDS, "User", "id");
    return ok(Object.fromEntries(fields.map((f) => [f, all[f]]).concat([["id", u.id]])));
  }

  private missing(req: Request, id: string): never {
    return graphError(
      400,
      100,
      `Unsupported ${req.method.toLowerCase()} request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation`,
      T,
      33,
    );
  }

  /** Newest first; `since`/`until` (Unix seconds or ISO), `limit` (at most 100), `after` cursors and an absolute `paging.next`. */
  private list(req: Request): Reply {
    this.user(req);
    const p = params(req);
    const fields = fieldList(p.fields, MEDIA_FIELDS, "ThreadsMedia", "id");
    const time = (v: string | undefined) => (v === undefined ? undefined : /^\d+$/.test(v) ? Number(v) * 1000 : Date.parse(v));
    const since = time(p.since) ?? -Infinity;
    const until = time(p.until) ?? Infinity;
    const limit = Math.min(Number(p.limit ?? 25), 100);
    const all = this.own()
      // Replies are listed at /{user}/replies, not among the account's threads.
      .filter((x) => !x.carouselItem && !x.replied_to && x.timestamp >= since && x.timestamp <= until)
      .sort((a, b) => b.timestamp - a.timestamp || b.id.localeCompare(a.id));
    const start = p.after ? Number(Buffer.from(p.after, "base64url").toString()) : 0;
    const page = all.slice(start, start + limit);
    const cursor = (n: number) => Buffer.from(String(n)).toString("base64url");
    const paging: Record<string, unknown> = { cursors: { before: cursor(start), after: cursor(start + page.length) } };
    if (start + page.length < all.length) {
      const next = new URL(`${this.url}${req.path}`);
      for (const [k, v] of Object.entries({ ...p, after: cursor(start + page.length) }))
        if (k !== "access_token" || !req.headers.authorization) next.searchParams.set(k, v);
      paging.next = next.toString();
    }
    return ok({ data: page.map((x) => mediaView(x, fields, hasReplies(this, x.id))), paging });
  }

  protected testHook(op: string, _req: Request, body: any): Reply | undefined {
    if (op === "posts/engagement") {
      const p = this.posts.get(String(body.id));
      if (!p) return { status: 404, body: { error: "no such post" } };
      Object.assign(p, { views: Number(body.views ?? p.views), likes: Number(body.likes ?? p.likes) });
      return { status: 200, body: { ok: true } };
    }
    if (op === "posts/token-expiry") {
      // A token that expires in `days` (the seeded user's unless named).
      const t = this.tokens.get(String(body.token ?? POSTS_USER_TOKEN));
      if (!t) return { status: 404, body: { error: "no such long-lived token" } };
      t.expiresAt = this.now() + Number(body.days) * DAY;
      return { status: 200, body: { ok: true } };
    }
    if (op === "posts/transient-publish-failures") {
      this.transientPublishFailures = Number(body.count ?? 1);
      return { status: 200, body: { ok: true } };
    }
    return undefined;
  }
}

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
import { linkCount, postLength } from "./text";

export const POSTS_APP = { id: "400000000000001", secret: "posts-app-secret-0123" };
/** A long-lived user token (60 days). */
export const POSTS_USER_TOKEN = "posts-user-token-0123456789";
/** A short-lived user token (one hour), as the authorization code exchange gives: exchanged for a long-lived one. */
export const POSTS_SHORT_TOKEN = "posts-short-token-0123456789";
export const POSTS_AUTH_CODE = "posts-auth-code-0123";
const USER = { id: "500000000000001", username: "examplebakery", name: "Example Bakery", biography: "Bread since 1921" };
const OTHER = { id: "500000000000002", username: "otherbakery", name: "Other Bakery", biography: "Cakes" };
export const POSTS_USER_ID = USER.id;
/** A valid token of another account: it sees none of the first account's posts (Graph answers 100/33 for them). */
export const POSTS_OTHER_TOKEN = "posts-other-token-0123456789";
const T = "THApiException";
const DAY = 86_400_000;
export const PUBLISH_QUOTA = 250;
/** Posts an account may delete per moving 24 hours (permission threads_delete). */
export const DELETE_QUOTA = 100;

type Status = "IN_PROGRESS" | "FINISHED" | "ERROR" | "EXPIRED" | "PUBLISHED";

type MediaType = "TEXT" | "IMAGE" | "VIDEO" | "CAROUSEL";

/** What a container carries besides its media, kept on the post it becomes. */
interface Attachments {
  alt_text?: string;
  reply_audience?: string;
  topic_tag?: string;
  link_attachment_url?: string;
  quoted_post?: string;
  poll?: Record<string, string>;
  /** A carousel's items (posts of their own, shown only through the carousel). */
  children?: string[];
}

interface Container extends Attachments {
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

interface Post extends Attachments {
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

export interface PostsEmulatorOptions {
  port?: number;
  /** How long a container stays IN_PROGRESS: by default 2 to 5 seconds, drawn per container; tests set a fixed time. */
  processingMs?: number;
}

/** The fields a post has; any other is refused with `(#100) Tried accessing nonexisting field`. */
const MEDIA_FIELDS = new Set([
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
const USER_FIELDS = new Set(["id", "username", "name", "threads_profile_picture_url", "threads_biography", "is_verified"]);
export const INSIGHT_METRICS = ["views", "likes", "replies", "reposts", "quotes", "shares"];

/** Media the emulator can "download": size and length come from the URL's query (`?bytes=`, `?seconds=`); host `unreachable.example` cannot be fetched. */
function mediaProblem(type: string, url: string): string | undefined {
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

function fieldList(raw: string | undefined, allowed: Set<string>, node: string, fallback: string): string[] {
  const fields = (raw ?? fallback)
    .split(",")
    .map((f) => f.trim())
    .filter(Boolean);
  const unknown = fields.find((f) => !allowed.has(f));
  if (unknown) graphError(400, 100, `(#100) Tried accessing nonexisting field (${unknown}) on node type (${node})`, T);
  return fields;
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
  private caller = USER;
  /** The next N publishes of a FINISHED container fail with code 24 / subcode 4279009, as the service sometimes does. */
  transientPublishFailures = 0;
  /** Numeric ids, as the service's are (17 to 18 digits). */
  private counter = 0;
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
  publishes: { id: string; owner: string; at: number }[] = [];

  /** The publishes the quota counts now: those of the log in the window, and posts put there by a test as they are. */
  quotaUsed(owner = USER.id): number {
    const since = this.now() - DAY;
    const ids = new Set(this.publishes.filter((p) => p.owner === owner && p.at > since).map((p) => p.id));
    for (const p of this.publishedInWindow(owner)) ids.add(p.id);
    return ids.size;
  }

  private own(owner = this.caller.id): Post[] {
    return [...this.posts.values()].filter((p) => (p.owner ?? USER.id) === owner);
  }

  /** A post the caller may see: another account's answers as a missing one does (100/33). */
  private visible(req: Request, id: string): Post {
    const p = this.posts.get(id);
    return p && (p.owner ?? USER.id) === this.caller.id ? p : this.missing(req, id);
  }

  private mediaView(p: Post, fields: string[]) {
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
      has_replies: false,
      is_reply: false,
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

  /** `me` or this emulator's user id; any other user is not this token's. */
  private user(req: Request): void {
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
    this.tokenRoutes();
    this.route("POST", "/v1.0/:user/threads", (req) => this.createContainer(req));
    this.route("POST", "/v1.0/:user/threads_publish", (req) => this.publish(req));
    this.route("GET", "/v1.0/:user/threads", (req) => this.list(req));
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
        reply_quota_usage: 0,
        reply_config: { quota_total: 1000, quota_duration: 86_400 },
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
      return ok(this.mediaView(p, fieldList(params(req).fields, MEDIA_FIELDS, "ThreadsMedia", "id")));
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

  /** The authorization code, the long-lived exchange (`th_exchange_token`) and the refresh (`th_refresh_token`). */
  private tokenRoutes(): void {
    const longLived = () => {
      const fresh = `posts-long-${this.nextId()}`;
      this.tokens.set(fresh, { issuedAt: this.now(), expiresAt: this.now() + 5_183_944_000 });
      return ok({ access_token: fresh, token_type: "bearer", expires_in: 5_183_944 });
    };
    this.route("POST", "/oauth/access_token", (req) => {
      const p = params(req);
      if (p.client_id !== POSTS_APP.id || p.client_secret !== POSTS_APP.secret)
        graphError(400, 101, "Error validating client secret", "OAuthException");
      if (p.grant_type !== "authorization_code" || p.code !== POSTS_AUTH_CODE)
        graphError(400, 100, "Invalid authorization code", "OAuthException");
      return ok({ access_token: POSTS_SHORT_TOKEN, user_id: Number(USER.id) });
    });
    this.route("GET", "/access_token", (req) => {
      const p = params(req);
      if (p.grant_type !== "th_exchange_token") graphError(400, 100, "Unsupported grant_type: use th_exchange_token", T);
      if (p.client_secret !== POSTS_APP.secret) graphError(400, 101, "Error validating client secret", "OAuthException");
      const exp = this.shortTokens.get(p.access_token ?? "");
      if (exp === undefined || exp < this.now())
        graphError(400, 190, "Invalid OAuth access token: a short-lived token is exchanged once, within its hour", "OAuthException", 467);
      return longLived();
    });
    // A token's facts, asked with a token of a tester of the same app (the user's own, for an app in development).
    this.route("GET", "/v1.0/debug_token", (req) => {
      const p = params(req);
      const t = this.tokens.get(p.input_token ?? "");
      const short = this.shortTokens.get(p.input_token ?? "");
      const expiresAt = t?.expiresAt ?? short ?? 0;
      return ok({
        data: {
          type: "USER",
          application: "Example Bakery Posts",
          data_access_expires_at: Math.floor((this.now() + 90 * DAY) / 1000),
          expires_at: Math.floor(expiresAt / 1000),
          is_valid: expiresAt > this.now(),
          issued_at: Math.floor((t?.issuedAt ?? this.now()) / 1000),
          scopes: ["threads_basic", "threads_content_publish", "threads_manage_insights", "threads_delete"],
          user_id: USER.id,
        },
      });
    });
    this.route("GET", "/refresh_access_token", (req) => {
      const p = params(req);
      const t = this.tokens.get(p.access_token ?? "");
      if (p.grant_type !== "th_refresh_token" || !t || t.expiresAt < this.now())
        graphError(400, 190, "Invalid OAuth access token: refresh a long-lived token that has not expired", "OAuthException", 467);
      // Long-lived tokens "at least 24 hours old" can be refreshed (Threads "Long-Lived Access Tokens").
      if (t.issuedAt > this.now() - DAY)
        graphError(400, 190, "The access token cannot be refreshed: it is less than 24 hours old", "OAuthException");
      return longLived();
    });
  }

  private createContainer(req: Request): Reply {
    this.user(req);
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
    if (p.text && linkCount(p.text) > 5)
      graphError(400, 100, "THREADS_API__LINK_LIMIT_EXCEEDED: a post may contain at most 5 links", T, 4279030);
    if (type === "TEXT" && !p.text) graphError(400, 100, "(#100) Param text is required for media_type TEXT", T);
    const url = type === "IMAGE" ? p.image_url : type === "VIDEO" ? p.video_url : undefined;
    if ((type === "IMAGE" || type === "VIDEO") && !url)
      graphError(400, 100, `(#100) Param ${type.toLowerCase()}_url is required for media_type ${type}`, T);
    const extra = this.attachments(req, p, type, item);
    const processingMs = type === "TEXT" ? 0 : (this.processingMs ?? 2000 + Math.floor(Math.random() * 3001));
    const c: Container = {
      id: this.nextId(),
      media_type: type,
      carouselItem: item || undefined,
      text: p.text,
      media_url: url,
      createdAt: this.now(),
      processingMs,
      error: url ? mediaProblem(type, url) : undefined,
      ...extra,
    };
    this.containers.set(c.id, c);
    return ok({ id: c.id });
  }

  /** The container's fields besides its media, checked as the service documents them. */
  private attachments(req: Request, p: Record<string, string>, type: MediaType, item: boolean): Attachments {
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
      const quoted = this.posts.get(p.quote_post_id);
      if (!quoted || quoted.carouselItem)
        graphError(400, 100, `(#100) Param quote_post_id must be the id of a post that exists: ${p.quote_post_id} is not`, T);
      out.quoted_post = quoted.id;
    }
    if (p.poll_attachment !== undefined) out.poll = this.poll(p.poll_attachment, type);
    if (type === "CAROUSEL") out.children = this.carouselChildren(req, p.children);
    else if (p.children !== undefined) graphError(400, 100, "(#100) Param children is only for CAROUSEL containers", T);
    return out;
  }

  private poll(raw: string, type: MediaType): Record<string, string> {
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
  private carouselChildren(req: Request, raw: string | undefined): string[] {
    const ids = listParam(raw);
    if (ids.length < 2 || ids.length > 20)
      graphError(400, 100, "(#100) Param children must list 2 to 20 carousel item containers", T, 4279015);
    for (const id of ids) {
      const c = this.containers.get(id);
      if (!c || !c.carouselItem)
        graphError(400, 100, `(#100) Param children: ${id} is not a carousel item container (create it with is_carousel_item=true)`, T);
      const status = this.status(c);
      if (status !== "FINISHED")
        graphError(400, 24, `Media Not Found: carousel item ${id} is ${status}, wait for it to be FINISHED`, T, 4279009);
    }
    void req;
    return ids;
  }

  private publish(req: Request): Reply {
    this.user(req);
    const c =
      this.containers.get(params(req).creation_id ?? "") ??
      graphError(400, 100, "(#100) Param creation_id must be a valid media container id", T);
    const status = this.status(c);
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
    if (this.transientPublishFailures > 0) {
      this.transientPublishFailures--;
      graphError(400, 24, "Media Not Found", T, 4279009);
    }
    if (this.quotaUsed(this.caller.id) >= PUBLISH_QUOTA)
      graphError(400, 4, `Application request limit reached: at most ${PUBLISH_QUOTA} posts per 24 hours`, T, 2207042);
    const { id: _i, createdAt: _c, processingMs: _p, error: _e, postId: _o, media_url: _m, carouselItem: _ci, children, ...attached } = c;
    const made = (from: Container, extra: Partial<Post>): Post => ({
      ...extra,
      id: this.nextId(),
      owner: this.caller.id,
      media_type: from.media_type,
      source_url: from.media_url,
      timestamp: this.now(),
      shortcode: `C${Number(this.counter).toString(36).padStart(10, "x")}`,
      views: 0,
      likes: 0,
    });
    // A carousel's items become media of their own, shown through it.
    const items = (children ?? []).map((id) => {
      const child = this.containers.get(id)!;
      const m = made(child, { carouselItem: true, alt_text: child.alt_text });
      child.postId = m.id;
      this.posts.set(m.id, m);
      return m.id;
    });
    const post: Post = made(c, { ...attached, ...(children ? { children: items } : {}) });
    this.posts.set(post.id, post);
    this.publishes.push({ id: post.id, owner: this.caller.id, at: post.timestamp });
    c.postId = post.id;
    return ok({ id: post.id });
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
      .filter((x) => !x.carouselItem && x.timestamp >= since && x.timestamp <= until)
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
    return ok({ data: page.map((x) => this.mediaView(x, fields)), paging });
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

/**
 * A stateful emulator of Document 2, interface A: the short-post service (`/v1.0`). Containers are processed
 * after a configurable delay, publishes closer than 10 seconds apart are refused (code 4), and the limits of the
 * document are enforced (text 500 characters, image 8 MB, video 100 MB and 60 seconds).
 */
import { Emulator, HttpError, idSequence, type Reply, type Request } from "../kit";
import { graphError, ok, params, usageHeader } from "../graph";

export const POSTS_APP = { id: "400000000000001", secret: "posts-app-secret-0123" };
export const POSTS_USER_TOKEN = "posts-user-token-0123456789";
export const POSTS_APP_TOKEN = "posts-app-token-0123456789";
export const POSTS_REFRESH_TOKEN = "posts-refresh-token-012345";
export const POSTS_AUTH_CODE = "posts-auth-code-0123";
const USER = { id: "500000000000001", username: "examplebakery", biography: "Bread since 1921" };

type Status = "IN_PROGRESS" | "FINISHED" | "ERROR" | "EXPIRED" | "PUBLISHED";

interface Container {
  id: string;
  media_type: "TEXT" | "IMAGE" | "VIDEO";
  text?: string;
  media_url?: string;
  createdAt: number;
  /** How long this container is IN_PROGRESS. */
  processingMs: number;
  error?: string;
  postId?: string;
}

interface Post {
  id: string;
  media_type: string;
  media_url?: string;
  text?: string;
  timestamp: number;
}

export interface PostsEmulatorOptions {
  port?: number;
  /**
   * How long a container stays IN_PROGRESS: by default 2 to 5 seconds, drawn for each container (Document 2's
   * advised wait); a test sets a fixed (shorter) time explicitly.
   */
  processingMs?: number;
  /** Minimum spacing between publishes (code 4 when closer). */
  publishSpacingMs?: number;
}

/**
 * Media the emulator can "download": a URL's size and length come from its query (`?bytes=`, `?seconds=`), and a
 * host named `unreachable.example` cannot be fetched.
 */
function mediaProblem(type: string, url: string): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return `FAILED_DOWNLOADING_${type}: not a URL`;
  }
  if (!/^https?:$/.test(u.protocol) || u.hostname === "unreachable.example") return `FAILED_DOWNLOADING_${type}: the media URL is not publicly reachable`;
  const bytes = Number(u.searchParams.get("bytes") ?? 200_000);
  const seconds = Number(u.searchParams.get("seconds") ?? 10);
  if (type === "IMAGE" && bytes >= 8 * 1024 * 1024) return "FAILED_PROCESSING_IMAGE: images must be under 8 MB";
  if (type === "VIDEO" && bytes >= 100 * 1024 * 1024) return "FAILED_PROCESSING_VIDEO: videos must be under 100 MB";
  if (type === "VIDEO" && seconds >= 60) return "FAILED_PROCESSING_VIDEO: videos must be under 60 seconds";
  return undefined;
}

export class PostsEmulator extends Emulator {
  readonly processingMs?: number;
  readonly publishSpacingMs: number;
  containers = new Map<string, Container>();
  posts = new Map<string, Post>();
  subscriptions = new Map<string, { object: string; callback_url: string; fields: string[]; verify_token: string }>();
  tokens = new Set<string>();
  lastPublish = -Infinity;
  deletesToday: number[] = [];
  nextId = idSequence("posts");

  constructor(options: PostsEmulatorOptions = {}) {
    super("posts", options.port ?? 0);
    this.processingMs = options.processingMs;
    this.publishSpacingMs = options.publishSpacingMs ?? 10_000;
    this.reset();
    this.registerRoutes();
  }

  reset(): void {
    this.nextId = idSequence("posts");
    this.containers.clear();
    this.posts.clear();
    this.subscriptions.clear();
    this.tokens = new Set([POSTS_USER_TOKEN]);
    this.lastPublish = -Infinity;
    this.deletesToday = [];
  }

  protected notFound(req: Request): Reply {
    return graphError(404, 100, `Unknown path: ${req.path}`, "SocialAPIException");
  }

  protected faultReply(status: number, retryAfter?: number): Reply {
    const body = status === 429
      ? { error: { message: "Application request limit reached", type: "SocialAPIException", code: 4, is_transient: true } }
      : { error: { message: "An unknown error occurred", type: "SocialAPIException", code: 1, is_transient: true } };
    return { status, body, headers: status === 429 ? { "retry-after": String(retryAfter ?? 1) } : {} };
  }

  /** Bearer token (or `access_token`); the subscriptions endpoint wants the app token. */
  protected before(req: Request): Record<string, string> {
    if (!req.path.startsWith("/v1.0")) return {};
    const token = req.headers.authorization?.replace(/^Bearer /, "") ?? params(req).access_token;
    const appCall = req.path.endsWith("/subscriptions");
    if (appCall ? token !== POSTS_APP_TOKEN : !this.tokens.has(token ?? "")) {
      graphError(401, 190, appCall ? "Invalid OAuth access token: subscriptions need the app token" : "Invalid OAuth access token");
    }
    return { "x-app-usage": usageHeader(this.log.length, 4800), "x-business-use-case-usage": usageHeader(this.log.length, 4800) };
  }

  status(c: Container): Status {
    if (c.postId) return "PUBLISHED";
    const age = this.now() - c.createdAt;
    if (age > 24 * 3600 * 1000) return "EXPIRED";
    if (age < c.processingMs) return "IN_PROGRESS";
    return c.error ? "ERROR" : "FINISHED";
  }

  private postView(p: Post, fields = "id") {
    const all: Record<string, unknown> = {
      id: p.id,
      media_type: p.media_type === "TEXT" ? "TEXT_POST" : p.media_type,
      media_url: p.media_url,
      permalink: `https://posts.example/@${USER.username}/post/${p.id}`,
      text: p.text,
      timestamp: new Date(p.timestamp).toISOString().replace(/\.\d+Z$/, "+0000"),
      username: USER.username,
      is_quote_post: false,
      like_count: 0,
      reply_count: 0,
      repost_count: 0,
      quote_count: 0,
    };
    return Object.fromEntries(fields.split(",").filter((f) => all[f] !== undefined).map((f) => [f, all[f]]).concat([["id", p.id]]));
  }

  private registerRoutes(): void {
    this.route("POST", "/oauth/access_token", (req) => {
      const p = params(req);
      if (p.client_id !== POSTS_APP.id || p.client_secret !== POSTS_APP.secret) graphError(400, 101, "Error validating client secret", "OAuthException");
      if (p.grant_type !== "authorization_code" || p.code !== POSTS_AUTH_CODE) graphError(400, 100, "Invalid authorization code", "OAuthException");
      return ok({ access_token: POSTS_USER_TOKEN, user_id: USER.id, token_type: "bearer" });
    });
    this.route("GET", "/refresh_access_token", (req) => {
      const p = params(req);
      if (p.grant_type !== "th_refresh_token" || (p.refresh_token !== POSTS_REFRESH_TOKEN && !this.tokens.has(p.refresh_token ?? p.access_token ?? ""))) {
        graphError(400, 190, "Invalid OAuth access token", "OAuthException");
      }
      const fresh = `posts-refreshed-${this.nextId().slice(0, 12)}`;
      this.tokens.add(fresh);
      return ok({ access_token: fresh, token_type: "bearer", expires_in: 60 * 24 * 3600 });
    });

    this.route("GET", "/v1.0/me", (req) => {
      const all: Record<string, string> = { id: USER.id, username: USER.username, posts_profile_picture_url: "https://posts.example/pic.jpg", posts_biography: USER.biography };
      const fields = (params(req).fields ?? "id,username").split(",");
      return ok(Object.fromEntries(fields.filter((f) => f in all).map((f) => [f, all[f]]).concat([["id", USER.id]])));
    });
    this.route("POST", "/v1.0/me/posts", (req) => {
      const p = params(req);
      const type = p.media_type as Container["media_type"];
      if (!["TEXT", "IMAGE", "VIDEO"].includes(type)) graphError(400, 100, "Param media_type must be one of TEXT, IMAGE, VIDEO", "SocialAPIException");
      if (p.text && [...p.text].length > 500) graphError(400, 100, "Param text must be at most 500 characters", "SocialAPIException");
      if (type === "TEXT" && !p.text) graphError(400, 100, "Param text is required for TEXT posts", "SocialAPIException");
      const url = type === "IMAGE" ? p.image_url : type === "VIDEO" ? p.video_url : undefined;
      if (type !== "TEXT" && !url) graphError(400, 100, `Param ${type.toLowerCase()}_url is required for ${type} posts`, "SocialAPIException");
      const c: Container = { id: this.nextId().slice(0, 17), media_type: type, text: p.text, media_url: url, createdAt: this.now(), processingMs: this.processingMs ?? 2000 + Math.floor(Math.random() * 3001), error: url ? mediaProblem(type, url) : undefined };
      this.containers.set(c.id, c);
      return ok({ id: c.id });
    });
    this.route("POST", "/v1.0/me/posts_publish", (req) => {
      const c = this.containers.get(params(req).creation_id ?? "") ?? graphError(400, 100, "Param creation_id is not a container", "SocialAPIException");
      const status = this.status(c);
      if (status === "IN_PROGRESS") graphError(400, 24, "The media is not ready to be published, please wait a moment", "SocialAPIException", 4279009);
      if (status === "ERROR") graphError(400, 9001, `Media could not be processed: ${c.error}`, "SocialAPIException");
      if (status === "EXPIRED") graphError(400, 24, "The container expired: it was not published within 24 hours", "SocialAPIException");
      if (status === "PUBLISHED") graphError(400, 100, "The container was already published", "SocialAPIException");
      const wait = this.lastPublish + this.publishSpacingMs - this.now();
      if (wait > 0) {
        // Retry-After is this emulator's courtesy; the document only says to wait at least 10 seconds.
        throw new HttpError({
          status: 429,
          headers: { "retry-after": String(Math.ceil(wait / 1000)) },
          body: { error: { message: "Application request limit reached: wait at least 10 seconds between publishes", type: "SocialAPIException", code: 4, is_transient: true } },
        });
      }
      this.lastPublish = this.now();
      const post: Post = { id: this.nextId().slice(0, 17), media_type: c.media_type, media_url: c.media_url, text: c.text, timestamp: this.now() };
      this.posts.set(post.id, post);
      c.postId = post.id;
      return ok({ id: post.id });
    });
    this.route("GET", "/v1.0/me/posts", (req) => {
      const { fields, limit } = params(req);
      const list = [...this.posts.values()].sort((a, b) => b.timestamp - a.timestamp).slice(0, Number(limit ?? 25));
      return ok({ data: list.map((p) => this.postView(p, fields)), paging: { cursors: { before: "B", after: "A" } } });
    });
    this.route("POST", "/v1.0/:app/subscriptions", (req) => {
      if (req.params.app !== POSTS_APP.id) graphError(400, 100, "Unknown app id", "SocialAPIException");
      const p = params(req);
      const fields = String(p.fields ?? "").split(",").filter(Boolean);
      if (p.object !== "posts") graphError(400, 100, "Param object must be posts", "SocialAPIException");
      if (!/^https:\/\//.test(p.callback_url ?? "")) graphError(400, 100, "Param callback_url must be an https URL", "SocialAPIException");
      if (!fields.length || fields.some((f) => !["mentions", "replies"].includes(f))) graphError(400, 100, "Param fields must be mentions and/or replies", "SocialAPIException");
      if (!p.verify_token) graphError(400, 100, "Param verify_token is required", "SocialAPIException");
      this.subscriptions.set(p.object, { object: p.object, callback_url: p.callback_url, fields, verify_token: p.verify_token });
      return ok({ success: true });
    });
    this.route("GET", "/v1.0/:app/subscriptions", (req) =>
      req.params.app !== POSTS_APP.id ? graphError(400, 100, "Unknown app id", "SocialAPIException") : ok({ data: [...this.subscriptions.values()].map((s) => ({ object: s.object, callback_url: s.callback_url, active: true, fields: s.fields.map((name) => ({ name, version: "v1.0" })) })) }),
    );
    this.route("DELETE", "/v1.0/:app/subscriptions", (req) => {
      this.subscriptions.delete(params(req).object ?? "posts");
      return ok({ success: true });
    });
    this.route("GET", "/v1.0/:id", (req) => {
      const fields = params(req).fields;
      const c = this.containers.get(req.params.id);
      if (c) {
        const status = this.status(c);
        return ok({ id: c.id, status, ...(status === "ERROR" ? { error_message: c.error } : {}) });
      }
      const p = this.posts.get(req.params.id) ?? graphError(400, 100, `Object with ID '${req.params.id}' does not exist`, "SocialAPIException", 33);
      return ok(this.postView(p, fields));
    });
    this.route("DELETE", "/v1.0/:id", (req) => {
      const p = this.posts.get(req.params.id) ?? graphError(400, 100, `Object with ID '${req.params.id}' does not exist`, "SocialAPIException", 33);
      this.deletesToday = this.deletesToday.filter((t) => t > this.now() - 86_400_000);
      if (this.deletesToday.length >= 100) graphError(429, 4, "Application request limit reached: at most 100 deletes per day", "SocialAPIException");
      this.deletesToday.push(this.now());
      this.posts.delete(p.id);
      return ok({ success: true, deleted_id: p.id });
    });
  }
}

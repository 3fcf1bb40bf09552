/**
 * The short-post service client: the Threads API (`graph.threads.net/v1.0`, bearer tokens). A post is a container
 * made at `/me/threads`, published at `/me/threads_publish`; the account may publish 250 posts per 24 hours, which
 * `/me/threads_publishing_limit` tells. Counts are not fields of a post: they come from `/{media}/insights`.
 */
import { POSTS_SETTINGS, read, readBaseUrl, readNumber, requireSecret, clientPerSettings } from "../config";
import { GraphClient } from "../graph/client";
import { AuthError, ConfigError } from "../http/errors";
import { log, registerSecret } from "../log";
import { HttpClient } from "../http/client";

/** The fields of a post this provider reads (every one exists on the service's media node). */
export const POST_FIELDS = "id,media_type,media_url,permalink,shortcode,text,timestamp,username";
export const PROFILE_FIELDS = "id,username,name,threads_profile_picture_url,threads_biography";
/** The insight metrics of a post (threads_manage_insights). */
export const POST_METRICS = ["views", "likes", "replies", "reposts", "quotes", "shares"] as const;

/** A long-lived token this close to its expiry is refreshed for the run. */
export const TOKEN_REFRESH_WINDOW_MS = 7 * 86_400_000;

export interface PublishingLimit {
  quota_usage: number;
  config: { quota_total: number; quota_duration: number };
  /** Deletes in the window, and their quota (100 per 24 hours), where the service tells them. */
  delete_quota_usage?: number;
  delete_config?: { quota_total: number; quota_duration: number };
  /** Replies in the window, and their own quota (1,000 per 24 hours), apart from posts'. */
  reply_quota_usage?: number;
  reply_config?: { quota_total: number; quota_duration: number };
}

export class PostsClient extends GraphClient {
  constructor(
    http: HttpClient,
    maxRetries: number,
    private readonly token: string | undefined,
    private readonly v: string,
  ) {
    super("posts", http, maxRetries);
  }

  static fromConfig(): PostsClient {
    const s = POSTS_SETTINGS;
    const maxRetries = readNumber(s.maxRetries);
    const version = read(s.apiVersion) ?? "v1.0";
    if (!/^v\d+\.\d+$/.test(version)) throw new ConfigError(`ops:postsApiVersion must be a version such as v1.0; got "${version}"`);
    const v = `/${version}`;
    const http = new HttpClient({
      service: "posts",
      baseUrl: readBaseUrl(s.baseUrl, v),
      headers: {},
      timeoutMs: readNumber(s.timeoutSeconds) * 1000,
      maxRetries,
    });
    return new PostsClient(http, maxRetries, read(s.accessToken), v);
  }

  private resolved?: Promise<string>;
  /** When the token this run uses expires (Unix seconds), where the service told it: for the preview to say. */
  tokenInfo?: { expiresAt?: number; refreshed?: boolean };

  /**
   * The token this run uses, settled once per run and kept in memory only:
   * - with the app's secret set (ops:postsAppSecret, THREADS_APP_SECRET), a short-lived token is exchanged for a
   *   long-lived one (`th_exchange_token`); a token that is already long-lived cannot be (190) and is used as it is;
   * - a long-lived token within a week of its expiry (`debug_token` tells it) is refreshed (`th_refresh_token`, 60
   *   days more), so a run on the token's last days succeeds; the preview says when the configured one expires.
   */
  private user(): Promise<string> {
    this.resolved ??= this.settleToken().catch((e) => {
      this.resolved = undefined;
      throw e;
    });
    return this.resolved;
  }

  private async settleToken(): Promise<string> {
    const token = this.token ?? requireSecret(POSTS_SETTINGS.accessToken, "posts: no access token");
    const secret = read(POSTS_SETTINGS.appSecret);
    if (secret) {
      try {
        const r = await this.call<{ access_token: string; expires_in?: number }>("GET", "/access_token", {
          grant_type: "th_exchange_token",
          client_secret: secret,
          access_token: token,
        });
        registerSecret(r.access_token);
        // The configured token is the short-lived one, which dies within the hour: nothing to say of its expiry.
        this.tokenInfo = undefined;
        log("posts: the configured short-lived token was exchanged for a long-lived one for this run (kept in memory only)");
        return r.access_token;
      } catch (e) {
        if (!(e instanceof AuthError)) throw e; // else: already long-lived
      }
    }
    const expiresAt = await this.expiryOf(token);
    this.tokenInfo = { expiresAt };
    if (!expiresAt || expiresAt * 1000 - Date.now() > TOKEN_REFRESH_WINDOW_MS || expiresAt * 1000 <= Date.now()) return token;
    const r = await this.call<{ access_token: string; expires_in?: number }>("GET", "/refresh_access_token", {
      grant_type: "th_refresh_token",
      access_token: token,
    }).catch((e: Error) => {
      log(`posts: the access token expires within a week and could not be refreshed (${e.message}); using it as it is`);
      return undefined;
    });
    if (!r) return token;
    registerSecret(r.access_token);
    this.tokenInfo = { expiresAt, refreshed: true };
    log("posts: the access token expires within a week: refreshed for this run (th_refresh_token, kept in memory only)");
    return r.access_token;
  }

  /**
   * When a token expires (Unix seconds), as `debug_token` answers it to a tester's token of the app (the user's own,
   * for an app in development); undefined where the service does not tell it.
   */
  private async expiryOf(token: string): Promise<number | undefined> {
    try {
      const { data } = await this.call<{ data: { expires_at?: number; is_valid?: boolean } }>(
        "GET",
        `${this.v}/debug_token`,
        { input_token: token },
        token,
        true,
      );
      return data.expires_at || undefined;
    } catch {
      return undefined;
    }
  }

  /** Safe to repeat: a container that is never published is shown nowhere and expires after 24 hours. */
  async createContainer(fields: Record<string, string | undefined>) {
    return this.call<{ id: string }>("POST", `${this.v}/me/threads`, fields, await this.user(), true, true);
  }
  async container(id: string) {
    return this.call<{ id: string; status: string; error_message?: string }>(
      "GET",
      `${this.v}/${id}`,
      { fields: "status,error_message" },
      await this.user(),
      true,
    );
  }
  /**
   * Not repeated on an unknown outcome (the handler asks the container whether it was published), nor waited out
   * when throttled: the handler first asks whether the publishing quota is what is used up.
   */
  async publish(creationId: string) {
    return this.call<{ id: string }>(
      "POST",
      `${this.v}/me/threads_publish`,
      { creation_id: creationId },
      await this.user(),
      true,
      false,
      0,
    );
  }
  async post(id: string, fields = POST_FIELDS) {
    return this.call<Record<string, any>>("GET", `${this.v}/${id}`, { fields }, await this.user(), true);
  }
  async deletePost(id: string) {
    return this.call<{ success: boolean }>("DELETE", `${this.v}/${id}`, {}, await this.user(), true);
  }
  async me(fields = PROFILE_FIELDS) {
    return this.call<Record<string, string>>("GET", `${this.v}/me`, { fields }, await this.user(), true);
  }
  private whose?: Promise<{ id: string; username: string }>;
  /** The account the token is of (`/me` id and username), asked once a run: posts belong to it, or the token is wrong. */
  account(): Promise<{ id: string; username: string }> {
    this.whose ??= this.me("id,username").then((m) => ({ id: m.id, username: m.username }));
    this.whose.catch(() => (this.whose = undefined)); // a failure is asked again
    return this.whose;
  }
  /**
   * The account's posts, newest first: up to `limit`, following `paging.next`; `since` in Unix seconds. Its replies
   * are listed apart (`edge` "replies", `/me/replies`), not among its threads.
   */
  async threads(limit = 25, fields = POST_FIELDS, since?: number, edge: "threads" | "replies" = "threads"): Promise<Record<string, any>[]> {
    const out: Record<string, any>[] = [];
    let page = await this.call<{ data: Record<string, any>[]; paging?: { next?: string } }>(
      "GET",
      `${this.v}/me/${edge}`,
      { fields, limit: String(Math.min(limit, 100)), since: since === undefined ? undefined : String(Math.floor(since)) },
      await this.user(),
      true,
    );
    for (;;) {
      out.push(...page.data);
      const next = page.paging?.next;
      if (out.length >= limit || !next || page.data.length === 0) return out.slice(0, limit);
      const url = new URL(next);
      page = await this.call(
        "GET",
        `${this.v}/me/${edge}`,
        Object.fromEntries([...url.searchParams].filter(([k]) => k !== "access_token")),
        await this.user(),
        true,
      );
    }
  }
  async publishingLimit(): Promise<PublishingLimit> {
    const r = await this.call<{ data: PublishingLimit[] }>(
      "GET",
      `${this.v}/me/threads_publishing_limit`,
      { fields: "quota_usage,config,reply_quota_usage,reply_config,delete_quota_usage,delete_config" },
      await this.user(),
      true,
    );
    return r.data[0] ?? { quota_usage: 0, config: { quota_total: 250, quota_duration: 86_400 } };
  }
  /** A post's counts by metric name. */
  async insights(id: string, metrics: readonly string[] = POST_METRICS): Promise<Record<string, number>> {
    const r = await this.call<{ data: { name: string; values?: { value: number }[]; total_value?: { value: number } }[] }>(
      "GET",
      `${this.v}/${id}/insights`,
      { metric: metrics.join(",") },
      await this.user(),
      true,
    );
    return Object.fromEntries(r.data.map((m) => [m.name, m.total_value?.value ?? m.values?.[0]?.value ?? 0]));
  }
}

export const posts: () => PostsClient = clientPerSettings(Object.values(POSTS_SETTINGS), () => PostsClient.fromConfig());

/**
 * The short-post service client (`/v1.0`, bearer tokens). Publishing is paced by one queue for the whole run:
 * the service refuses publishes closer than 10 seconds apart.
 */
import { POSTS_SETTINGS, read, readBaseUrl, readNumber, requireSecret, clientPerSettings } from "../config";
import { GraphClient } from "../graph/client";
import { HttpClient } from "../http/client";
import { log } from "../log";

const V = "/v1.0";
export const PUBLISH_SPACING_MS = 10_000 + 250;

let lastPublish = -Infinity;
let publishQueue: Promise<unknown> = Promise.resolve();

export class PostsClient extends GraphClient {
  constructor(http: HttpClient, maxRetries: number, private readonly tokens: { user?: string; app?: string }) {
    super("posts", http, maxRetries);
  }

  static fromConfig(): PostsClient {
    const s = POSTS_SETTINGS;
    const maxRetries = readNumber(s.maxRetries);
    const base = readBaseUrl(s.baseUrl, V);
    const http = new HttpClient({ service: "posts", baseUrl: base, headers: {}, timeoutMs: readNumber(s.timeoutSeconds) * 1000, maxRetries });
    return new PostsClient(http, maxRetries, { user: read(s.accessToken), app: read(s.appToken) });
  }

  private user(): string {
    return this.tokens.user ?? requireSecret(POSTS_SETTINGS.accessToken, "posts: no access token");
  }
  private app(): string {
    return this.tokens.app ?? requireSecret(POSTS_SETTINGS.appToken, "posts: webhook subscriptions need the app token");
  }

  /** Safe to repeat: a container that is never published is shown nowhere and expires after 24 hours. */
  createContainer(fields: Record<string, string | undefined>) {
    return this.call<{ id: string }>("POST", `${V}/me/posts`, fields, this.user(), true, true);
  }
  container(id: string) {
    return this.call<{ id: string; status: string; error_message?: string }>("GET", `${V}/${id}`, { fields: "status,error_message" }, this.user(), true);
  }
  /** Publishes through the run's queue: at least 10 seconds after the previous publish of this process. */
  publish(creationId: string): Promise<{ id: string }> {
    const turn = publishQueue.then(async () => {
      const wait = lastPublish + PUBLISH_SPACING_MS - Date.now();
      if (wait > 0) {
        log(`posts: waiting ${(wait / 1000).toFixed(1)} s before publishing (the service allows one publish per 10 seconds)`);
        await new Promise((r) => setTimeout(r, wait));
      }
      try {
        return await this.call<{ id: string }>("POST", `${V}/me/posts_publish`, { creation_id: creationId }, this.user(), true);
      } finally {
        lastPublish = Date.now();
      }
    });
    publishQueue = turn.catch(() => undefined);
    return turn;
  }
  post(id: string, fields = "id,media_type,media_url,permalink,text,timestamp,username") {
    return this.call<Record<string, any>>("GET", `${V}/${id}`, { fields }, this.user(), true);
  }
  deletePost(id: string) {
    return this.call<{ success: boolean }>("DELETE", `${V}/${id}`, {}, this.user(), true);
  }
  me(fields = "id,username,posts_profile_picture_url,posts_biography") {
    return this.call<Record<string, string>>("GET", `${V}/me`, { fields }, this.user(), true);
  }
  posts(limit = 25, fields = "id,media_type,permalink,text,timestamp,like_count,reply_count,repost_count,quote_count") {
    return this.call<{ data: Record<string, any>[] }>("GET", `${V}/me/posts`, { fields, limit: String(limit) }, this.user(), true);
  }
  subscribe(appId: string, s: { object: string; callback_url: string; fields: string; verify_token: string }) {
    return this.call("POST", `${V}/${appId}/subscriptions`, s, this.app(), true, true); // replaces the field set: safe to repeat
  }
  subscriptions(appId: string) {
    return this.call<{ data: { object: string; callback_url: string; fields: { name: string }[] }[] }>("GET", `${V}/${appId}/subscriptions`, {}, this.app(), true);
  }
  unsubscribe(appId: string, object: string) {
    return this.call("DELETE", `${V}/${appId}/subscriptions`, { object }, this.app(), true);
  }
}

export const posts: () => PostsClient = clientPerSettings(Object.values(POSTS_SETTINGS), () => PostsClient.fromConfig());

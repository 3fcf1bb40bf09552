/**
 * The page-management service client (the Graph API, `/v26.0` unless ops:pagesApiVersion says otherwise). Page
 * calls need a page token: a configured user token is turned into the page token of each page it touches (every
 * page of `GET /me/accounts`), once per run. Reads issued together are sent as one batch call (`POST /` with up to
 * 50 items), which is what keeps a refresh of many posts cheap.
 */
import { PAGES_SETTINGS, read, readNumber, readUrl, requireSecret, clientPerSettings } from "../config";
import { GraphClient } from "../graph/client";
import { graphError, UnreachableObjectError } from "../graph/errors";
import { HttpClient } from "../http/client";
import { ApiError, AuthError, RateLimitError } from "../http/errors";
import { limiterFor } from "../http/limiter";
import { log, registerSecret } from "../log";
import { pagesVersion } from "./versions";

/** How long a derivation refused for the user's hourly allowance is not tried again. */
const THROTTLED_FOR_MS = 10 * 60_000;

interface Account {
  id: string;
  name: string;
  access_token?: string;
  tasks?: string[];
}

interface Pending {
  path: string;
  params: Record<string, string>;
  resolve: (v: any) => void;
  reject: (e: unknown) => void;
}

export class PagesClient extends GraphClient {
  private pageTokens = new Map<string, Promise<string>>();
  private tasks = new Map<string, string[]>();
  private queue = new Map<string, Pending[]>();

  constructor(
    http: HttpClient,
    maxRetries: number,
    private readonly token: string,
    appSecret?: string,
  ) {
    super("pages", http, maxRetries, appSecret);
  }

  static fromConfig(): PagesClient {
    const s = PAGES_SETTINGS;
    const token = requireSecret(s.accessToken, "pages: no access token");
    const maxRetries = readNumber(s.maxRetries);
    const http = new HttpClient({
      service: "pages",
      // A base URL given with a version (`https://graph.facebook.com/v21.0`) has it replaced by ops:pagesApiVersion.
      baseUrl: `${readUrl(s.baseUrl).replace(/\/v\d+\.\d+\/?$/, "")}/${pagesVersion()}`,
      headers: {},
      timeoutMs: readNumber(s.timeoutSeconds) * 1000,
      maxRetries,
      // 4800 page calls per hour per app: paced so a large stack never meets the limit.
      limiter: limiterFor(`pages ${read(s.baseUrl)}`, { requests: 4560, perSeconds: 3600 }),
    });
    return new PagesClient(http, maxRetries, token, read(s.appSecret));
  }

  /**
   * The token for calls on `pageId`: the configured one when it is that page's, else derived from it as a user.
   * A failed derivation is tried again by the next call, except when the service still throttled it after the
   * client's waits (codes 4, 17, 32, 613: allowances counted per hour, such as 200 calls per user): then every call
   * of the next minutes fails at once with the same remedy, instead of each waiting out the retries again.
   */
  pageToken(pageId: string): Promise<string> {
    let p = this.pageTokens.get(pageId);
    if (!p) {
      p = this.derive(pageId);
      p.catch((e) => {
        if (e instanceof RateLimitError) setTimeout(() => this.pageTokens.delete(pageId), THROTTLED_FOR_MS).unref();
        else this.pageTokens.delete(pageId);
      });
      this.pageTokens.set(pageId, p);
    }
    return p;
  }

  /**
   * What the configured user token may do on a page (`tasks` of `/me/accounts`: MANAGE, CREATE_CONTENT, MODERATE,
   * ...), read with the page token once per run; undefined when the configured token is the page's own (the
   * service lists no tasks for it).
   */
  async pageTasks(pageId: string): Promise<string[] | undefined> {
    await this.pageToken(pageId);
    return this.tasks.get(pageId);
  }

  private exchanged?: Promise<string>;
  /** What `debug_token` said of the configured token (with the app's id and secret), for the preview. */
  tokenInfo?: { type?: string; expiresAt?: number; scopes?: string[] };

  /**
   * The configured token, or, when the app's id and secret are set and it is a short-lived user token (it expires
   * within a day), the long-lived token it is exchanged for (`fb_exchange_token`, 60 days), once per run. The
   * exchanged token lives in this process only: nothing of it reaches state.
   */
  userToken(): Promise<string> {
    const appId = read(PAGES_SETTINGS.appId);
    const secret = read(PAGES_SETTINGS.appSecret);
    if (!appId || !secret) return Promise.resolve(this.token);
    this.exchanged ??= (async () => {
      const app = `${appId}|${secret}`;
      const { data } = await this.call<{ data: { type?: string; expires_at?: number; is_valid?: boolean; scopes?: string[] } }>(
        "GET",
        "/debug_token",
        { input_token: this.token, access_token: app },
      );
      this.tokenInfo = { type: data.type, expiresAt: data.expires_at, scopes: data.scopes };
      const short =
        data.type === "USER" && data.is_valid !== false && !!data.expires_at && data.expires_at * 1000 - Date.now() < 86_400_000;
      if (!short) return this.token;
      const long = await this.call<{ access_token: string; expires_in?: number }>("GET", "/oauth/access_token", {
        grant_type: "fb_exchange_token",
        client_id: appId,
        client_secret: secret,
        fb_exchange_token: this.token,
      });
      registerSecret(long.access_token);
      this.tokenInfo = {
        type: data.type,
        expiresAt: long.expires_in ? Math.floor(Date.now() / 1000) + long.expires_in : undefined,
        scopes: data.scopes,
      };
      log(`pages: the configured short-lived user token was exchanged for a long-lived one for this run (kept in memory only)`);
      return long.access_token;
    })();
    this.exchanged.catch(() => (this.exchanged = undefined));
    return this.exchanged;
  }

  private businesses = new Map<string, Promise<string | undefined>>();
  /** The business that owns `pageId` (its `business` field), read once per run; undefined when none does. */
  businessOf(pageId: string): Promise<string | undefined> {
    let b = this.businesses.get(pageId);
    if (!b) {
      b = this.read<{ business?: { id: string } }>(pageId, `/${pageId}`, { fields: "business" }).then((p) => p.business?.id);
      b.catch(() => this.businesses.delete(pageId));
      this.businesses.set(pageId, b);
    }
    return b;
  }

  private app?: Promise<string>;
  /** This app's id: ops:pagesAppId, else the app the configured token was issued to (`GET /app`), read once. */
  appId(): Promise<string> {
    const configured = read(PAGES_SETTINGS.appId);
    if (configured) return Promise.resolve(configured);
    this.app ??= this.userToken()
      .then((t) => this.call<{ id: string }>("GET", "/app", { fields: "id" }, t))
      .then((a) => a.id);
    this.app.catch(() => (this.app = undefined));
    return this.app;
  }

  /** A preview's one read (preflight.ts): who the configured token belongs to. */
  whoAmI(): Promise<{ id: string; name?: string }> {
    return this.userToken().then((t) => this.call<{ id: string; name?: string }>("GET", "/me", { fields: "id,name" }, t));
  }

  private async derive(pageId: string): Promise<string> {
    const token = await this.userToken();
    const me = await this.call<{ id: string; name?: string }>("GET", "/me", { fields: "id,name" }, token);
    if (me.id === pageId) return token;
    const page = await this.findAccount(pageId).catch((e) => {
      // A page token has no `accounts` (code 100, "nonexisting field"): it is another page's token.
      if (e instanceof AuthError || (e instanceof ApiError && e.code === 100)) {
        throw new AuthError({
          service: "pages",
          message: `the configured token is not a token of page ${pageId}, and not a user token that manages it`,
          remedy: "Set ops:pagesAccessToken to that page's token, or to a token of a user with a role on the page",
        });
      }
      throw e;
    });
    if (!page?.access_token) {
      throw new AuthError({
        service: "pages",
        message: `the user ${me.name ?? me.id} has no role on page ${pageId}`,
        remedy: "Give the user a role on the page, or use the page's own token",
      });
    }
    registerSecret(page.access_token);
    if (page.tasks) this.tasks.set(pageId, page.tasks);
    log(`pages: using the page token of "${page.name}" (${pageId}), derived from the configured user token`);
    return page.access_token;
  }

  /** The user's page `pageId` among every page of `/me/accounts` (25 a page: `paging.next` is followed). */
  private async findAccount(pageId: string): Promise<Account | undefined> {
    const token = await this.userToken();
    let page = await this.call<{ data: Account[]; paging?: { next?: string } }>(
      "GET",
      "/me/accounts",
      { fields: "id,name,access_token,tasks", limit: "100" },
      token,
    );
    for (;;) {
      const found = page.data.find((a) => a.id === pageId);
      if (found || !page.paging?.next || page.data.length === 0) return found;
      const next = new URL(page.paging.next);
      page = await this.call(
        "GET",
        "/me/accounts",
        Object.fromEntries([...next.searchParams].filter(([k]) => !["access_token", "appsecret_proof"].includes(k))),
        token,
      );
    }
  }

  /** A page call with the page's token. */
  async onPage<T = any>(pageId: string, method: "GET" | "POST" | "DELETE", path: string, params: Record<string, unknown> = {}): Promise<T> {
    return this.call<T>(method, path, params, await this.pageToken(pageId));
  }

  /** A page POST that sets a state (a role, the app's field set, a post's message): safe to repeat, so retried. */
  async setOnPage<T = any>(pageId: string, path: string, params: Record<string, unknown>): Promise<T> {
    return this.call<T>("POST", path, params, await this.pageToken(pageId), false, true);
  }

  /** A read that may travel in a batch with the other reads of the same moment. */
  async read<T = any>(pageId: string, path: string, params: Record<string, string> = {}): Promise<T> {
    const token = await this.pageToken(pageId);
    return new Promise<T>((resolve, reject) => {
      const list = this.queue.get(token) ?? [];
      list.push({ path, params, resolve, reject });
      this.queue.set(token, list);
      if (list.length === 1) setTimeout(() => void this.flush(token), 5);
    });
  }

  private async flush(token: string): Promise<void> {
    const all = this.queue.get(token) ?? [];
    this.queue.delete(token);
    for (let i = 0; i < all.length; i += 50) {
      const chunk = all.slice(i, i + 50);
      if (chunk.length === 1) {
        const [one] = chunk;
        this.call("GET", one.path, one.params, token).then(one.resolve, one.reject);
        continue;
      }
      const batch = chunk.map((p) => ({ method: "GET", relative_url: `${p.path.replace(/^\//, "")}?${new URLSearchParams(p.params)}` }));
      try {
        const answers = await this.call<({ code: number; body: string } | null)[]>(
          "POST",
          "/",
          { batch: JSON.stringify(batch) },
          token,
          false,
          true,
        );
        chunk.forEach((p, j) => {
          const a = answers[j];
          // An item the service did not finish in time comes back `null`: that read is sent again on its own.
          if (!a) return void this.call("GET", p.path, p.params, token).then(p.resolve, p.reject);
          const body = JSON.parse(a.body);
          if (a.code < 400 && !body.error) return void p.resolve(body);
          const err = graphError("pages", a.code, body.error ?? {}, "GET", p.path);
          // "Does not exist, or cannot be loaded": told apart as a single call's is (gone when the token still reads
          // what it owns), so a post deleted out of band is dropped by refresh, not a failure of it.
          if (err instanceof UnreachableObjectError) void this.tellUnreachable(err, p.path, token, false).then(p.reject, p.reject);
          else p.reject(err);
        });
      } catch (e) {
        chunk.forEach((p) => p.reject(e));
      }
    }
  }
}

export const pages: () => PagesClient = clientPerSettings(Object.values(PAGES_SETTINGS), () => PagesClient.fromConfig());

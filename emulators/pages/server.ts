/**
 * A stateful emulator of the Graph API for Pages, answering as it does today: every live
 * version (`/v21.0` to `/v26.0`), an expired one answered as the oldest live version is (the `facebook-api-version`
 * header says which answered), with the real service's error codes (wire-facts) where the document gives only
 * messages. Routes are registered under one internal prefix, `V`.
 */
import { createHmac } from "node:crypto";
import { Emulator, HttpError, idSequence, type Reply, type Request } from "../kit";
import { graphError, ok, params, usageHeader } from "../graph";
import { registerPageRoutes } from "./routes";
import { seedPages, seedTokens } from "./seed";
import type { Profile } from "./profile";
import { PAGE_ID, PAGES_APP, TASKS, V, type Role } from "./directory";

/** `X-Business-Use-Case-Usage` as the service sends it: by object id, a list of use cases with their percentages. */
function businessUsage(id: string, used: number, allowance: number, waitMinutes = 0): string {
  return JSON.stringify({
    [id]: [{ type: "pages", ...JSON.parse(usageHeader(used, allowance)), estimated_time_to_regain_access: waitMinutes }],
  });
}

export {
  V,
  PAGES_APP,
  PAGES_USER_TOKEN,
  PAGES_PAGE_TOKEN,
  PAGES_MODERATOR_TOKEN,
  PAGES_EXPIRED_TOKEN,
  PAGES_SHORT_USER_TOKEN,
  PAGE_ID,
  ROLES,
  TASKS,
  ALL_TASKS,
  BUSINESS_ID,
  USERS,
  type Role,
} from "./directory";
/** Versions and when they expire (Graph API changelog, "Versions"); the newest has no date yet. */
const EXPIRES: Record<string, string | undefined> = {
  "v26.0": undefined,
  "v25.0": "2028-07-29",
  "v24.0": "2028-02-18",
  "v23.0": "2027-10-08",
  "v22.0": "2027-05-20",
  "v21.0": "2027-01-21",
  "v20.0": "2026-09-24",
  "v19.0": "2026-05-21",
  "v18.0": "2026-01-26",
  "v17.0": "2025-09-12",
};

export interface Token {
  kind: "user" | "page" | "app";
  userId?: string;
  pageId?: string;
  scopes: string[];
  expiresAt?: number; // ms; undefined: never
}

export interface PagePost {
  id: string;
  pageId: string;
  message?: string;
  link?: string;
  published: boolean;
  scheduledAt?: number; // ms
  createdAt: number;
  photos: string[];
  kind: "status" | "photo" | "link";
}

export interface Page {
  id: string;
  name: string;
  category: string;
  about: string;
  /** The rest of its profile (profile.ts): description, website, phone, emails, opening hours. */
  profile: Profile;
  /** People with a role outside a business (what `/roles` lists). */
  roles: Map<string, Role>; // user id -> role
  /** Business users given tasks on the page (`/assigned_users`). */
  assigned: Map<string, string[]>;
  business: { id: string; name: string };
  apps: Map<string, string[]>; // app id -> subscribed fields
}

export interface PagesEmulatorOptions {
  port?: number;
  /**
   * The Graph API's allowances, counted apart as the service counts them: a user token's calls per user per hour (code
   * 17 beyond) and per app per hour (code 4), the platform rate limits; a page token's calls per page over 24 hours,
   * the Pages business use case (80001 beyond; 4800 a day for a page with one engaged user, the least it counts).
   */
  limits?: { perUserPerHour: number; perAppPerHour: number; perPagePerDay?: number };
  /** More pages the first user is admin of (`/me/accounts` answers 25 a page). */
  extraPages?: number;
}

export class PagesEmulator extends Emulator {
  readonly limits: { perUserPerHour: number; perAppPerHour: number; perPagePerDay: number };
  readonly extraPages: number;
  /** The app requires `appsecret_proof` on every call made with a user or page token. */
  requireProof = false;
  /** The next N batch items are answered `null` (not finished in time). */
  batchTimeouts = 0;
  /** Whether a published photo's answer names its post (`post_id`); the service does not always. */
  photoAnswersPostId = true;
  /** The version the last versioned request asked for (a `paging.next` keeps it). */
  lastVersion = V.slice(1);
  tokens = new Map<string, Token>();
  pages = new Map<string, Page>();
  posts = new Map<string, PagePost>();
  photos = new Map<string, { id: string; pageId: string; url: string; caption?: string; postId?: string }>();
  /** The calls of the last day: a user token's (`userId`) or a page token's (`pageId`). */
  calls: { at: number; userId?: string; pageId?: string }[] = [];
  nextId = idSequence("pages");

  constructor(options: PagesEmulatorOptions = {}) {
    super("pages", options.port ?? 0);
    this.limits = { perUserPerHour: 200, perAppPerHour: 4800, perPagePerDay: 4800, ...options.limits };
    this.extraPages = options.extraPages ?? 0;
    this.reset();
    registerPageRoutes(this);
  }

  reset(): void {
    this.nextId = idSequence("pages");
    this.calls = [];
    this.photoAnswersPostId = true;
    this.batchTimeouts = 0;
    this.requireProof = false;
    this.posts.clear();
    this.photos.clear();
    this.pages = seedPages(this.extraPages);
    this.tokens = seedTokens(this.pages, this.now());
  }

  protected notFound(req: Request): Reply {
    return graphError(400, 100, `Unknown path components: ${req.path}`, "OAuthException");
  }

  /** What `user` may do on `page`: the tasks given them through the business, else their role's; undefined: nothing. */
  tasksOf(page: Page, user: string): string[] | undefined {
    const role = page.roles.get(user);
    return page.assigned.get(user) ?? (role ? TASKS[role] : undefined);
  }

  /** The version that answers `requested` at the emulator's time: itself while live, else the oldest live one. */
  servedVersion(requested: string): string {
    const live = Object.keys(EXPIRES).filter((v) => EXPIRES[v] === undefined || Date.parse(EXPIRES[v]!) > this.now());
    if (live.includes(requested)) return requested;
    const [major] = requested.slice(1).split(".").map(Number);
    if (!(requested in EXPIRES) && major > Number(live[0].slice(1).split(".")[0]))
      graphError(400, 2635, `(#2635) Unknown version ${requested}`, "OAuthException");
    return live[live.length - 1];
  }

  /** Every version is served by the same routes; the answer says which version answered. */
  protected async dispatch(req: Request): Promise<Reply> {
    const m = /^\/(v\d+\.\d+)(\/.*)?$/.exec(req.path);
    if (!m) return super.dispatch(req);
    const served = this.servedVersion(m[1]);
    this.lastVersion = m[1];
    req.path = V + (m[2] && m[2] !== "/" ? m[2].replace(/\/+$/, "") : "/"); // Graph takes a trailing slash (the official SDK sends one)
    const reply = await super.dispatch(req);
    return { ...reply, headers: { ...reply.headers, "facebook-api-version": served } };
  }

  protected faultReply(status: number, retryAfter?: number): Reply {
    // With a time to wait: the page's own limit (80001), its reset in the business use case header, in minutes.
    if (status === 429 && retryAfter !== undefined) {
      const usage = {
        [PAGE_ID]: [
          {
            type: "pages",
            call_count: 100,
            total_cputime: 20,
            total_time: 30,
            estimated_time_to_regain_access: Math.floor(retryAfter / 60),
          },
        ],
      };
      return {
        status: 400,
        body: {
          error: {
            message: "(#80001) There have been too many calls to this Page account. Wait a bit and try again.",
            type: "OAuthException",
            code: 80001,
            is_transient: true,
          },
        },
        headers: { "x-business-use-case-usage": JSON.stringify(usage) },
      };
    }
    if (status === 429)
      return {
        status: 400,
        body: { error: { message: "(#4) Application request limit reached", type: "OAuthException", code: 4, is_transient: true } },
      };
    return {
      status,
      body: {
        error: {
          message: "An unexpected error has occurred. Please retry your request later.",
          type: "OAuthException",
          code: 2,
          is_transient: true,
        },
      },
    };
  }

  /** The caller's token (query, form or JSON `access_token`), checked, counted against the call limits. */
  protected before(req: Request): Record<string, string> {
    if (!req.path.startsWith(V) || req.path === `${V}/oauth/access_token`) return {}; // app credentials, not a token
    const token = params(req).access_token ?? req.headers.authorization?.replace(/^Bearer /, "");
    const t = token ? this.tokens.get(token) : undefined;
    if (!t) graphError(400, 190, "Invalid OAuth access token - Cannot parse access token");
    // An app that requires it ("Require App Secret" in its settings) refuses calls without the token's appsecret_proof.
    if (this.requireProof && t!.kind !== "app") {
      const proof = params(req).appsecret_proof;
      if (!proof) graphError(400, 100, "API calls from the server require an appsecret_proof argument", "GraphMethodException");
      if (proof !== createHmac("sha256", PAGES_APP.secret).update(token!).digest("hex"))
        graphError(400, 100, "Invalid appsecret_proof provided in the API argument", "GraphMethodException");
    }
    if (t!.expiresAt !== undefined && t!.expiresAt <= this.now()) {
      graphError(400, 190, "Error validating access token: Session has expired", "OAuthException", 463);
    }
    const now = this.now();
    this.calls = this.calls.filter((c) => c.at > now - 86_400_000);
    const lastHour = this.calls.filter((c) => c.at > now - 3_600_000);
    // Counted apart: a user token's calls against its user's and the app's hourly allowances (X-App-Usage shows the
    // fuller), a page token's against its page's daily business use case allowance (X-Business-Use-Case-Usage).
    const mine = lastHour.filter((c) => c.userId !== undefined && c.userId === t!.userId).length;
    const app = lastHour.filter((c) => c.userId !== undefined).length;
    const pageCalls = t!.kind === "page" ? this.calls.filter((c) => c.pageId === t!.pageId) : [];
    const appUsage = (calls: number, own: number) =>
      usageHeader(Math.max(calls / this.limits.perAppPerHour, own / Math.max(1, this.limits.perUserPerHour)) * 100, 100);
    const pageUsage = (calls: number, wait = 0) => ({
      "x-business-use-case-usage": businessUsage(t!.pageId!, calls, this.limits.perPagePerDay, wait),
      "x-page-usage": usageHeader(calls, this.limits.perPagePerDay),
    });
    const usage = () =>
      t!.kind === "page"
        ? pageUsage(pageCalls.length, Math.ceil((pageCalls[0].at + 86_400_000 - now) / 60_000))
        : { "x-app-usage": this.limits.perUserPerHour === 0 ? usageHeader(1, 1) : appUsage(app, mine) };
    const refuse = (code: number, message: string): never => {
      throw new HttpError({
        status: 400,
        body: { error: { message, type: "OAuthException", code, is_transient: true } },
        headers: usage(),
      });
    };
    // A Pages API call made with a user token over the user's allowance is refused as a page call (32, the rate
    // limiting guide's table); other calls with it as the user's (17).
    const pageCall = /^\/v\d+\.\d+\/(\d+)/.exec(req.path)?.[1];
    if (t!.kind === "user" && mine >= this.limits.perUserPerHour)
      refuse(
        pageCall && this.pages.has(pageCall) ? 32 : 17,
        pageCall && this.pages.has(pageCall) ? "(#32) Page request limit reached" : "(#17) User request limit reached",
      );
    if (t!.kind === "user" && app >= this.limits.perAppPerHour) refuse(4, "(#4) Application request limit reached");
    if (t!.kind === "page" && pageCalls.length >= this.limits.perPagePerDay)
      refuse(
        80001,
        "(#80001) There have been too many calls to this Page account. Wait a bit and try again. For more info, please refer to https://developers.facebook.com/docs/graph-api/overview/rate-limiting.",
      );
    this.calls.push({ at: now, ...(t!.kind === "page" ? { pageId: t!.pageId } : t!.kind === "user" ? { userId: t!.userId } : {}) });
    (req as Request & { token?: Token }).token = t!;
    return t!.kind === "page" ? pageUsage(pageCalls.length + 1) : t!.kind === "user" ? { "x-app-usage": appUsage(app, mine + 1) } : {};
  }

  /** Scheduled posts whose time has come are published (the emulator's clock can be advanced by a test hook). */
  settle(): void {
    for (const p of this.posts.values()) {
      if (!p.published && p.scheduledAt !== undefined && p.scheduledAt <= this.now()) {
        p.published = true;
        p.createdAt = p.scheduledAt;
      }
    }
  }

  state(p: PagePost): "published" | "scheduled" | "draft" {
    this.settle();
    return p.published ? "published" : p.scheduledAt !== undefined ? "scheduled" : "draft";
  }

  /** A request answered without the HTTP layer: batch items go through routing, auth and limits like any call. */
  async answer(req: Request): Promise<Reply> {
    try {
      return await this.dispatch(req);
    } catch (e) {
      if (e instanceof HttpError) return e.reply;
      throw e;
    }
  }

  protected testHook(op: string, _req: Request, body: any): Reply | undefined {
    if (op === "tokens") {
      this.tokens.set(String(body.token), body.value as Token);
      return ok({ added: body.token });
    }
    return undefined;
  }
}

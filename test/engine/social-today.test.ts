/**
 * The page-management and short-post services as they are today, through the real engine, on a user token of 30
 * pages given only as FACEBOOK_PAGE_ACCESS_TOKEN and THREADS_ACCESS_TOKEN: page access granted through the business,
 * changed, drifted and removed; a photo and a scheduled page post; a text and an image post on the Threads paths;
 * getPageInsights, getRateLimitInfo, getProfile, getPosts and getPostInsights answering; a 0.3.0 stack (a role set
 * with /roles, posts without today's outputs, a WebhookSubscription) moving with no write where nothing differs.
 */
import { execFileSync } from "node:child_process";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PagesEmulator, PAGES_USER_TOKEN, PostsEmulator, POSTS_USER_TOKEN } from "../../emulators";
import { engineStack, ROOT } from "../../scripts/engine";
import { withoutEnvFallback, type EngineStack } from "../helpers/engine";

let pages: PagesEmulator;
let posts: PostsEmulator;
let engine: EngineStack;
const PAGE = "200000000001030"; // the 30th of the user's pages
const BOB = "300000000000003";
const EDITOR = ["CREATE_CONTENT", "MODERATE", "MESSAGING", "ADVERTISE", "ANALYZE"];
const page = () => pages.pages.get(PAGE)!;
const writes = () =>
  [...pages.log, ...posts.log]
    .filter((e) => e.method !== "GET" && !e.path.startsWith("/__") && !/^\/v\d+\.\d+\/$/.test(e.path))
    .map((e) => `${e.method} ${e.path}`);

beforeAll(async () => {
  withoutEnvFallback();
  pages = await new PagesEmulator({ extraPages: 30 }).start();
  posts = await new PostsEmulator({ processingMs: 500 }).start();
  engine = await engineStack(
    path.join(ROOT, "test/programs/social-today"),
    {
      "social-today:pageId": { value: PAGE },
      "social-today:launchAt": { value: new Date(Date.now() + 2 * 86_400_000).toISOString() },
    },
    "today",
    {
      FACEBOOK_PAGE_ACCESS_TOKEN: PAGES_USER_TOKEN,
      THREADS_ACCESS_TOKEN: POSTS_USER_TOKEN,
      PAGES_BASE_URL: pages.url,
      POSTS_BASE_URL: posts.url,
      POSTS_STATUS_POLL_SECONDS: "1",
    },
  );
}, 300_000);

afterAll(async () => {
  await engine?.dispose();
  await pages?.stop();
  await posts?.stop();
});

describe("the social services as they are today, through the engine", { timeout: 300_000 }, () => {
  it("1. preview sends no write", async () => {
    const preview = await engine.stack.preview();
    expect(preview.changeSummary.create).toBe(6);
    expect(writes()).toEqual([]);
  });

  it("2. up grants access through the business, posts on both services and the functions answer", async () => {
    const up = await engine.stack.up();
    expect(up.summary.resourceChanges?.create).toBe(6);
    expect(page().assigned.get(BOB)).toEqual(EDITOR);
    expect(pages.count("POST", /\/roles$/)).toBe(0);
    expect(
      [...pages.posts.values()]
        .filter((p) => p.pageId === PAGE)
        .map((p) => pages.state(p))
        .sort(),
    ).toEqual(["published", "scheduled"]);
    expect([...posts.posts.values()].map((p) => p.media_type).sort()).toEqual(["IMAGE", "TEXT"]);
    expect(posts.count("POST", /\/me\/threads_publish$/)).toBe(2);
    expect(up.outputs.helloLink.value).toMatch(/^https:\/\/www\.threads\.com\/@examplebakery\/post\//);
    expect(up.outputs.ryeMedia.value).toMatch(/^https:\/\/scontent\.cdninstagram\.com\//);
    expect(up.outputs.follows.value).toEqual(["page_follows:7", "page_media_view:7"]);
    expect(typeof up.outputs.usage.value).toBe("number");
    expect(up.outputs.profile.value).toBe("Bread since 1921");
    expect(typeof up.outputs.latest.value).toBe("number");
    expect(up.outputs.helloViews.value).toBe(0);
    await engine.stack.up({ expectNoChanges: true });
  });

  it("3. access changed by hand is found by refresh and restored by up; a change of role is one write", async () => {
    page().assigned.set(BOB, ["ANALYZE"]);
    const refresh = await engine.stack.refresh();
    expect(refresh.summary.resourceChanges).toMatchObject({ update: 1 });
    await engine.stack.up();
    expect(page().assigned.get(BOB)).toEqual(EDITOR);
    pages.log.splice(0);
    posts.log.splice(0);
    await engine.stack.setConfig("helperRole", { value: "MODERATOR" });
    const up = await engine.stack.up();
    expect(up.summary.resourceChanges).toMatchObject({ update: 1 });
    expect(writes()).toEqual([`POST /v26.0/${PAGE}/assigned_users`]);
    expect(page().assigned.get(BOB)).toEqual(["MODERATE", "MESSAGING", "ADVERTISE", "ANALYZE"]);
    await engine.stack.setConfig("helperRole", { value: "EDITOR" });
    await engine.stack.up();
  });

  it("4. a 0.3.0 stack (a role set with /roles, posts without today's outputs, a WebhookSubscription) moves with no write", async () => {
    const state = await engine.stack.exportStack();
    const resources = state.deployment.resources as {
      urn: string;
      type: string;
      id: string;
      inputs: Record<string, any>;
      outputs: Record<string, any>;
    }[];
    for (const r of resources) {
      if (r.type.endsWith("pages:PageRole")) {
        const { tasks: _t, business: _b, ...old } = r.outputs;
        r.outputs = old;
      }
      if (r.type.endsWith("posts:Post")) {
        const { mediaUrl: _m, shortcode: _s, ...old } = r.outputs;
        r.outputs = old;
      }
    }
    // 0.3.0 set Bob's role with POST /roles: the service lists him outside the business.
    page().assigned.delete(BOB);
    page().roles.set(BOB, "EDITOR");
    // A 0.3.0 WebhookSubscription, served by the module the installed package still has: its `__provider` is a secret,
    // so it is made from the Post's, read in plaintext (`pulumi stack export --show-secrets`).
    const shown = JSON.parse(
      execFileSync(engine.cli.command, ["stack", "export", "--show-secrets", "--stack", "today"], {
        cwd: engine.cli.cwd,
        env: engine.cli.env,
        encoding: "utf8",
      }),
    );
    const plainPost = shown.deployment.resources.find((r: { urn: string }) => r.urn.endsWith("posts:Post::hello"));
    // (Its module's path, or, where the package was copied by value, the type token it captures.)
    const provider = JSON.parse(
      JSON.stringify(plainPost.inputs.__provider)
        .replaceAll("posts-Post", "posts-WebhookSubscription")
        .replaceAll("posts:Post", "posts:WebhookSubscription"),
    );
    const fields = {
      appId: "400000000000001",
      object: "posts",
      callbackUrl: "https://hooks.example/posts",
      fields: ["mentions"],
      verifyToken: "verify-token-1",
    };
    resources.push({
      ...plainPost,
      urn: plainPost.urn.replace("posts:Post::hello", "posts:WebhookSubscription::mentions"),
      type: plainPost.type.replace("posts:Post", "posts:WebhookSubscription"),
      id: "400000000000001/posts",
      inputs: { __provider: provider, ...fields },
      outputs: { __provider: provider, ...fields },
      propertyDependencies: {},
    });
    await engine.stack.importStack(state);
    pages.log.splice(0);
    posts.log.splice(0);
    const preview = await engine.stack.preview();
    expect(preview.changeSummary).toMatchObject({ delete: 1, same: 6 });
    const up = await engine.stack.up();
    expect(up.summary.resourceChanges).toMatchObject({ delete: 1, same: 6 });
    expect(writes()).toEqual([]);
    await engine.stack.up({ expectNoChanges: true });
    expect(page().roles.get(BOB)).toBe("EDITOR"); // still right, so nothing was written
  });

  it("5. destroy leaves nothing (the access moved to the business by a change first, which the service can remove)", async () => {
    await engine.stack.setConfig("helperRole", { value: "MODERATOR" });
    await engine.stack.up();
    expect([page().roles.has(BOB), page().assigned.has(BOB)]).toEqual([false, true]);
    await engine.stack.destroy();
    expect(page().assigned.has(BOB)).toBe(false);
    expect([...pages.posts.values()].filter((p) => p.pageId === PAGE)).toEqual([]);
    expect(posts.posts.size).toBe(0);
  });
});

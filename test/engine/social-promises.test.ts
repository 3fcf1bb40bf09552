/**
 * The social services' promises on the paths users take (issue 47), through the real engine: a person holding tasks
 * no role stands for, read without drift; a draft deleted by hand dropped by refresh and made again by up; a
 * metric the provider does not list answered; replacements needing more deletes than the day has left refused at
 * preview with 0 writes, and a destroy with none left failing before it sends one; a page token issued without
 * pages_manage_posts failing the preview.
 */
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DELETE_QUOTA,
  PAGE_ID,
  PAGES_APP,
  PAGES_MODERATOR_TOKEN,
  PAGES_USER_TOKEN,
  PagesEmulator,
  POSTS_USER_TOKEN,
  PostsEmulator,
} from "../../emulators";
import { engineStack, ROOT } from "../../scripts/engine";
import { withoutEnvFallback, type EngineStack } from "../helpers/engine";

let pages: PagesEmulator;
let posts: PostsEmulator;
let engine: EngineStack;
const BOB = "300000000000003";
const DIR = path.join(ROOT, "test/programs/social-promises");
const page = () => pages.pages.get(PAGE_ID)!;
const writes = () =>
  [...pages.log, ...posts.log]
    .filter((e) => e.method !== "GET" && !e.path.startsWith("/__") && !/^\/v\d+\.\d+\/?$/.test(e.path))
    .map((e) => `${e.method} ${e.path}`);
const env = (pagesToken: string) => ({
  FACEBOOK_PAGE_ACCESS_TOKEN: pagesToken,
  PAGES_APP_ID: PAGES_APP.id,
  PAGES_APP_SECRET: PAGES_APP.secret,
  THREADS_ACCESS_TOKEN: POSTS_USER_TOKEN,
  PAGES_BASE_URL: pages.url,
  POSTS_BASE_URL: posts.url,
  POSTS_STATUS_POLL_SECONDS: "1",
  PULUMI_OPS_QUIET: "0",
});
const LAUNCH_AT = new Date(Math.floor(Date.now() / 1000 + 2 * 86400) * 1000).toISOString().replace(/\.000Z$/, "Z");
const launch = () => [...pages.posts.values()].find((p) => p.pageId === PAGE_ID && p.message === "Spring launch")!;
const draft = () => [...pages.posts.values()].filter((p) => p.pageId === PAGE_ID && p.message === "Our winter menu (draft)");

beforeAll(async () => {
  withoutEnvFallback();
  pages = await new PagesEmulator().start();
  posts = await new PostsEmulator({ processingMs: 300 }).start();
  engine = await engineStack(
    DIR,
    { "social-promises:pageId": { value: PAGE_ID }, "social-promises:launchAt": { value: LAUNCH_AT } },
    "promises",
    env(PAGES_USER_TOKEN),
  );
}, 300_000);

afterAll(async () => {
  await engine?.dispose();
  await pages?.stop();
  await posts?.stop();
});

describe("the social services' promises, through the engine", { timeout: 300_000 }, () => {
  it("1. up grants tasks beyond the roles', read back without drift; a metric outside the provider's list answers", async () => {
    const up = await engine.stack.up();
    expect(up.summary.resourceChanges?.create).toBe(6);
    expect(page().assigned.get(BOB)).toEqual(expect.arrayContaining(["ANALYZE", "MANAGE_LEADS", "VIEW_MONETIZATION_INSIGHTS"]));
    expect(up.outputs.byCountry.value).toEqual(["page_follows_country"]);
    const refresh = await engine.stack.refresh();
    expect(refresh.summary.resourceChanges).not.toHaveProperty("update");
    await engine.stack.up({ expectNoChanges: true });
  });

  it("1b. a scheduled post moved by hand is found by refresh --preview-only --expect-no-changes, and up puts it back; published early, a new time changes nothing (issue 57)", async () => {
    launch().scheduledAt = Date.parse(LAUNCH_AT) + 3 * 3600_000;
    pages.log.splice(0);
    posts.log.splice(0);
    await expect(engine.stack.previewRefresh({ expectNoChanges: true })).rejects.toThrow(/scheduledPublishTime/);
    expect(writes()).toEqual([]);
    const up = await engine.stack.up({ refresh: true });
    expect(up.summary.resourceChanges).toMatchObject({ update: 1 });
    expect(launch().scheduledAt).toBe(Date.parse(LAUNCH_AT));
    await engine.stack.previewRefresh({ expectNoChanges: true });
    // Published by hand before its time; the program then moves it a day on. The preview (no refresh) asks the page,
    // says it is out, and the up sends nothing.
    launch().published = true;
    const later = new Date(Date.parse(LAUNCH_AT) + 86_400_000).toISOString();
    await engine.stack.setConfig("social-promises:launchAt", { value: later });
    pages.log.splice(0);
    posts.log.splice(0);
    const preview = await engine.stack.preview({ diff: true });
    expect(preview.changeSummary.update ?? 0).toBe(0);
    expect(preview.stdout + preview.stderr).toMatch(/published already \(it went out before its scheduled time, by hand\)/);
    await engine.stack.up({ expectNoChanges: true });
    expect(writes()).toEqual([]);
    await engine.stack.setConfig("social-promises:launchAt", { value: LAUNCH_AT });
  });

  it("2. a draft deleted by hand is dropped by refresh, and up makes it again", async () => {
    const [gone] = draft();
    pages.posts.delete(gone.id);
    const refresh = await engine.stack.refresh();
    expect(refresh.summary.resourceChanges).toMatchObject({ delete: 1 });
    const up = await engine.stack.up();
    expect(up.summary.resourceChanges).toMatchObject({ create: 1 });
    expect(draft()).toHaveLength(1);
    expect(draft()[0].id).not.toBe(gone.id);
  });

  it("3. with the day's deletes spent, replacing posts fails at preview with 0 writes, and destroy sends no delete", async () => {
    posts.deletesToday = Array.from({ length: DELETE_QUOTA - 1 }, () => Date.now()); // one left
    await engine.stack.setAllConfig({
      "social-promises:ryeText": { value: "Rye, fresh." },
      "social-promises:speltText": { value: "Spelt, fresh." },
      "social-promises:allowRepublish": { value: "true" },
    });
    pages.log.splice(0);
    posts.log.splice(0);
    await expect(engine.stack.preview()).rejects.toThrow(
      /may delete 100 posts per 24 hours and has deleted 99 \(1 left\): this run's 2 replaced posts.*needs 2.*all of it by \S+Z at the latest/s,
    );
    expect(writes()).toEqual([]);
    // A destroy the engine does not show in advance: refused before the first delete is sent.
    posts.deletesToday = Array.from({ length: DELETE_QUOTA }, () => Date.now());
    await engine.stack.setAllConfig({
      "social-promises:ryeText": { value: "Rye today." },
      "social-promises:speltText": { value: "Spelt tomorrow." },
    });
    const destroyed = engine.stack.destroy();
    await expect(destroyed).rejects.toThrow(/has deleted 100 \(0 left\)/);
    expect(posts.log.filter((e) => e.method === "DELETE")).toEqual([]);
    expect(posts.posts.size).toBe(2);
    posts.deletesToday = [];
  });

  it("4. a page token issued without pages_manage_posts fails the preview, naming the token to use", async () => {
    const moderator = await engineStack(
      DIR,
      { "social-promises:pageId": { value: PAGE_ID }, "social-promises:launchAt": { value: LAUNCH_AT } },
      "moderator",
      env(PAGES_MODERATOR_TOKEN),
    );
    try {
      pages.log.splice(0);
      // Whichever check the engine runs first fails the preview: the post's (pages_manage_posts) or the role's
      // (pages_manage_metadata); either names the token to use.
      await expect(moderator.stack.preview()).rejects.toThrow(
        /issued without (pages_manage_posts, which PagePost|pages_manage_metadata, which PageRole) needs.*Issue the page token again/,
      );
      expect(writes()).toEqual([]);
    } finally {
      await moderator.dispose();
    }
  });

  it("5. destroy after the Threads token moved from the environment to stack config says how to run it; with the variable it leaves nothing (issue 57)", async () => {
    const vars = (engine.stack.workspace as unknown as { envVars: Record<string, string> }).envVars;
    const token = vars.THREADS_ACCESS_TOKEN;
    delete vars.THREADS_ACCESS_TOKEN;
    await engine.stack.setConfig("ops:postsAccessToken", { value: token, secret: true });
    const failed = await engine.stack.destroy().then(
      () => "",
      (e: Error) => e.message,
    );
    expect(failed).toMatch(
      /posts: no credential for this delete\. A destroy runs with the provider configuration of the last up, which had no ops:postsAccessToken.*POSTS_ACCESS_TOKEN or THREADS_ACCESS_TOKEN \(`POSTS_ACCESS_TOKEN=<token> pulumi destroy`\).*run `pulumi up` with the credential in stack config first/,
    );
    expect(failed).not.toMatch(/set it as secret stack config/);
    expect(failed).not.toContain(token);
    vars.THREADS_ACCESS_TOKEN = token;
    await engine.stack.destroy();
    expect(posts.posts.size).toBe(0);
    expect(draft()).toEqual([]);
    expect(page().assigned.has(BOB)).toBe(false);
  });
});

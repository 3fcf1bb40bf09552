/**
 * The social emulators held to clients nobody here wrote, installed by scripts/install-python.sh into .tools/python:
 * the official facebook-business SDK (pages: page read, feed, photo and scheduled posts, assigned_users, subscribed
 * apps with a JSON list, insights, a batch; with the app secret, so every call carries appsecret_proof, which the
 * emulator is set to require), python-facebook-api (both services: the short-post publishing flow and publishing
 * limit, a poll with a topic tag and reply control) and pythreads (profile, limit, an image container, its status,
 * publish, a carousel of two, listing); the official SDK also moves a scheduled post, changes and reads the page's
 * profile, asks weekly insights and a post's insights. Each changes nothing but its base address (test/emulator/social_clients.py).
 */
import { execFile } from "node:child_process";
import * as path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BUSINESS_ID,
  PAGE_ID,
  PAGES_APP,
  PAGES_PAGE_TOKEN,
  PagesEmulator,
  POSTS_USER_ID,
  POSTS_USER_TOKEN,
  PostsEmulator,
} from "../../emulators";
import { ROOT } from "../../scripts/root";

let pages: PagesEmulator;
let posts: PostsEmulator;
beforeAll(async () => {
  pages = await new PagesEmulator().start();
  posts = await new PostsEmulator({ processingMs: 300 }).start();
  pages.requireProof = true;
});
afterAll(async () => {
  await pages.stop();
  await posts.stop();
});

describe("social emulators with facebook-business, python-facebook-api and pythreads", () => {
  it("answer every call of the three clients, unchanged but for the base address", { timeout: 120_000 }, async () => {
    const python = path.join(ROOT, ".tools/python/bin/python");
    const script = path.join(ROOT, "test/emulator/social_clients.py");
    const args = [
      script,
      pages.url,
      posts.url,
      PAGE_ID,
      PAGES_PAGE_TOKEN,
      PAGES_APP.id,
      PAGES_APP.secret,
      BUSINESS_ID,
      "300000000000003",
      POSTS_USER_TOKEN,
      POSTS_USER_ID,
    ];
    const run = await promisify(execFile)(python, args, { encoding: "utf8", env: { ...process.env, CI: "1" } }).catch(
      (e: { stdout: string; stderr: string }) => e,
    );
    expect(run.stderr.split("\n").slice(-25).join("\n")).not.toMatch(/Error|Traceback/);
    expect(JSON.parse(run.stdout)).toEqual({
      fb_page: ["Example Bakery", BUSINESS_ID],
      fb_posts: [true, true, true],
      fb_assigned: [["300000000000003", ["ANALYZE", "MODERATE"]]],
      fb_subscribed: [["feed", "messages"]],
      fb_insights: ["page_follows", "page_media_view"],
      fb_batch: ["Example Bakery", "From the official SDK"],
      fb_rescheduled: [true, false],
      fb_profile: [
        "From the official SDK",
        "https://sdk.bakery.example",
        ["sdk@bakery.example"],
        { tue_1_open: "08:00", tue_1_close: "17:00" },
      ],
      fb_weekly: [["week", 2]],
      fb_post_insights: ["post_clicks", "post_reactions_by_type_total"],
      pyfb_page: "Example Bakery",
      pyfb_posts: 2,
      pyfb_profile: "examplebakery",
      pyfb_published: "TEXT_POST",
      pyfb_poll: ["Spelt", "Bread", "FOLLOWERS_ONLY"],
      pyfb_limit: [2, 250],
      pythreads_profile: "examplebakery",
      pythreads_limit: 250,
      pythreads_status: "FINISHED",
      pythreads_published: true,
      pythreads_listed: ["CAROUSEL_ALBUM", "IMAGE", "TEXT_POST", "TEXT_POST"],
      pythreads_carousel: true,
      pythreads_replies: [true],
      pythreads_conversation: true,
    });
    expect(pages.log.filter((e) => e.status >= 400)).toEqual([]); // every call carried its appsecret_proof
    expect(pages.pages.get(PAGE_ID)!.assigned.has("300000000000003")).toBe(false); // removed by the SDK's delete
  });
});

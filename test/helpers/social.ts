/** The page-management and short-post emulators for a test file, with fresh state for every test. */
import { afterAll, beforeAll, beforeEach } from "vitest";
import { PAGES_APP, PAGES_PAGE_TOKEN, PagesEmulator, POSTS_USER_TOKEN, PostsEmulator, type PostsEmulatorOptions } from "../../emulators";

export function standIn<T extends object>(get: () => T): T {
  return new Proxy({} as T, {
    get(_, key) {
      const target = get();
      const value = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
    set(_, key, value) {
      return Reflect.set(get(), key, value);
    },
  });
}

export function useSocial(postsOptions: PostsEmulatorOptions = { processingMs: 300 }): { pages: PagesEmulator; posts: PostsEmulator } {
  let pages: PagesEmulator | undefined;
  let posts: PostsEmulator | undefined;
  beforeAll(async () => {
    pages = await new PagesEmulator().start();
    posts = await new PostsEmulator(postsOptions).start();
  });
  afterAll(async () => {
    await pages?.stop();
    await posts?.stop();
  });
  beforeEach(() => {
    for (const e of [pages!, posts!]) {
      e.reset();
      e.log.splice(0);
      e.clearFaults();
      e.clockOffsetMs = 0;
    }
    Object.assign(process.env, {
      PAGES_BASE_URL: pages!.url,
      PAGES_ACCESS_TOKEN: PAGES_PAGE_TOKEN,
      PAGES_APP_ID: PAGES_APP.id,
      PAGES_MAX_RETRIES: "3",
      POSTS_BASE_URL: posts!.url,
      POSTS_ACCESS_TOKEN: POSTS_USER_TOKEN,
      // The service advises a look at a container once a minute; the emulator processes media in 300 ms.
      POSTS_STATUS_POLL_SECONDS: "0.2",
    });
  });
  return { pages: standIn(() => pages!), posts: standIn(() => posts!) };
}

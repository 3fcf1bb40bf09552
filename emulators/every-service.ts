/** The six emulators together, and the stack config that points a program at them: for the demo and the tests. */
import { ControlEmulator } from "./control/server";
import { DEMO_ACCOUNT, DEMO_TOKEN, EdgeEmulator } from "./edge/server";
import { PAGES_USER_TOKEN, PagesEmulator } from "./pages/server";
import { POSTS_USER_TOKEN, PostsEmulator } from "./posts/server";
import { RunnerEmulator } from "./runner/server";
import { SKILLS_PUBLISH_TOKEN, SkillsEmulator } from "./skills/server";

export interface EveryService {
  edge: EdgeEmulator;
  pages: PagesEmulator;
  posts: PostsEmulator;
  runner: RunnerEmulator;
  skills: SkillsEmulator;
  control: ControlEmulator;
}

export interface EveryServiceOptions {
  /** Test hooks: media processed in 300 ms instead of the service's seconds. */
  fast?: boolean;
  /** A registry that answers DELETE (the real one has no delete: a skill stays published). */
  skillsDelete?: boolean;
}

/** All six started on free loopback ports. */
export async function startEveryService(options: EveryServiceOptions = {}): Promise<EveryService> {
  const [edge, pages, posts, runner, skills, control] = await Promise.all([
    new EdgeEmulator().start(),
    new PagesEmulator().start(),
    new PostsEmulator(options.fast ? { processingMs: 300 } : {}).start(),
    new RunnerEmulator({ pullStepMs: 5 }).start(),
    new SkillsEmulator({ publishToken: SKILLS_PUBLISH_TOKEN, allowDelete: options.skillsDelete ?? false }).start(),
    new ControlEmulator().start(),
  ]);
  return { edge, pages, posts, runner, skills, control };
}

export async function stopEveryService(s: EveryService): Promise<void> {
  await Promise.all(Object.values(s).map((e: { stop(): Promise<void> }) => e.stop()));
}

/**
 * Stack config with the endpoint and credentials of each service given (all six, or the ones a test starts),
 * secrets as secrets (the shape of the Automation API's ConfigMap).
 */
export function everyServiceConfig(s: Partial<EveryService>): Record<string, { value: string; secret?: boolean }> {
  return {
    ...(s.edge
      ? {
          "ops:edgeBaseUrl": { value: s.edge.url },
          "ops:edgeApiToken": { value: DEMO_TOKEN, secret: true },
          "ops:edgeAccountId": { value: DEMO_ACCOUNT },
        }
      : {}),
    ...(s.pages ? { "ops:pagesBaseUrl": { value: s.pages.url }, "ops:pagesAccessToken": { value: PAGES_USER_TOKEN, secret: true } } : {}),
    ...(s.posts ? { "ops:postsBaseUrl": { value: s.posts.url }, "ops:postsAccessToken": { value: POSTS_USER_TOKEN, secret: true } } : {}),
    ...(s.runner ? { "ops:runnerHost": { value: s.runner.url } } : {}),
    ...(s.skills ? { "ops:skillsUrl": { value: s.skills.url }, "ops:skillsToken": { value: SKILLS_PUBLISH_TOKEN, secret: true } } : {}),
    ...(s.control ? { "ops:controlUrl": { value: s.control.url } } : {}),
  };
}

/** The six emulators of test/programs/every-service, and the stack config that points a program at them. */
import type { ConfigMap } from "@pulumi/pulumi/automation";
import { ControlEmulator, DEMO_TOKEN, EdgeEmulator, PagesEmulator, PAGES_USER_TOKEN, PostsEmulator, POSTS_USER_TOKEN, RunnerEmulator, SKILLS_PUBLISH_TOKEN, SkillsEmulator } from "../../emulators";

export interface EveryService {
  edge: EdgeEmulator;
  pages: PagesEmulator;
  posts: PostsEmulator;
  runner: RunnerEmulator;
  skills: SkillsEmulator;
  control: ControlEmulator;
}

/** All six started; fast test hooks only where a scenario would otherwise wait (processing, pull steps). */
export async function startEveryService(skillsDelete = true): Promise<EveryService> {
  const [edge, pages, posts, runner, skills, control] = await Promise.all([
    new EdgeEmulator().start(),
    new PagesEmulator().start(),
    new PostsEmulator({ processingMs: 300 }).start(),
    new RunnerEmulator({ pullStepMs: 5 }).start(),
    new SkillsEmulator({ publishToken: SKILLS_PUBLISH_TOKEN, allowDelete: skillsDelete }).start(),
    new ControlEmulator().start(),
  ]);
  return { edge, pages, posts, runner, skills, control };
}

/** Stack config with every endpoint and credential, secrets as secrets. */
export function everyServiceConfig(s: EveryService): ConfigMap {
  return {
    "ops:edgeBaseUrl": { value: s.edge.url },
    "ops:edgeApiToken": { value: DEMO_TOKEN, secret: true },
    "ops:pagesBaseUrl": { value: s.pages.url },
    "ops:pagesAccessToken": { value: PAGES_USER_TOKEN, secret: true },
    "ops:postsBaseUrl": { value: s.posts.url },
    "ops:postsAccessToken": { value: POSTS_USER_TOKEN, secret: true },
    "ops:runnerHost": { value: s.runner.url },
    "ops:skillsUrl": { value: s.skills.url },
    "ops:skillsToken": { value: SKILLS_PUBLISH_TOKEN, secret: true },
    "ops:controlUrl": { value: s.control.url },
  };
}

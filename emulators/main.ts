/**
 * `npm run emulators`: the emulators standalone on loopback, until Ctrl-C. Prints each base URL and the
 * environment variables that point a program (or `pulumi` itself) at it.
 */
import { ControlEmulator, DEMO_ACCOUNT, DEMO_TOKEN, EdgeEmulator, PAGES_PAGE_TOKEN, PagesEmulator, POSTS_APP_TOKEN, POSTS_USER_TOKEN, PostsEmulator, RunnerEmulator, SKILLS_PUBLISH_TOKEN, SkillsEmulator } from "./index";

async function main(): Promise<void> {
  const edge = await new EdgeEmulator({ port: Number(process.env.EDGE_EMULATOR_PORT ?? 8787) }).start();
  console.log(`edge network API emulator: ${edge.url}/client/v4`);
  console.log("point a program at it:");
  console.log(`  export EDGE_BASE_URL=${edge.url}`);
  console.log(`  export EDGE_API_TOKEN=${DEMO_TOKEN}`);
  console.log(`  export EDGE_ACCOUNT_ID=${DEMO_ACCOUNT}`);
  const pages = await new PagesEmulator({ port: Number(process.env.PAGES_EMULATOR_PORT ?? 8788) }).start();
  console.log(`page-management service emulator: ${pages.url}/v18.0`);
  console.log(`  export PAGES_BASE_URL=${pages.url}`);
  console.log(`  export PAGES_ACCESS_TOKEN=${PAGES_PAGE_TOKEN}`);
  const posts = await new PostsEmulator({ port: Number(process.env.POSTS_EMULATOR_PORT ?? 8789) }).start();
  console.log(`short-post service emulator: ${posts.url}/v1.0`);
  console.log(`  export POSTS_BASE_URL=${posts.url}`);
  console.log(`  export POSTS_ACCESS_TOKEN=${POSTS_USER_TOKEN}`);
  console.log(`  export POSTS_APP_TOKEN=${POSTS_APP_TOKEN}`);
  const runner = await new RunnerEmulator({ port: Number(process.env.RUNNER_EMULATOR_PORT ?? 11434) }).start();
  console.log(`model runner emulator: ${runner.url}`);
  console.log(`  export RUNNER_HOST=${runner.url.replace("http://", "")}`);
  const skills = await new SkillsEmulator({ port: Number(process.env.SKILLS_EMULATOR_PORT ?? 8300), publishToken: SKILLS_PUBLISH_TOKEN }).start();
  console.log(`skills registry emulator: ${skills.url}/api/skills`);
  console.log(`  export SKILLS_URL=${skills.url}`);
  console.log(`  export SKILLS_TOKEN=${SKILLS_PUBLISH_TOKEN}`);
  const control = await new ControlEmulator({ port: Number(process.env.CONTROL_EMULATOR_PORT ?? 8200) }).start();
  console.log(`computer-control endpoint emulator: ${control.url}/mcp`);
  console.log(`  export CONTROL_URL=${control.url}`);
  console.log(`test hooks: <base URL>/__emulator/{log,reset,faults,clock}`);
  const stop = async () => {
    await Promise.all([edge.stop(), pages.stop(), posts.stop(), runner.stop(), skills.stop(), control.stop()]);
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

void main();

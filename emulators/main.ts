#!/usr/bin/env node
/**
 * `npx pulumi-ops emulators` (or `npm run emulators` here): the emulators standalone on loopback, until Ctrl-C.
 * Prints each base URL and the environment variables that point a program (or `pulumi` itself) at it. A port of
 * 0 (EDGE_EMULATOR_PORT=0, ...) takes any free port. EDGE_EMULATOR_LATENCY=realistic (or MIN-MAX in ms) makes the
 * edge answer with the real API's latency (latency.ts); EDGE_EMULATOR_STRICT=1 makes it answer only the endpoints
 * the API document lists (400 / 7003 for the rest). The control endpoint needs @modelcontextprotocol/sdk, an
 * optional dependency: installed without it, the other emulators still run.
 */
import { DEMO_ACCOUNT, DEMO_ACCOUNT_TOKEN, DEMO_TOKEN, EdgeEmulator } from "./edge/server";
import { parseLatency } from "./latency";
import { PAGES_PAGE_TOKEN, PagesEmulator } from "./pages/server";
import { POSTS_USER_TOKEN, PostsEmulator } from "./posts/server";
import { RunnerEmulator } from "./runner/server";
import { SKILLS_PUBLISH_TOKEN, SkillsEmulator } from "./skills/server";

/** Every setting the emulators read, for `pulumi-ops emulators --help` (a test checks each one read is listed). */
export const EMULATORS_USAGE = `usage: pulumi-ops emulators [--help]
Runs the services' emulators on loopback until Ctrl-C, printing each base URL and the variables that point a
program at it. Set in the environment:
  EDGE_EMULATOR_PORT=8787       edge network API
  PAGES_EMULATOR_PORT=8788      page-management service
  POSTS_EMULATOR_PORT=8789      short-post service
  RUNNER_EMULATOR_PORT=11434    model runner
  SKILLS_EMULATOR_PORT=8300     skills registry
  CONTROL_EMULATOR_PORT=8200    computer-control endpoint (needs the optional @modelcontextprotocol/sdk)
  (a port of 0 takes any free port)
  EDGE_EMULATOR_LATENCY=off     realistic (the real API's latency), or MIN-MAX in ms
  EDGE_EMULATOR_STRICT=1        answer only the endpoints the edge API document lists (400 / 7003 for the rest)
  EDGE_EMULATOR_BATCH_LIMIT=200 changes per dns_records/batch request (the zone plan's: 200 free, 3500 paid; 0 refuses it)`;

/** Starts every emulator (true), or answers `--help` (0) or a refused argument (2) and starts nothing. */
export async function runEmulators(args: string[] = []): Promise<true | 0 | 2> {
  if (args.some((a) => a === "--help" || a === "-h" || a === "help")) {
    console.log(EMULATORS_USAGE);
    return 0;
  }
  const unknown = args.find((a) => a !== "--");
  if (unknown) {
    console.error(`pulumi-ops emulators: unknown argument "${unknown}" (settings are environment variables)\n${EMULATORS_USAGE}`);
    return 2;
  }
  const latency = parseLatency(process.env.EDGE_EMULATOR_LATENCY ?? "off");
  const strict = /^(1|true)$/i.test(process.env.EDGE_EMULATOR_STRICT ?? "");
  const batchLimit = Number(process.env.EDGE_EMULATOR_BATCH_LIMIT ?? 200);
  const edge = await new EdgeEmulator({ port: Number(process.env.EDGE_EMULATOR_PORT ?? 8787), latency, strict, batchLimit }).start();
  console.log(`edge network API emulator: ${edge.url}/client/v4${latency ? ` (latency ${latency.distribution} ${latency.minMs}-${latency.maxMs} ms)` : ""}`);
  console.log("point a program at it:");
  console.log(`  export EDGE_BASE_URL=${edge.url}`);
  console.log(`  export EDGE_API_TOKEN=${DEMO_TOKEN}`);
  console.log(`  export EDGE_ACCOUNT_ID=${DEMO_ACCOUNT}`);
  console.log(`  # or the service's own names, with an account-owned token: CLOUDFLARE_BASE_URL=${edge.url}/client/v4 CLOUDFLARE_API_TOKEN=${DEMO_ACCOUNT_TOKEN}`);
  const pages = await new PagesEmulator({ port: Number(process.env.PAGES_EMULATOR_PORT ?? 8788) }).start();
  console.log(`page-management service emulator: ${pages.url}/v26.0`);
  console.log(`  export PAGES_BASE_URL=${pages.url}`);
  console.log(`  export PAGES_ACCESS_TOKEN=${PAGES_PAGE_TOKEN}`);
  const posts = await new PostsEmulator({ port: Number(process.env.POSTS_EMULATOR_PORT ?? 8789) }).start();
  console.log(`short-post service emulator: ${posts.url}/v1.0`);
  console.log(`  export POSTS_BASE_URL=${posts.url}`);
  console.log(`  export POSTS_ACCESS_TOKEN=${POSTS_USER_TOKEN}`);
  const runner = await new RunnerEmulator({ port: Number(process.env.RUNNER_EMULATOR_PORT ?? 11434) }).start();
  console.log(`model runner emulator: ${runner.url}`);
  console.log(`  export RUNNER_HOST=${runner.url.replace("http://", "")}`);
  const skills = await new SkillsEmulator({ port: Number(process.env.SKILLS_EMULATOR_PORT ?? 8300), publishToken: SKILLS_PUBLISH_TOKEN }).start();
  console.log(`skills registry emulator: ${skills.url}/api/skills`);
  console.log(`  export SKILLS_URL=${skills.url}`);
  console.log(`  export SKILLS_TOKEN=${SKILLS_PUBLISH_TOKEN}`);
  let control: { stop(): Promise<void> } | undefined;
  try {
    const { ControlEmulator } = await import("./control/server");
    const started = await new ControlEmulator({ port: Number(process.env.CONTROL_EMULATOR_PORT ?? 8200) }).start();
    console.log(`computer-control endpoint emulator: ${started.url}/mcp`);
    console.log(`  export CONTROL_URL=${started.url}`);
    control = started;
  } catch (e) {
    if ((e as { code?: string }).code !== "MODULE_NOT_FOUND") throw e;
    console.log("computer-control endpoint emulator: not started (installed without the optional @modelcontextprotocol/sdk)");
  }
  console.log(`test hooks: <base URL>/__emulator/{log,reset,faults,clock,latency}`);
  const stop = async () => {
    await Promise.all([edge.stop(), pages.stop(), posts.stop(), runner.stop(), skills.stop(), control?.stop()]);
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  return true;
}

if (require.main === module) {
  void runEmulators(process.argv.slice(2)).then((r) => {
    if (r !== true) process.exitCode = r;
  });
}

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
import {
  BUSINESS_ID,
  PAGE_ID,
  PAGES_APP,
  PAGES_EXPIRED_TOKEN,
  PAGES_MODERATOR_TOKEN,
  PAGES_PAGE_TOKEN,
  PAGES_SHORT_USER_TOKEN,
  PAGES_USER_TOKEN,
  PagesEmulator,
  USERS,
} from "./pages/server";
import { POSTS_APP, POSTS_AUTH_CODE, POSTS_OTHER_TOKEN, POSTS_SHORT_TOKEN, POSTS_USER_TOKEN, PostsEmulator } from "./posts/server";
import { RunnerEmulator } from "./runner/server";
import { SKILLS_PUBLISH_TOKEN, SkillsEmulator } from "./skills/server";
import { CLAUDE_API_KEY, ClaudeSkillsEmulator } from "./skills/claude";

/** Every setting the emulators read, for `pulumi-ops emulators --help` (a test checks each one read is listed). */
export const EMULATORS_USAGE = `usage: pulumi-ops emulators [--help]
Runs the services' emulators on loopback until Ctrl-C, printing each base URL and the variables that point a
program at it. Set in the environment:
  EDGE_EMULATOR_PORT=8787       edge network API
  PAGES_EMULATOR_PORT=8788      page-management service
  POSTS_EMULATOR_PORT=8789      short-post service
  RUNNER_EMULATOR_PORT=11434    model runner
  SKILLS_EMULATOR_PORT=8300     skills registry
  CLAUDE_EMULATOR_PORT=8301     the Claude API's skills endpoints (ops:skillsKind claude)
  CONTROL_EMULATOR_PORT=8200    computer-control endpoint (needs the optional @modelcontextprotocol/sdk)
  (a port of 0 takes any free port)
  EDGE_EMULATOR_LATENCY=off     realistic (the real API's latency), or MIN-MAX in ms
  EDGE_EMULATOR_STRICT=1        answer only the endpoints the edge API document lists (400 / 7003 for the rest)
  EDGE_EMULATOR_BATCH_LIMIT=200 changes per dns_records/batch request (the zone plan's: 200 free, 3500 paid; 0 refuses it)
Test hooks: POST <base URL>/__emulator/<hook> with a JSON body (they change state without counting as API calls):
  every emulator  log (GET; DELETE clears it), reset, faults {match: {method?, path?, body?}, count, kind, status?,
                  retryAfter?, ms?}, clock {advanceSeconds}, latency {profile}, reverse-keys {on} (answers with every
                  object's keys in reverse order)
  edge            zones {name, plan?} (a zone added out of band; POST /zones adds one as the API does), plan {zone,
                  plan: free|pro|business|enterprise}, ruleset-rule {zone, phase, rule}, serves {url} (which script
                  a request reaches)
  pages           tokens {token, value}
  posts           posts/engagement {id, views?, likes?}, posts/token-expiry {token?, days},
                  posts/transient-publish-failures {count?}
  runner          retag {name} (the registry's tag moves to other weights), invalid-skills {count?}, gpu {state:
                  available|occupied|none}
  control         host (GET: the simulated host's files and screen)`;

/** A port another process holds: one line naming the variable that moves it (no stack trace), exit 1. */
class PortTaken extends Error {}

/** Starts every emulator (true), or answers `--help` (0), a taken port (1) or a refused argument (2). */
export async function runEmulators(args: string[] = []): Promise<true | 0 | 1 | 2> {
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
  const started: { stop(): Promise<void> }[] = [];
  /** Starts one emulator on the port `variable` names (else `fallback`); a taken port is one line naming `variable`. */
  async function listen<T extends { stop(): Promise<void> }>(
    what: string,
    variable: string,
    fallback: number,
    start: (port: number) => Promise<T>,
  ): Promise<T> {
    const port = Number(process.env[variable] ?? fallback);
    try {
      const emulator = await start(port);
      started.push(emulator);
      return emulator;
    } catch (e) {
      if ((e as { code?: string }).code !== "EADDRINUSE") throw e;
      throw new PortTaken(
        `pulumi-ops emulators: port ${port} (the ${what}) is in use by another process; set ${variable} to another port (0 takes any free one)`,
      );
    }
  }
  try {
    return await startAll();
  } catch (e) {
    await Promise.all(started.map((x) => x.stop().catch(() => undefined)));
    if (!(e instanceof PortTaken)) throw e;
    console.error(e.message);
    return 1;
  }

  async function startAll(): Promise<true> {
    const edge = await listen("edge network API emulator's", "EDGE_EMULATOR_PORT", 8787, (port) =>
      new EdgeEmulator({ port, latency, strict, batchLimit }).start(),
    );
    console.log(
      `edge network API emulator: ${edge.url}/client/v4${latency ? ` (latency ${latency.distribution} ${latency.minMs}-${latency.maxMs} ms)` : ""}`,
    );
    console.log("point a program at it:");
    console.log(`  export EDGE_BASE_URL=${edge.url}`);
    console.log(`  export EDGE_API_TOKEN=${DEMO_TOKEN}`);
    console.log(`  export EDGE_ACCOUNT_ID=${DEMO_ACCOUNT}`);
    console.log(
      `  # or the service's own names, with an account-owned token: CLOUDFLARE_BASE_URL=${edge.url}/client/v4 CLOUDFLARE_API_TOKEN=${DEMO_ACCOUNT_TOKEN}`,
    );
    console.log(`  seeded: zones ${[...edge.zones.values()].map((z) => `${z.name} (${z.id})`).join(", ")} in account ${DEMO_ACCOUNT}`);
    const pages = await listen("page-management service emulator's", "PAGES_EMULATOR_PORT", 8788, (port) =>
      new PagesEmulator({ port }).start(),
    );
    console.log(`page-management service emulator: ${pages.url}/v26.0`);
    console.log(`  export PAGES_BASE_URL=${pages.url}`);
    console.log(`  export PAGES_ACCESS_TOKEN=${PAGES_PAGE_TOKEN}`);
    console.log(
      `  seeded: page ${PAGE_ID} (${pages.pages.get(PAGE_ID)?.name}) owned by business ${BUSINESS_ID}; the token above is its page token`,
    );
    console.log(
      `  tokens: user ${PAGES_USER_TOKEN} (an admin of the page: pulumi-ops derives its page token), short-lived user ${PAGES_SHORT_USER_TOKEN} (exchanged with the app's id and secret), Alice's page token ${PAGES_MODERATOR_TOKEN} (a moderator's, without pages_manage_posts), expired ${PAGES_EXPIRED_TOKEN}`,
    );
    console.log(`  app: id ${PAGES_APP.id}, secret ${PAGES_APP.secret} (PAGES_APP_ID, PAGES_APP_SECRET: debug_token, exchanges)`);
    console.log(
      `  people: ${Object.entries(USERS)
        .map(([id, name]) => `${id} (${name})`)
        .join(", ")}`,
    );
    console.log(
      "  options (PagesEmulator): extraPages (more pages for the user, /me/accounts pages by 25); hooks tokens, faults (a 429 with retryAfter answers 80001 with the time to regain access)",
    );
    const posts = await listen("short-post service emulator's", "POSTS_EMULATOR_PORT", 8789, (port) => new PostsEmulator({ port }).start());
    console.log(`short-post service emulator: ${posts.url}/v1.0`);
    console.log(`  export POSTS_BASE_URL=${posts.url}`);
    console.log(`  export POSTS_ACCESS_TOKEN=${POSTS_USER_TOKEN}`);
    console.log("  seeded: the user @examplebakery, whose token is above (long-lived, 30 of its 60 days left)");
    console.log(
      `  tokens: short-lived ${POSTS_SHORT_TOKEN} (exchanged with the app secret), another account's (@otherbakery) ${POSTS_OTHER_TOKEN}; authorization code ${POSTS_AUTH_CODE}`,
    );
    console.log(`  app: id ${POSTS_APP.id}, secret ${POSTS_APP.secret} (THREADS_APP_SECRET: th_exchange_token)`);
    console.log(
      "  options (PostsEmulator): processingMs (a container's IN_PROGRESS time, 2-5 s by default); hooks posts/engagement, posts/transient-publish-failures, posts/token-expiry {token?, days}",
    );
    const runner = await listen("model runner emulator's", "RUNNER_EMULATOR_PORT", 11434, (port) => new RunnerEmulator({ port }).start());
    console.log(`model runner emulator: ${runner.url}`);
    console.log(`  export RUNNER_HOST=${runner.url.replace("http://", "")}`);
    console.log(`  seeded: no model; pullable: ${Object.keys(runner.options.catalogue).join(", ")}`);
    const skills = await listen("skills registry emulator's", "SKILLS_EMULATOR_PORT", 8300, (port) =>
      new SkillsEmulator({ port, publishToken: SKILLS_PUBLISH_TOKEN }).start(),
    );
    console.log(`skills registry emulator: ${skills.url}/api/skills`);
    console.log(`  export SKILLS_URL=${skills.url}`);
    console.log(`  export SKILLS_TOKEN=${SKILLS_PUBLISH_TOKEN}`);
    const claude = await listen("Claude API skills emulator's", "CLAUDE_EMULATOR_PORT", 8301, (port) =>
      new ClaudeSkillsEmulator({ port }).start(),
    );
    console.log(`Claude API skills emulator: ${claude.url}/v1/skills`);
    // Not an `export` line: pasting every export above keeps skills on the registry; this one is chosen.
    console.log(
      `  to publish skills here instead of the registry, set: SKILLS_KIND=claude ANTHROPIC_BASE_URL=${claude.url} ANTHROPIC_API_KEY=${CLAUDE_API_KEY}`,
    );
    console.log(
      "  seeded: Anthropic's own skills (listed unless source=custom is asked); the official SDKs read the same two ANTHROPIC_ variables",
    );
    try {
      const { ControlEmulator } = await import("./control/server");
      const endpoint = await listen("computer-control endpoint emulator's", "CONTROL_EMULATOR_PORT", 8200, (port) =>
        new ControlEmulator({ port }).start(),
      );
      console.log(`computer-control endpoint emulator: ${endpoint.url}/mcp`);
      console.log(`  export CONTROL_URL=${endpoint.url}`);
      console.log(
        "  seeded: a simulated host (commands act on it, nothing runs here) and remote desktops (user ops) kiosk.local, studio.local (asks the sharing type), backroom.local (on another desktop space); passwords <host>-password-1",
      );
    } catch (e) {
      if ((e as { code?: string }).code !== "MODULE_NOT_FOUND") throw e;
      console.log("computer-control endpoint emulator: not started (installed without the optional @modelcontextprotocol/sdk)");
    }
    console.log("test hooks: POST <base URL>/__emulator/<hook>, listed by `pulumi-ops emulators --help`");
    const stop = async () => {
      await Promise.all(started.map((e) => e.stop()));
      process.exit(0);
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
    // Started through npx or `npm run` (npm_command set), a kill of npm's pid does not reach this process: it notices
    // its parent is gone (it is handed to another) and stops, so no emulator keeps the ports. Started by hand (under
    // nohup, or in the background of a script that ends), it keeps running.
    if (process.env.npm_command) {
      const parent = process.ppid;
      setInterval(() => {
        if (process.ppid !== parent) void stop();
      }, 500).unref();
    }
    return true;
  }
}

if (require.main === module) {
  void runEmulators(process.argv.slice(2)).then((r) => {
    if (r !== true) process.exitCode = r;
  });
}

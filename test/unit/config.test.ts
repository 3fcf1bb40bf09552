/**
 * Configuration read as users (and the services' official clients) expect: ops:runnerHost as the official runner
 * client reads it, URLs refused at preview unless they are http(s) URLs with a scheme, each problem naming the
 * real config key and its variable.
 */
import { afterEach, describe, expect, it } from "vitest";
import { Ollama } from "ollama";
import {
  configProblems,
  credentialOverrides,
  EDGE_SETTINGS,
  PAGES_SETTINGS,
  POSTS_SETTINGS,
  read,
  useStackConfig,
} from "../../provider/config";
import { runnerUrl } from "../../provider/urls";

afterEach(() => useStackConfig(undefined));
const withConfig = (values: Record<string, string>) => useStackConfig({ get: (k) => values[k] });

describe("ops:runnerHost", () => {
  it.each(["gpu-box", "gpu-box:8080", "http://gpu-box", "https://gpu-box", "http://gpu-box:9000", ":11500", "127.0.0.1", "0.0.0.0:11434"])(
    "%s reaches the address the official client reaches",
    (host) => {
      const official = (new Ollama({ host }) as unknown as { config: { host: string } }).config.host.replace("0.0.0.0", "127.0.0.1");
      expect(runnerUrl(host)).toBe(new URL(official).origin);
    },
  );

  it("without a port means 11434", () => expect(runnerUrl("gpu-box")).toBe("http://gpu-box:11434"));

  it("refuses what is not a host or an http(s) URL, naming the key", () => {
    withConfig({ "ops:runnerHost": "ftp://gpu-box" });
    expect(configProblems()).toEqual([
      expect.stringMatching(/^ops:runnerHost \(or RUNNER_HOST or OLLAMA_HOST\) must be host, host:port or an http\(s\) URL/),
    ]);
  });
});

describe("URL settings", () => {
  it.each([
    [
      "ops:skillsUrl",
      "localhost:8300",
      /^ops:skillsUrl \(or SKILLS_URL\) must be an http\(s\) URL .* with its scheme; got "localhost:8300"/,
    ],
    ["ops:controlUrl", "127.0.0.1:8200", /^ops:controlUrl \(or CONTROL_URL\) must be an http\(s\) URL/],
    [
      "ops:edgeBaseUrl",
      "api.example.com",
      /^ops:edgeBaseUrl \(or EDGE_BASE_URL or CLOUDFLARE_BASE_URL or CLOUDFLARE_API_BASE_URL\) must be an http\(s\) URL/,
    ],
    ["ops:pagesBaseUrl", "file:///etc", /^ops:pagesBaseUrl \(or PAGES_BASE_URL\) must be an http\(s\) URL/],
  ])("%s = %s is refused at preview with the real key", (key, value, message) => {
    withConfig({ [key]: value });
    expect(configProblems()).toEqual([expect.stringMatching(message)]);
  });

  it("accepts http(s) URLs", () => {
    withConfig({
      "ops:skillsUrl": "http://localhost:8300",
      "ops:controlUrl": "https://control.example/mcp",
      "ops:runnerHost": "gpu-box:11434",
    });
    expect(configProblems()).toEqual([]);
  });
});

describe("a schedule time, explained in human terms", () => {
  it("in the past, too soon, too far, or in milliseconds", async () => {
    const { scheduleProblem } = await import("../../provider/pages/page-post/schema");
    const now = Date.parse("2026-11-23T12:00:00Z");
    expect(scheduleProblem("2026-11-20T12:00:00Z", now)).toBe(
      "scheduledPublishTime 2026-11-20T12:00:00Z is 3 days in the past: a post is scheduled 10 minutes to 75 days ahead",
    );
    expect(scheduleProblem("2026-11-23T12:05:00Z", now)).toBe(
      "scheduledPublishTime 2026-11-23T12:05:00Z is only 5 minutes ahead: it must be at least 10 minutes ahead",
    );
    // Seconds shown where whole minutes mislead (issue 58): 4 min 59 s is not "4 minutes".
    expect(scheduleProblem("2026-11-23T12:04:59Z", now)).toBe(
      "scheduledPublishTime 2026-11-23T12:04:59Z is only 4 minutes 59 seconds ahead: it must be at least 10 minutes ahead",
    );
    expect(scheduleProblem("2027-06-01T00:00:00Z", now)).toMatch(/is 189 days ahead: it must be at most 75 days ahead/);
    expect(scheduleProblem(now + 3_600_000, now)).toMatch(
      /^scheduledPublishTime 1795438800000 looks like milliseconds: give Unix seconds \(1795438800, 2026-11-23T13:00:00.000Z\)/,
    );
    expect(scheduleProblem(now / 1000 + 3600, now)).toBeUndefined();
  });
});

describe("the services' own variable names", () => {
  const NAMES = [
    "CLOUDFLARE_API_TOKEN",
    "EDGE_API_TOKEN",
    "FACEBOOK_PAGE_ACCESS_TOKEN",
    "PAGES_ACCESS_TOKEN",
    "FACEBOOK_APP_ID",
    "THREADS_ACCESS_TOKEN",
    "POSTS_ACCESS_TOKEN",
  ];
  const saved = Object.fromEntries(NAMES.map((n) => [n, process.env[n]]));
  afterEach(() => {
    for (const n of NAMES)
      if (saved[n] === undefined) delete process.env[n];
      else process.env[n] = saved[n];
  });

  it("are read after the stack config and the project's own variables", () => {
    for (const n of NAMES) delete process.env[n];
    Object.assign(process.env, {
      CLOUDFLARE_API_TOKEN: "cf",
      FACEBOOK_PAGE_ACCESS_TOKEN: "fb",
      FACEBOOK_APP_ID: "123",
      THREADS_ACCESS_TOKEN: "th",
    });
    expect([
      read(EDGE_SETTINGS.apiToken),
      read(PAGES_SETTINGS.accessToken),
      read(PAGES_SETTINGS.appId),
      read(POSTS_SETTINGS.accessToken),
    ]).toEqual(["cf", "fb", "123", "th"]);
    Object.assign(process.env, { EDGE_API_TOKEN: "edge", PAGES_ACCESS_TOKEN: "pages", POSTS_ACCESS_TOKEN: "posts" });
    expect([read(EDGE_SETTINGS.apiToken), read(PAGES_SETTINGS.accessToken), read(POSTS_SETTINGS.accessToken)]).toEqual([
      "edge",
      "pages",
      "posts",
    ]);
    withConfig({ "ops:edgeApiToken": "config" });
    expect(read(EDGE_SETTINGS.apiToken)).toBe("config");
  });

  it("a credential in the stack's config that overrides another in the environment is named, never its value", () => {
    for (const n of NAMES) delete process.env[n];
    Object.assign(process.env, { CLOUDFLARE_API_TOKEN: "read-only-token", THREADS_ACCESS_TOKEN: "same-token" });
    const source = {
      get: (k: string) =>
        ({ "ops:edgeApiToken": "production-token", "ops:postsAccessToken": "same-token", "ops:pagesAccessToken": "only-in-config" })[k],
    };
    const said = credentialOverrides(source);
    expect(said.map(([key]) => key)).toEqual(["ops:edgeApiToken"]); // the same value, or none in the environment: nothing to say
    expect(said[0][1]).toBe(
      "ops:edgeApiToken in the stack's config overrides CLOUDFLARE_API_TOKEN in this run's environment (they differ), so this run uses the config's credential, not the one the job set; if the job's is meant (a read-only token for previews), remove it from the config: pulumi config rm ops:edgeApiToken",
    );
    expect(JSON.stringify(said)).not.toMatch(/read-only-token|production-token/);
  });
});

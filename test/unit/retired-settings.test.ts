/**
 * An upgrade never breaks a stack's config (issue 47): every setting any release had is a setting of today or a
 * retired one (provider/settings.ts RETIRED_SETTINGS), and a retired one is one warning on both doors, never a failed
 * check; a key no release had still fails, naming the nearest setting.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ACCOUNTS_KEY, ALL_SETTINGS, RETIRED_SETTINGS, useStackConfig } from "../../provider/config";
import { call, checkForEngine, configure } from "../../provider/door";
import { forgetShownWarnings, useLogSink } from "../../provider/log";

const releases = (
  JSON.parse(readFileSync(path.join(__dirname, "../fixtures/settings-by-release.json"), "utf8")) as { releases: Record<string, string[]> }
).releases;
const today = new Set([...ALL_SETTINGS.map((s) => s.key), ACCOUNTS_KEY]);
const warnings: string[] = [];

beforeEach(() => {
  useLogSink((severity, line) => (severity === "warning" && warnings.push(line), true));
  useStackConfig({ get: (k) => (k === "ops:quiet" ? "false" : undefined) });
});
afterEach(() => {
  warnings.splice(0);
  forgetShownWarnings();
  useLogSink(undefined);
  configure({ get: () => undefined });
});

describe("settings across releases", () => {
  it("every setting of every release is a setting of today or a retired one", () => {
    expect(Object.keys(releases)).toEqual(expect.arrayContaining(["0.2.0", "0.3.0", "0.4.0", "0.5.0", "0.6.0", "0.7.0"]));
    const lost = Object.entries(releases).flatMap(([release, keys]) =>
      keys.filter((k) => !today.has(k) && !(k in RETIRED_SETTINGS)).map((k) => `${k} (${release})`),
    );
    expect(lost).toEqual([]);
    // A retired key is no setting of today (else it would not be retired), and names its release.
    for (const [key, r] of Object.entries(RETIRED_SETTINGS)) {
      expect(today.has(key)).toBe(false);
      expect(r.since).toMatch(/^\d+\.\d+\.\d+$/);
    }
  });

  it("a 0.4.0 stack's ops:postsAppToken is one warning on the dynamic door, and every check passes", async () => {
    const raw = { "ops:postsAppToken": "app-token", "ops:edgeApiToken": "t", "ops:postsAccessToken": "p", "ops:quiet": "false" };
    configure({ get: (k: string) => raw[k as keyof typeof raw], rawConfig: raw } as never);
    const checked = await call("edge:DnsRecord", "check", [
      {},
      { zoneName: "example.com", type: "A", name: "www", content: "203.0.113.1" },
    ]);
    expect(checked.failures).toEqual([]);
    expect(warnings).toEqual([
      "ops:postsAppToken was retired in pulumi-ops 0.5.0 and is ignored: it held the app token of WebhookSubscription, and the short-post service has no API for webhook subscriptions (they are set up in its app dashboard); nothing replaces it. Remove it from the stack's config: pulumi config rm ops:postsAppToken",
    ]);
  });

  it("a key no release had still fails the check, naming the nearest setting", async () => {
    const raw = { "ops:postsAccesToken": "p" };
    configure({ get: (k: string) => raw[k as keyof typeof raw], rawConfig: raw } as never);
    const r = await checkForEngine("edge:DnsRecord", {}, { zoneName: "example.com", type: "A", name: "www", content: "203.0.113.1" });
    expect(r.failures.map((f) => f.reason).join(" ")).toMatch(
      /ops:postsAccesToken is not a pulumi-ops setting: did you mean ops:postsAccessToken\?/,
    );
  });

  it("the plugin door's CheckConfig: a retired key warns, an unknown one fails", async () => {
    // The plugin as the engine runs it (built: it reads schema.json beside the package); its warnings go to stderr,
    // which the engine shows (the plugin's own log module, not this test's).
    const plugin = await import("../../dist/provider/plugin");
    const said: string[] = [];
    const quiet = process.env.PULUMI_OPS_QUIET;
    process.env.PULUMI_OPS_QUIET = "0"; // the test runner quiets every file; this one is about what is said
    const write = vi.spyOn(process.stderr, "write").mockImplementation((chunk: unknown) => (said.push(String(chunk)), true));
    try {
      expect(plugin.providerConfigFailures({ postsAppToken: "app-token" })).toEqual([]);
      expect(said.some((w) => w.includes("warning: ops:postsAppToken was retired in pulumi-ops 0.5.0"))).toBe(true);
      expect(plugin.providerConfigFailures({ postsAppTokn: "x" })[0]).toMatchObject({ property: "postsAppTokn" });
    } finally {
      write.mockRestore();
      if (quiet === undefined) delete process.env.PULUMI_OPS_QUIET;
      else process.env.PULUMI_OPS_QUIET = quiet;
    }
  });
});

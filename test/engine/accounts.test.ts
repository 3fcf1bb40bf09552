/**
 * Several accounts in one stack, through the real engine, on both doors (test/programs/accounts): two edge
 * emulators that each know only their own token; records of the stack's own account and of the named account
 * `eu` (`ops:accounts`), and on the plugin door an explicit provider too. The plugin's default provider reads the
 * same stack config keys as the dynamic door (no environment variables are set). Neither token is at rest.
 */
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALL_PERMISSIONS, DEMO_TOKEN, EdgeEmulator } from "../../emulators";
import { engineStack, ROOT } from "../../scripts/engine";
import { withoutEnvFallback, type EngineStack } from "../helpers/engine";

const EU_TOKEN = "eu-account-token-0123456789";
let home: EdgeEmulator, eu: EdgeEmulator;
let engine: EngineStack;
const names = (edge: EdgeEmulator) =>
  [...[...edge.zones.values()].find((z) => z.name === "example.com")!.records.values()]
    .map((r) => r.name.replace(".example.com", ""))
    .sort();
const writes = () => [...home.log, ...eu.log].filter((e) => e.method !== "GET");

beforeAll(async () => {
  withoutEnvFallback();
  [home, eu] = await Promise.all([new EdgeEmulator().start(), new EdgeEmulator({ tokens: { [EU_TOKEN]: ALL_PERMISSIONS } }).start()]);
  engine = await engineStack(
    path.join(ROOT, "test/programs/accounts"),
    {
      "ops:edgeApiToken": { value: DEMO_TOKEN, secret: true },
      "ops:edgeBaseUrl": { value: home.url },
      "accounts:euToken": { value: EU_TOKEN, secret: true },
      "accounts:euUrl": { value: eu.url },
    },
    "accounts",
    { PULUMI_OPS_QUIET: "0" },
  );
  await engine.stack.setConfig("ops:accounts.eu.edgeApiToken", { value: EU_TOKEN, secret: true }, true);
  await engine.stack.setConfig("ops:accounts.eu.edgeBaseUrl", { value: eu.url }, true);
}, 300_000);

afterAll(async () => {
  await engine?.dispose();
  await Promise.all([home?.stop(), eu?.stop()]);
});

describe("two edge accounts in one stack, on both doors", { timeout: 300_000 }, () => {
  it("1. preview shows five creates and sends no write", async () => {
    const preview = await engine.stack.preview();
    expect(preview.changeSummary.create).toBe(7); // five records, the explicit provider, the stack
    expect(writes()).toEqual([]);
  });

  it("2. a misspelt provider key is refused at preview with the nearest key", async () => {
    await engine.stack.setConfig("ops:edgeApiTokn", { value: "x" });
    const failed = await engine.stack.preview().catch((e: Error) => e);
    await engine.stack.removeConfig("ops:edgeApiTokn");
    // Whichever door the engine asks first names it: the plugin's CheckConfig, or the dynamic door's check.
    expect(String(failed)).toMatch(/edgeApiTokn is not a (known property|pulumi-ops setting): did you mean (ops:)?edgeApiToken\?/);
    expect(writes()).toEqual([]);
  });

  it("3. up puts each record in its own account; a second up changes nothing", async () => {
    const up = await engine.stack.up();
    expect(up.summary.resourceChanges?.create).toBe(7);
    expect(names(home)).toEqual(["home-dynamic", "home-plugin"]);
    expect(names(eu)).toEqual(["eu-dynamic", "eu-plugin", "eu-plugin-account"]);
    await engine.stack.up({ expectNoChanges: true });
  });

  it("4. neither token is at rest", () => {
    const atRest = engine.backendText();
    expect(atRest).toContain("eu-dynamic"); // the scan reads the state
    for (const token of [DEMO_TOKEN, EU_TOKEN]) expect(atRest).not.toContain(token);
  });

  it("5. refresh reads each record from its account: nothing drifted", async () => {
    const refresh = await engine.stack.refresh();
    expect(refresh.summary.resourceChanges).not.toHaveProperty("update");
    await engine.stack.preview({ expectNoChanges: true });
  });

  it("6. destroy removes every record from both accounts", async () => {
    await engine.stack.destroy();
    expect(names(home)).toEqual([]);
    expect(names(eu)).toEqual([]);
  });
});

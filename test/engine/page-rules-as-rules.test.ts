/**
 * A zone's page rules moved to the rules that replace them through the real engine (issue 45): `pulumi-ops import
 * --page-rules-as-rules` writes the program (the zone's records and settings taken over, each page rule as new
 * RulesetRules); its preview writes nothing, its up makes the new rules, and the preview after shows no change.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { mkdtempSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_TOKEN, EdgeEmulator } from "../../emulators";
import { engineStack, ROOT } from "../../scripts/engine";
import { withoutEnvFallback, type EngineStack } from "../helpers/engine";

let edge: EdgeEmulator;
let engine: EngineStack | undefined;
const zone = () => [...edge.zones.values()].find((z) => z.name === "example.com")!;
const rules = (phase: string) => edge.rulesets.entrypoint(zone().id, phase)?.rules ?? [];
const writes = () => edge.log.filter((e) => e.method !== "GET" && !e.path.startsWith("/__")).map((e) => `${e.method} ${e.path}`);

beforeAll(async () => {
  withoutEnvFallback();
  edge = await new EdgeEmulator().start();
}, 120_000);

afterAll(async () => {
  await engine?.dispose();
  await edge?.stop();
});

describe("page rules moved to the rules that replace them, through the engine", { timeout: 300_000 }, () => {
  it("written by import, previewed with no write, applied, then no change", async () => {
    const env = { ...process.env, EDGE_BASE_URL: edge.url, EDGE_API_TOKEN: DEMO_TOKEN, PULUMI_OPS_QUIET: "1" };
    const api = (p: string, body: unknown) =>
      fetch(`${edge.url}/client/v4/zones/${zone().id}${p}`, {
        method: "POST",
        headers: { authorization: `Bearer ${DEMO_TOKEN}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    await api("/pagerules", {
      targets: [{ target: "url", constraint: { operator: "matches", value: "example.com/old/*" } }],
      actions: [{ id: "forwarding_url", value: { url: "https://example.com/new/$1", status_code: 301 } }],
      status: "active",
    });
    await api("/pagerules", {
      targets: [{ target: "url", constraint: { operator: "matches", value: "example.com/static/*" } }],
      actions: [
        { id: "cache_level", value: "cache_everything" },
        { id: "security_level", value: "high" },
      ],
      status: "active",
    });
    const out = mkdtempSync(path.join(tmpdir(), "as-rules-engine-"));
    // Not execFileSync: the emulator answers from this process.
    const { stdout: said } = await promisify(execFile)(
      process.execPath,
      [
        path.join(ROOT, "dist/provider/cli/main.js"),
        "import",
        "--zone",
        "example.com",
        "--page-rules-as-rules",
        "--no-protect",
        "--out",
        out,
      ],
      { env, encoding: "utf8" },
    );
    expect(said).toMatch(/page rule example.com\/static\/\* written as 2 RulesetRules/);
    symlinkSync(path.join(ROOT, "node_modules"), path.join(out, "node_modules")); // resolves pulumi-ops as the repo's test programs do
    engine = await engineStack(
      out,
      { "ops:edgeBaseUrl": { value: edge.url }, "ops:edgeApiToken": { value: DEMO_TOKEN, secret: true } },
      "moved",
    );
    edge.log.splice(0);
    await engine.stack.preview();
    expect(writes()).toEqual([]);
    await engine.stack.up();
    expect(rules("http_request_dynamic_redirect")).toHaveLength(1);
    expect(rules("http_request_cache_settings")[0]).toMatchObject({ action_parameters: { cache: true } });
    expect(rules("http_config_settings")[0]).toMatchObject({ action_parameters: { security_level: "high" } });
    await engine.stack.preview({ expectNoChanges: true });
  });
});

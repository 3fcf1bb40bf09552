/**
 * The edge emulator held to the official Python SDK (PyPI `cloudflare` 5.9, installed by scripts/install-python.sh
 * into .tools/python) with strict response validation: each answer is parsed into the models generated from the
 * service's own schema, so an answer of another shape fails here (it found the zone's `meta`, `owner` and
 * `development_mode` missing). test/emulator/cloudflare_strict.py drives every endpoint pulumi-ops uses.
 */
import { execFile } from "node:child_process";
import * as path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_ACCOUNT, DEMO_ACCOUNT_TOKEN, DEMO_TOKEN, EdgeEmulator } from "../../emulators";
import { ROOT } from "../../scripts/root";
import { zoneId } from "../helpers/edge";

let edge: EdgeEmulator;
beforeAll(async () => {
  edge = await new EdgeEmulator({ plans: { "example.com": "pro" } }).start();
});
afterAll(() => edge.stop());

describe("edge emulator with the official Python SDK, strict response validation", () => {
  it("answers every call pulumi-ops makes in the shapes of the service's schema", { timeout: 60_000 }, async () => {
    const put = await fetch(`${edge.url}/client/v4/accounts/${DEMO_ACCOUNT}/workers/scripts/sw`, {
      method: "PUT",
      headers: { authorization: `Bearer ${DEMO_TOKEN}`, "content-type": "application/javascript" },
      body: "addEventListener('fetch', (e) => e.respondWith(new Response('x')))",
    });
    expect(put.status).toBe(200);
    const python = path.join(ROOT, ".tools/python/bin/python");
    const script = path.join(ROOT, "test/emulator/cloudflare_strict.py");
    const run = await promisify(execFile)(
      python,
      [script, `${edge.url}/client/v4`, DEMO_TOKEN, DEMO_ACCOUNT_TOKEN, DEMO_ACCOUNT, zoneId(edge)],
      { encoding: "utf8" },
    ).catch((e: { stdout: string; stderr: string }) => e);
    expect(run.stderr.split("\n").slice(-6).join("\n")).not.toMatch(/Error/);
    expect(JSON.parse(run.stdout)).toEqual({
      user_token: "active",
      account_token: "active",
      account_token_at_user_endpoint: 401,
      zone: ["example.com", "pro"],
      zones: ["example.com", "example.org"],
      ssl: "flexible",
      browser_cache_ttl: 3600,
      txt_strings: 2,
      batch_posts: 1,
      record: "TXT",
      records: 2,
      entrypoint_before: 404,
      edited: ["block", "managed_challenge"],
      after_delete: ["first"],
      entrypoint: 1,
      ruleset_by_id: 1,
      ratelimit: [10, 20],
      pagerules: 0,
      scripts: ["sw"],
      routes: ["example.com/sw/*"],
      route_script: "sw",
      domain: ["sw"],
      domain_record: [["AAAA", "100::"]],
      domain_get: "api.example.com",
      subdomain: true,
      subdomain_get: false,
      secrets: ["API_KEY"],
      kv: [["sessions-v2", true]],
      kv_get: "sessions-v2",
      r2: ["site-files", "Standard", ["site-files"]],
      d1: ["site-orders", 1],
    });
  });
});

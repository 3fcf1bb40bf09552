/**
 * Every edge object a zone has, taken over (issues 46 and 61): a Pro zone with a Worker (a variable, a secret,
 * workers.dev, bindings to a KV namespace and an R2 bucket, which are written too), two routes, a custom domain, six
 * settings changed from a new zone's values and a record with tags and a setting.
 * `pulumi-ops import` writes the program (the script's code into workers/), its preview sends nothing, its first up
 * sends nothing, and the next preview shows no change.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_ACCOUNT, DEMO_TOKEN, EdgeEmulator } from "../../emulators";
import { call, checkForEngine } from "../../provider/door";
import { engineStack, ROOT } from "../../scripts/engine";
import type { EngineStack } from "../helpers/engine";

const run = promisify(execFile); // async: the emulator answers from this process
const scratch = mkdtempSync(path.join(tmpdir(), "pulumi-ops-import-edge-"));
const SCRIPT =
  'export default {\n  async fetch(request, env) {\n    return new Response(env.GREETING + (await env.SESSIONS.get("x")));\n  },\n};\n';
const CHANGED = { brotli: "off", browser_cache_ttl: 3600, min_tls_version: "1.2", "0rtt": "on", challenge_ttl: 3600, max_upload: 200 };
let edge: EdgeEmulator;
let engine: EngineStack | undefined;
const writes = () => edge.log.filter((l) => l.method !== "GET" && !l.path.startsWith("/__")).map((l) => `${l.method} ${l.path}`);

async function make(type: string, inputs: Record<string, unknown>): Promise<void> {
  const checked = await checkForEngine(type, {}, inputs);
  expect(checked.failures).toEqual([]);
  await call(type, "create", [checked.inputs]);
}

beforeAll(async () => {
  edge = await new EdgeEmulator({ plans: { "example.com": "pro" } }).start();
  Object.assign(process.env, { PULUMI_OPS_QUIET: "1", EDGE_BASE_URL: edge.url, EDGE_API_TOKEN: DEMO_TOKEN, EDGE_ACCOUNT_ID: DEMO_ACCOUNT });
  // Made out of band, before pulumi-ops: by hand, by wrangler, by another tool.
  const namespaceId = (
    await call("edge:KvNamespace", "create", [(await checkForEngine("edge:KvNamespace", {}, { title: "site-sessions" })).inputs])
  ).outs.namespaceId;
  await make("edge:R2Bucket", { name: "site-files" });
  await make("edge:WorkerScript", {
    name: "site",
    content: SCRIPT,
    bindings: [
      { name: "SESSIONS", type: "kv_namespace", namespaceId },
      { name: "FILES", type: "r2_bucket", bucketName: "site-files" },
    ],
    vars: { GREETING: "hello" },
    secrets: { API_KEY: "s3cret" },
    workersDev: true,
  });
  await make("edge:WorkerRoute", { zoneName: "example.com", pattern: "example.com/app/*", script: "site" });
  await make("edge:WorkerRoute", { zoneName: "example.com", pattern: "example.com/app/static/*" }); // no script: an exception
  await make("edge:WorkerDomain", { zoneName: "example.com", hostname: "api.example.com", script: "site" });
  await make("edge:DnsRecord", {
    zoneName: "example.com",
    type: "CNAME",
    name: "www",
    content: "origin.example.net",
    ttl: 300,
    tags: ["env:prod"],
    settings: { flattenCname: true },
  });
  for (const [settingId, value] of Object.entries(CHANGED)) await make("edge:ZoneSetting", { zoneName: "example.com", settingId, value });
}, 300_000);

afterAll(async () => {
  await engine?.dispose();
  await edge?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

describe("a zone's Workers, routes, domains and settings taken over with zero writes", { timeout: 300_000 }, () => {
  const program = path.join(scratch, "edge-imported");

  it("1. import writes the script's code beside the program, the routes, the domain, the changed settings and the record's tags", async () => {
    const { stdout } = await run(
      process.execPath,
      [path.join(ROOT, "dist/provider/cli/main.js"), "import", "--zone", "example.com", "--out", program],
      { env: process.env },
    );
    expect(stdout).toMatch(/the script site's secrets \(API_KEY\) stay on it as they are/);
    expect(readFileSync(path.join(program, "workers/site.js"), "utf8")).toBe(SCRIPT);
    const index = readFileSync(path.join(program, "index.ts"), "utf8");
    expect(index.match(/new ops\.edge\.WorkerRoute\(/g)).toHaveLength(2);
    expect(index).toMatch(
      /new ops\.edge\.WorkerDomain\("domain-api-example-com", \{[^}]*"hostname": "api\.example\.com",\s+"script": "site"/,
    );
    expect(index).toMatch(
      /new ops\.edge\.WorkerScript\("script-site", \{[^]*"source": "workers\/site\.js"[^]*"vars": \{\s+"GREETING": "hello"\s+\}[^]*"workersDev": true/,
    );
    for (const id of Object.keys(CHANGED)) expect(index).toContain(`"settingId": "${id}"`);
    // The storage the script is bound to, and its bindings.
    expect(index).toMatch(/new ops\.edge\.KvNamespace\("kv-sessions", \{[^}]*"title": "site-sessions"[^}]*"adopt": true/);
    expect(index).toMatch(/new ops\.edge\.R2Bucket\("bucket-site-files", \{[^}]*"name": "site-files"[^}]*"adopt": true/);
    expect(index).toMatch(/"bindings": \[[^\]]*"name": "SESSIONS",\s+"type": "kv_namespace",\s+"namespaceId": "[0-9a-f]{32}"/);
    expect(index).toMatch(/"tags": \[\s+"env:prod"\s+\],\s+"settings": \{\s+"flattenCname": true/);
    // The custom domain's record is the service's: not written as a DnsRecord.
    expect(index).not.toMatch(/"name": "api\.example\.com",\s+"content": "100::"/);
    expect(index.match(/new ops\.edge\.DnsRecord\(/g)).toHaveLength(1);
  });

  it("2. its preview and first up send nothing; the next preview shows no change", async () => {
    symlinkSync(path.join(ROOT, "node_modules"), path.join(program, "node_modules"));
    engine = await engineStack(program, {}, "edge-imported");
    edge.log.splice(0);
    await engine.stack.preview();
    expect(writes()).toEqual([]);
    const up = await engine.stack.up();
    expect(up.summary.resourceChanges?.create).toBe(17); // 2 routes, a domain, a script, its KV namespace and R2 bucket, a record, 3 + 6 settings, and the stack
    expect(writes()).toEqual([]);
    await engine.stack.preview({ expectNoChanges: true });
    expect(writes()).toEqual([]);
  });
});

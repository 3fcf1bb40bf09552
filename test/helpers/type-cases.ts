/**
 * One create's inputs for every resource type but the retired ones (registry `retired`), against the emulators' seeded objects (example.com, the demo account,
 * page and app, the ai-host example's files): the fault matrix and the preview/up parity matrix both start from them.
 */
import * as path from "node:path";
import { DEMO_ACCOUNT, PAGE_ID } from "../../emulators";

const EX = path.resolve(__dirname, "../../examples/ai-host");

export const CREATE_INPUTS: Record<string, Record<string, unknown>> = {
  "edge:DnsRecord": { zoneName: "example.com", type: "A", name: "lost", content: "203.0.113.10", ttl: 300 },
  "edge:DnsRecordSet": {
    zoneName: "example.com",
    records: { "lost-a": { type: "A", name: "lost-set", content: "203.0.113.11", ttl: 300 } },
  },
  "edge:ZoneSetting": { zoneName: "example.com", settingId: "security_level", value: "high" },
  "edge:PageRule": {
    zoneName: "example.com",
    targets: ["example.com/lost/*"],
    actions: [{ id: "cache_level", value: "cache_everything" }],
  },
  "edge:FirewallRule": { zoneName: "example.com", filter: { expression: 'http.request.uri.path eq "/lost"' }, action: "block" },
  // What a Free plan's zone allows (the emulator's zones are Free unless told): 10 s, and paths only.
  "edge:RateLimit": {
    zoneName: "example.com",
    threshold: 10,
    period: 10,
    action: { mode: "ban", timeout: 10 },
    match: { request: { url: "*/lost*" } },
  },
  "edge:RulesetRule": {
    zoneName: "example.com",
    phase: "http_request_cache_settings",
    expression: 'http.request.uri.path wildcard "/lost/*"',
    action: "set_cache_settings",
    actionParameters: { cache: true },
  },
  "edge:WorkerScript": { accountId: DEMO_ACCOUNT, name: "lost", content: "export default { fetch() { return new Response('ok') } }" },
  "edge:WorkerRoute": { zoneName: "example.com", pattern: "example.com/lost/*", script: "lost-site" },
  "edge:WorkerDomain": { accountId: DEMO_ACCOUNT, zoneName: "example.com", hostname: "lost.example.com", script: "lost-site" },
  "edge:KvNamespace": { accountId: DEMO_ACCOUNT, title: "lost-namespace" },
  "edge:R2Bucket": { accountId: DEMO_ACCOUNT, name: "lost-bucket", storageClass: "Standard" },
  "edge:D1Database": { accountId: DEMO_ACCOUNT, name: "lost-database" },
  "pages:PagePost": { pageId: PAGE_ID, message: "Lost and found" },
  "pages:PageRole": { pageId: PAGE_ID, user: "300000000000003", role: "EDITOR" },
  "pages:PageSubscription": { pageId: PAGE_ID, subscribedFields: ["feed"] },
  "posts:Post": { mediaType: "TEXT", text: "Lost and found" },
  "runner:RunnerModel": { name: "lost", from: "qwen2.5:0.5b", system: "Be brief." },
  "skills:Skill": { slug: "oven-care", source: path.join(EX, "skills/oven-care/SKILL.md"), category: "ops" },
  "skills:GeneratedSkill": {
    slug: "oven-runbook",
    sources: [path.join(EX, "sources/deck-oven-handbook.md"), path.join(EX, "sources/bake-schedule.md")],
    model: "qwen2.5:0.5b",
    category: "ops",
  },
  "control:RemoteDesktopSession": { host: "kiosk.local", username: "ops", password: "kiosk-password-1", waitSeconds: 3 },
  "control:RemoteCommand": { create: "echo ran >> /tmp/lost-runs" },
  "pages:PageProfile": { pageId: PAGE_ID, about: "Lost and found, since 1921" },
  "control:RemoteFile": { path: "/tmp/lost-file.conf", content: "lost and found\n", mode: "644" },
};

/** Scripts a route or a custom domain points at, put on the edge emulator before those types' cases (as deployed). */
export function seedScripts(edge: { scripts: Map<string, unknown>; timestamp(): string }, names = ["lost-site", "lost-other"]): void {
  const body = "export default { fetch() { return new Response('ok') } }";
  for (const name of names) {
    const now = edge.timestamp();
    edge.scripts.set(name, {
      body,
      format: "module",
      main: "worker.js",
      parts: [{ name: "worker.js", type: "application/javascript+module", text: body }],
      compatibility_date: "2026-11-01",
      compatibility_flags: [],
      tags: [],
      bindings: [],
      durable_classes: [],
      subdomain: { enabled: false, previews_enabled: false },
      created_on: now,
      modified_on: now,
    });
  }
}

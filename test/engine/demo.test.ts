/**
 * `npm run demo` end to end (scripts/demo.ts on examples/whole-stack, the real engine, the six emulators): after each
 * step, each service's state and the requests the step sent are checked from the emulators themselves, not from what
 * the demo prints. Then `--keep`: the stack and the emulators stay up after the restoring up.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { LogEntry } from "../../emulators";
import type { EveryService } from "../../emulators/every-service";
import { isWrite, SERVICES, type ServiceName, type StepLogs } from "../../scripts/demo-report";
import { runDemo, type Demo, type DemoStep } from "../../scripts/demo";
import { withoutEnvFallback } from "../helpers/engine";

type Sent = Record<ServiceName, LogEntry[]>;
const writes = (sent: Sent) =>
  Object.fromEntries(SERVICES.map((n) => [n, sent[n].filter((e) => isWrite(n, e)).map((e) => `${e.method} ${e.path}`)]));
const commands = (logs: StepLogs) =>
  logs
    .toolCalls()
    .filter((c) => c.tool === "run_command")
    .map((c) => String(c.args.command));

function zone(s: EveryService) {
  return [...s.edge.zones.values()].find((z) => z.name === "example.com")!;
}
const record = (s: EveryService, name: string) => [...zone(s).records.values()].find((r) => r.name === name);
const rules = (s: EveryService, phase: string) => s.edge.rulesets.entrypoint(zone(s).id, phase)?.rules.length ?? 0;
const siteFile = (s: EveryService) => s.control.machine.files.get("/etc/site/bakery.conf");

interface Seen {
  sent: Sent;
  writes: Record<string, string[]>;
  commands: string[];
}

describe("npm run demo: the whole stack through the engine", { timeout: 300_000 }, () => {
  const printed: string[] = [];
  const seen = new Map<DemoStep, Seen>();
  let kept: Demo | undefined;
  afterAll(async () => kept?.stop());

  it("runs every step, each checked from the emulators as it ends", async () => {
    withoutEnvFallback();
    let sslBefore: unknown;
    await runDemo({
      print: (line) => printed.push(line),
      afterStep: (step, s, logs) => {
        const sent = logs.since();
        seen.set(step, { sent, writes: writes(sent), commands: commands(logs) });
        const w = seen.get(step)!.writes;
        if (step === "preview") {
          sslBefore = zone(s).settings.ssl.value;
          // Every service was asked (checks at preview read), none was written to, no command ran.
          for (const n of ["edge", "pages", "posts", "runner", "skills"] as const) expect(sent[n].length, n).toBeGreaterThan(0);
          expect(w).toEqual({ edge: [], pages: [], posts: [], runner: [], skills: [], control: [] });
          expect(commands(logs)).toEqual([]);
          expect(zone(s).records.size).toBe(0);
        }
        if (step === "up") {
          expect(record(s, "api.example.com")).toMatchObject({ type: "A", content: "203.0.113.20", ttl: 300 });
          expect(record(s, "www.example.com")).toMatchObject({ type: "CNAME", content: "example.com", proxied: true });
          expect(zone(s).settings.ssl.value).toBe("strict");
          expect([
            rules(s, "http_request_firewall_custom"),
            rules(s, "http_ratelimit"),
            s.edge.pageRulesOf!(zone(s).id).length,
            s.edge.scripts.size,
          ]).toEqual([1, 1, 1, 1]);
          // Across services: the posts link to the hostname the edge answers for; the assistant knows the site.
          expect([...s.pages.posts.values()].map((p) => p.message)).toEqual(["Order online now at https://www.example.com"]);
          expect([...s.pages.pages.get("200000000000001")!.assigned.keys()]).toEqual(["300000000000003"]);
          expect([...s.posts.posts.values()].map((p) => p.text)).toEqual(["Fresh bread, now online: https://www.example.com"]);
          expect([...s.runner.models.keys()].sort()).toEqual(["qwen2.5:0.5b", "site-assistant:latest"]);
          expect(JSON.stringify(s.runner.models.get("site-assistant:latest"))).toContain("You answer the bakery's staff about example.com");
          expect([...s.skills.skills.keys()]).toEqual(["oven-runbook"]);
          // The skill was written by the assistant: a chat with that model, then the publish.
          expect(sent.runner.some((e) => e.path === "/api/chat")).toBe(true);
          expect(w.skills).toEqual(["PUT /api/skills/oven-runbook"]);
          expect(siteFile(s)).toBe("server_name example.com www.example.com\n");
          expect(commands(logs)).toHaveLength(1);
        }
        if (step === "outputs") for (const n of SERVICES) expect(sent[n], n).toEqual([]);
        if (step === "out-of-band")
          expect(
            Object.entries(w)
              .filter(([, v]) => v.length)
              .map(([n, v]) => [n, v.length]),
          ).toEqual([
            ["edge", 1],
            ["pages", 1],
          ]);
        if (step === "refresh") {
          expect(w).toEqual({ edge: [], pages: [], posts: [], runner: [], skills: [], control: [] });
          expect(commands(logs)).toEqual([]);
        }
        if (step === "restore") {
          // Exactly the two changed objects are written back, nothing else anywhere.
          const api = record(s, "api.example.com")!;
          expect(w).toEqual({
            edge: [`PATCH /client/v4/zones/${zone(s).id}/dns_records/${api.id}`],
            pages: [expect.stringMatching(/^POST \/v[\d.]+\/200000000000001_\w+$/)],
            posts: [],
            runner: [],
            skills: [],
            control: [],
          });
          expect(commands(logs)).toEqual([]);
          expect(api).toMatchObject({ content: "203.0.113.20", ttl: 300 });
          expect([...s.pages.posts.values()].map((p) => p.message)).toEqual(["Order online now at https://www.example.com"]);
        }
        if (step === "destroy") {
          expect(zone(s).records.size).toBe(0);
          expect(zone(s).settings.ssl.value).toBe(sslBefore);
          expect([
            rules(s, "http_request_firewall_custom"),
            rules(s, "http_ratelimit"),
            s.edge.pageRulesOf!(zone(s).id).length,
            s.edge.scripts.size,
          ]).toEqual([0, 0, 0, 0]);
          expect([
            s.pages.posts.size,
            s.pages.pages.get("200000000000001")!.assigned.size,
            s.posts.posts.size,
            s.runner.models.size,
          ]).toEqual([0, 0, 0, 0]);
          expect(siteFile(s)).toBeUndefined();
          expect(commands(logs)).toEqual([expect.stringMatching(/^rm -f \/etc\/site\/bakery.conf\n/)]);
          // The registry has no delete: the skill stays, as the demo says.
          expect(sent.skills.filter((e) => e.method === "DELETE").map((e) => e.status)).toEqual([405]);
          expect([...s.skills.skills.keys()]).toEqual(["oven-runbook"]);
        }
      },
    });
    expect([...seen.keys()]).toEqual(["preview", "up", "outputs", "out-of-band", "refresh", "restore", "destroy"]);
  });

  it("prints one line per service after each step, and says plainly what the registry keeps", () => {
    const serviceLines = printed.filter((l) => /^ {2}(edge|pages|posts|runner|skills|control) /.test(l));
    expect(serviceLines).toHaveLength(7 * 6);
    expect(printed.join("\n")).toMatch(/refresh: exactly those two[\s\S]*→ \{"same":15,"update":2\}/);
    expect(printed.join("\n")).toMatch(/oven-runbook stays published/);
    // The edge line says what the zone serves: the script on its route.
    expect(serviceLines.filter((l) => /^ {2}edge .*1 script \(example\.com\/edge\/\* runs site-edge\)/.test(l)).length).toBeGreaterThan(0);
    // The refresh shows what drifted, and only that (the whole CLI output is --verbose's).
    const refresh = printed.slice(
      printed.findIndex((l) => l.includes("=== 5.")),
      printed.findIndex((l) => l.includes("=== 6.")),
    );
    const drifted = refresh
      .filter((l) => l.includes("[diff: "))
      .map((l) => /dynamic\/(\S+ \S+) updated .*\[diff: (.*)\]/.exec(l)!.slice(1).join(" "));
    expect(drifted.sort()).toEqual(["edge:DnsRecord api ~content,ttl", "pages:PagePost site-launch ~message"]);
  });

  it("--keep leaves the stack and the emulators up after the restoring up", async () => {
    const lines: string[] = [];
    kept = await runDemo({ keep: true, print: (l) => lines.push(l) });
    expect(lines.join("\n")).toMatch(/kept: the stack and the emulators stay up/);
    expect(lines.join("\n")).not.toMatch(/pulumi destroy/);
    const s = kept.services;
    expect(record(s, "api.example.com")).toMatchObject({ content: "203.0.113.20" });
    const answer = await fetch(`${s.edge.url}/client/v4/zones/${zone(s).id}/dns_records`, {
      headers: { authorization: `Bearer ${(await import("../../emulators")).DEMO_TOKEN}` },
    });
    expect(answer.status).toBe(200);
    expect(Object.keys(await kept.engine.stack.outputs())).toContain("site");
  });
});

/**
 * What the demo prints after each step: one line per service, from the emulators themselves (their request logs and
 * what they hold), never from Pulumi's own account of what it did. Reading them sends no request.
 */
import type { LogEntry } from "../emulators";
import type { EveryService } from "../emulators/every-service";

export const SERVICES = ["edge", "pages", "posts", "runner", "skills", "control"] as const;
export type ServiceName = (typeof SERVICES)[number];

/** Requests that only read, though not sent as GET: analytics queries, read batches, model details, chats. */
const READING_POSTS: Record<ServiceName, RegExp> = {
  edge: /\/graphql$/,
  pages: /^\/(v[\d.]+)?\/?$/, // a batch of reads (`POST /` with `batch=[GET ...]`)
  posts: /^$/,
  runner: /^\/api\/(show|chat|generate)$|^\/v1\/chat\/completions$/,
  skills: /^$/,
  control: /^$/,
};

/**
 * Whether a logged request asked the service to change something. The control endpoint's requests are its protocol
 * (POST and DELETE /mcp open and close sessions): what changed the host is in its tool calls (StepLogs.toolCalls).
 */
export function isWrite(service: ServiceName, e: LogEntry): boolean {
  if (e.method === "GET" || e.method === "HEAD" || service === "control") return false;
  return !(e.method === "POST" && READING_POSTS[service].test(e.path));
}

/** The request log of each service from a mark on: the requests one step sent. */
export class StepLogs {
  private marks: Record<ServiceName, number> = { edge: 0, pages: 0, posts: 0, runner: 0, skills: 0, control: 0 };
  private calls = 0;

  constructor(private readonly s: EveryService) {
    this.mark();
  }

  mark(): void {
    for (const name of SERVICES) this.marks[name] = this.s[name].log.length;
    this.calls = this.s.control.calls.length;
  }

  /** Requests since the mark, by service. */
  since(): Record<ServiceName, LogEntry[]> {
    return Object.fromEntries(SERVICES.map((n) => [n, this.s[n].log.slice(this.marks[n])])) as Record<ServiceName, LogEntry[]>;
  }

  /** The control endpoint's tool calls since the mark (run_command, applescript, ...). */
  toolCalls(): { tool: string; args: Record<string, unknown> }[] {
    return this.s.control.calls.slice(this.calls);
  }
}

/** What each service holds now, in a few words. */
export function holdings(s: EveryService, zoneName = "example.com"): Record<ServiceName, string> {
  const zone = [...s.edge.zones.values()].find((z) => z.name === zoneName);
  const rulesets = ["http_request_firewall_custom", "http_ratelimit"].map(
    (p) => (zone && s.edge.rulesets.entrypoint(zone.id, p)?.rules.length) || 0,
  );
  const pageRules = zone ? (s.edge.pageRulesOf?.(zone.id).length ?? 0) : 0;
  const roles = [...s.pages.pages.values()].flatMap((p) => [...p.assigned.keys()].map((u) => `${u} on ${p.id}`));
  // What the zone serves: each route's pattern and the script it runs, and each custom domain's.
  const served = zone
    ? [...(s.edge.workerRoutes.get(zone.id)?.values() ?? [])].filter((r) => r.script).map((r) => `${r.pattern} runs ${r.script}`)
    : [];
  served.push(...[...s.edge.domains.values()].filter((d) => d.zone_id === zone?.id).map((d) => `${d.hostname} runs ${d.service}`));
  const siteFiles = [...s.control.machine.files.keys()].filter((f) => f.startsWith("/etc/"));
  return {
    edge: zone
      ? `${zoneName}: ${zone.records.size} records, ${pageRules} page rules, ${rulesets[0]} firewall rules, ${rulesets[1]} rate limits, ${s.edge.scripts.size} script${s.edge.scripts.size === 1 ? "" : "s"} (${served.join(", ") || "serving nothing"}); ssl ${String(zone.settings.ssl?.value)}`
      : `no zone ${zoneName}`,
    pages: `${s.pages.posts.size} posts; people given tasks: ${roles.length ? roles.join(", ") : "none"}`,
    posts: `${s.posts.posts.size} published posts`,
    runner: `models: ${[...s.runner.models.keys()].sort().join(", ") || "none"}`,
    skills: `published: ${[...s.skills.skills.keys()].sort().join(", ") || "none"}`,
    control: `files under /etc: ${siteFiles.join(", ") || "none"}`,
  };
}

/** One line per service: the requests a step sent (and how many wrote), then what the service holds. */
export function report(logs: StepLogs, s: EveryService): string[] {
  const sent = logs.since();
  const held = holdings(s);
  const commands = logs.toolCalls().filter((c) => c.tool === "run_command" || c.tool === "applescript").length;
  const count = (n: number, what: string) => `${n} ${what}${n === 1 ? "" : "s"}`;
  return SERVICES.map((name) => {
    const asked = sent[name].filter((e) => isWrite(name, e));
    // A write the service turned away (the registry's 405 to a delete) changed nothing: said apart.
    const refused = asked.filter((e) => e.status >= 400).length;
    const writes = `${count(asked.length - refused, "write")}${refused ? ` (${refused} refused)` : ""}`;
    const requests =
      name === "control"
        ? `${count(logs.toolCalls().length, "tool call")}, ${count(commands, "command")} run`
        : `${count(sent[name].length, "request")}, ${writes}`;
    return `  ${name.padEnd(8)}${requests.padEnd(34)}${held[name]}`;
  });
}

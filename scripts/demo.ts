/**
 * `npm run demo`: one operator's whole stack (examples/whole-stack: the site on the edge network, its page and short
 * posts, a model, a generated skill, a file on the site's host) through the real Pulumi engine, against the six
 * embedded emulators, in the order a user lives it: preview (nothing written), up, the outputs, changes made out of
 * band on two services, refresh revealing exactly those, up restoring them, destroy. After each step, one line per
 * service from the emulators themselves: the requests the step sent, and what the service holds.
 * `npm run demo -- --keep` stops before destroy and keeps the stack and the emulators for exploring; `--verbose`
 * shows the CLI's whole output at every step (by default only the plans and the refresh that finds the drift).
 */
import * as path from "node:path";
import { PAGES_PAGE_TOKEN, DEMO_TOKEN } from "../emulators";
import { everyServiceConfig, startEveryService, stopEveryService, type EveryService } from "../emulators/every-service";
import { report, StepLogs } from "./demo-report";
import { engineStack, ROOT, type EngineStack } from "./engine";

export const DEMO_PROGRAM = path.join(ROOT, "examples/whole-stack");

export type DemoStep = "preview" | "up" | "outputs" | "out-of-band" | "refresh" | "restore" | "destroy";

export interface DemoOptions {
  keep?: boolean;
  /** The CLI's whole output at every step; by default only what is the point of a step: the plans and the drift. */
  verbose?: boolean;
  /** Where the demo's lines go (the console by default). */
  print?: (line: string) => void;
  /** Called after each step, before the next begins, with the emulators and the requests that step sent. */
  afterStep?: (step: DemoStep, services: EveryService, logs: StepLogs) => void | Promise<void>;
}

export interface Demo {
  services: EveryService;
  engine: EngineStack;
  /** Stops the emulators and removes the stack (what `--keep` leaves running). */
  stop(): Promise<void>;
}

export async function runDemo(options: DemoOptions = {}): Promise<Demo> {
  const print = options.print ?? ((line: string) => console.log(line));
  const bold = (s: string) => (process.stdout.isTTY && !options.print ? `\x1b[1m${s}\x1b[0m` : s);
  /** The CLI's own output, indented, the lines `shown` keeps; chunks arrive split anywhere, so whole lines are printed. */
  const cli = (shown: (line: string) => boolean) => {
    let pending = "";
    return (out: string) => {
      const lines = (pending + out).split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) if (line.trim() && shown(line)) print(`  │ ${line}`);
    };
  };
  const echo = cli(() => true);
  /** What Pulumi printed while it applied: shown with --verbose (the summary and the lines below say what it did). */
  const applying = options.verbose ? echo : () => undefined;
  /** A refresh's lines that say what drifted (`[diff: ~content,ttl]`) and its counts; all of it with --verbose. */
  const drifted = options.verbose ? echo : cli((line) => /\[diff: |^\s+[~+-] \d+ \w+$|^\s+\d+ unchanged$/.test(line));

  const services = await startEveryService();
  const engine = await engineStack(DEMO_PROGRAM, everyServiceConfig(services), "demo");
  const demo: Demo = { services, engine, stop: async () => (await engine.dispose(), await stopEveryService(services)) };
  const { stack, scratch } = engine;
  const logs = new StepLogs(services);
  const step = async (name: DemoStep, title: string, run: () => Promise<string>) => {
    print(`\n${bold(`=== ${title} ===`)}`);
    logs.mark();
    const summary = await run();
    print(`→ ${summary}`);
    for (const line of report(logs, services)) print(line);
    await options.afterStep?.(name, services, logs);
  };
  print(
    `six emulators on loopback (edge ${services.edge.url}, pages ${services.pages.url}, posts ${services.posts.url}, runner ${services.runner.url}, skills ${services.skills.url}, control ${services.control.url}); state in ${scratch}/state`,
  );

  try {
    await step("preview", "1. pulumi preview: what would change (nothing is written)", async () => {
      const preview = await stack.preview({ onOutput: echo, color: "never" });
      return JSON.stringify(preview.changeSummary);
    });
    await step("up", "2. pulumi up: the site, its posts, the model, the skill it writes, the host's site file", async () => {
      const up = await stack.up({ onOutput: applying, color: "never" });
      return JSON.stringify(up.summary.resourceChanges);
    });
    const outputs = await stack.outputs();
    await step("outputs", "3. stack outputs", async () => {
      for (const [k, v] of Object.entries(outputs)) print(`  ${k} = ${JSON.stringify(v.value)}`);
      return "read from the state: no request";
    });
    await step("out-of-band", "4. two changes made by hand, outside Pulumi: a DNS record and the page's post", async () => {
      return (await changeByHand(services, String(outputs.pagePostId.value))).join("; ");
    });
    await step("refresh", "5. pulumi refresh: exactly those two are revealed", async () => {
      const refresh = await stack.refresh({ onOutput: drifted, color: "never" });
      return JSON.stringify(refresh.summary.resourceChanges);
    });
    await step("restore", "6. pulumi preview --diff, then pulumi up: the program's values are restored", async () => {
      await stack.preview({ onOutput: echo, color: "never", diff: true });
      const up = await stack.up({ onOutput: applying, color: "never" });
      return JSON.stringify(up.summary.resourceChanges);
    });
    if (options.keep) {
      print(`\n${bold("=== kept: the stack and the emulators stay up (Ctrl-C to stop) ===")}`);
      print(`  export PULUMI_BACKEND_URL=file://${scratch}/state PULUMI_CONFIG_PASSPHRASE=pulumi-ops PULUMI_HOME=${scratch}/home`);
      print(`  export PATH=${path.join(ROOT, "node_modules/.bin")}:${path.join(ROOT, ".tools/pulumi/bin")}:$PATH`);
      print(`  cd ${DEMO_PROGRAM} && pulumi stack select demo && pulumi stack --show-urns`);
      return demo;
    }
    await step("destroy", "7. pulumi destroy: what the services let go of is gone; settings are restored", async () => {
      const destroy = await stack.destroy({ onOutput: applying, color: "never" });
      return `${JSON.stringify(destroy.summary.resourceChanges)}; the skills registry has no delete: oven-runbook stays published (unpublish it in the registry's own tool)`;
    });
  } catch (e) {
    await demo.stop();
    throw e;
  }
  await demo.stop();
  return demo;
}

/** Through the services' own APIs, as a colleague in a dashboard would: the api record's address and the page post's text. */
async function changeByHand(s: EveryService, pagePostId: string): Promise<string[]> {
  const zone = [...s.edge.zones.values()].find((z) => z.name === "example.com")!;
  const api = [...zone.records.values()].find((r) => r.name === "api.example.com")!;
  const edge = await fetch(`${s.edge.url}/client/v4/zones/${zone.id}/dns_records/${api.id}`, {
    method: "PATCH",
    headers: { authorization: `Bearer ${DEMO_TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify({ content: "198.51.100.99", ttl: 120 }),
  });
  const pages = await fetch(`${s.pages.url}/v26.0/${pagePostId}`, {
    method: "POST",
    body: new URLSearchParams({ message: "Closed today, sorry!", access_token: PAGES_PAGE_TOKEN }),
  });
  if (!edge.ok || !pages.ok)
    throw new Error(`a change by hand was refused: edge HTTP ${edge.status}, pages HTTP ${pages.status} ${await pages.text()}`);
  return [
    `PATCH api.example.com -> 198.51.100.99, ttl 120: HTTP ${edge.status}`,
    `POST page post ${pagePostId} message "Closed today, sorry!": HTTP ${pages.status}`,
  ];
}

if (require.main === module) {
  const keep = process.argv.includes("--keep");
  runDemo({ keep, verbose: process.argv.includes("--verbose") }).then(
    (demo) => {
      if (!keep) return;
      // Ctrl-C ends the exploring: the emulators stop and the stack's temporary state is removed.
      for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => void demo.stop().finally(() => process.exit(0)));
    },
    (e) => {
      console.error(e instanceof Error ? e.message : e);
      process.exit(1);
    },
  );
}

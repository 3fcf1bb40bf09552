/**
 * `node dist/bench/repeat.js [N]`: the phases that change nothing — no-op preview, no-op up, refresh — repeated:
 * N DNS records and floor (a) brought up once, then each phase three times on each, interleaved, and the medians
 * compared. Single runs vary by ±10–20% here; three interleaved runs settle a ratio near a target.
 */
import * as path from "node:path";
import { DEMO_TOKEN, EdgeEmulator } from "../emulators";
import { engineStack } from "../scripts/engine";
import { installedPrograms } from "./harness";

async function main(): Promise<void> {
  const n = process.argv[2] ?? "1000";
  const programs = installedPrograms();
  const edge = await new EdgeEmulator({ rateLimit: { requests: 1e9, perSeconds: 300 } }).start();
  const config = (p: string) => ({
    [`bench-${p}:count`]: { value: n },
    "edge:baseUrl": { value: edge.url },
    "edge:apiToken": { value: DEMO_TOKEN, secret: true },
    "edge:rateLimit": { value: "1000000" },
  });
  const engines = [
    await engineStack(path.join(programs, "noop"), config("noop"), "refresh", { PULUMI_OPS_QUIET: "1" }),
    await engineStack(path.join(programs, "records"), config("records"), "refresh", { PULUMI_OPS_QUIET: "1" }),
  ];
  try {
    for (const e of engines) await e.stack.up();
    const before = edge.log.length;
    const phases: [string, (i: number) => Promise<unknown>][] = [
      ["preview (no-op)", (i) => engines[i].stack.preview()],
      ["up (no-op)", (i) => engines[i].stack.up()],
      ["refresh", (i) => engines[i].stack.refresh()],
    ];
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[1];
    for (const [name, run] of phases) {
      const times: number[][] = [[], []];
      for (let k = 0; k < 3; k++) {
        for (const i of k % 2 ? [1, 0] : [0, 1]) {
          const start = Date.now();
          await run(i);
          times[i].push(Date.now() - start);
        }
      }
      console.log(`${name}, N = ${n}: records ${times[1].join(", ")} ms; floor (a) ${times[0].join(", ")} ms; medians ${median(times[1])} / ${median(times[0])} = ${(median(times[1]) / median(times[0])).toFixed(2)}`);
    }
    console.log(`API requests for all of these: ${edge.log.slice(before).map((e) => e.method).join(" ") || "none"}`);
    for (const e of engines) await e.stack.destroy();
  } finally {
    for (const e of engines) await e.dispose();
    await edge.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});

/**
 * `node dist/bench/refresh.js [N]`: refresh only, repeated — N DNS records and floor (a) brought up once, then
 * refreshed three times each, interleaved. A cheaper check of the refresh figure than the whole `npm run bench`.
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
    const times: number[][] = [[], []];
    for (let k = 0; k < 3; k++) {
      for (const i of k % 2 ? [1, 0] : [0, 1]) {
        const start = Date.now();
        await engines[i].stack.refresh();
        times[i].push(Date.now() - start);
      }
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[1];
    const requests = edge.log.slice(before).length;
    console.log(`refresh of ${n} records: ${times[1].join(", ")} ms; floor (a): ${times[0].join(", ")} ms; medians ${median(times[1])} / ${median(times[0])} = ${(median(times[1]) / median(times[0])).toFixed(2)}; ${requests} API requests for 3 refreshes`);
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

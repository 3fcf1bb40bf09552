/**
 * `node dist/bench/repeat.js [N] [REPS]`: the phases that change nothing — no-op preview, no-op up, refresh —
 * repeated: N DNS records and two floors brought up once, then each phase REPS times (default 3) on each,
 * interleaved (the order rotating), and the medians compared. The floors: (a) as in `npm run bench`, and (a) with
 * outputs the size of a DNS record's (bench/programs/noop/noop-floor/record-shaped.js), which shows what the engine
 * itself spends carrying a record's outputs. Single runs vary by 10–30% here; interleaved repeats settle a ratio
 * near a target. `REPEAT_PHASES=refresh` (comma-separated phase names) repeats only those.
 */
import * as path from "node:path";
import { DEMO_TOKEN, EdgeEmulator } from "../emulators";
import { engineStack } from "../scripts/engine";
import { installedPrograms } from "./harness";

async function main(): Promise<void> {
  const n = process.argv[2] ?? "1000";
  const reps = Number(process.argv[3] ?? 3);
  const programs = installedPrograms();
  const edge = await new EdgeEmulator({ rateLimit: { requests: 1e9, perSeconds: 300 } }).start();
  const config = (p: string) => ({
    [`bench-${p}:count`]: { value: n },
    "edge:baseUrl": { value: edge.url },
    "edge:apiToken": { value: DEMO_TOKEN, secret: true },
    "edge:rateLimit": { value: "1000000" },
  });
  const runs = [
    { label: "floor (a)", engine: await engineStack(path.join(programs, "noop"), config("noop"), "repeat", { PULUMI_OPS_QUIET: "1" }) },
    {
      label: "floor (a), record-sized outputs",
      engine: await engineStack(path.join(programs, "noop"), { ...config("noop"), "bench-noop:outputs": { value: "record" } }, "repeat-record-sized", { PULUMI_OPS_QUIET: "1" }),
    },
    { label: "DNS records", engine: await engineStack(path.join(programs, "records"), config("records"), "repeat", { PULUMI_OPS_QUIET: "1" }) },
  ];
  try {
    for (const r of runs) await r.engine.stack.up();
    const before = edge.log.length;
    const phases: [string, (i: number) => Promise<unknown>][] = [
      ["preview (no-op)", (i) => runs[i].engine.stack.preview()],
      ["up (no-op)", (i) => runs[i].engine.stack.up()],
      ["refresh", (i) => runs[i].engine.stack.refresh()],
    ];
    const only = process.env.REPEAT_PHASES?.split(",").map((p) => p.trim());
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    for (const [name, run] of phases) {
      if (only && !only.some((p) => name.startsWith(p))) continue;
      const times: number[][] = runs.map(() => []);
      for (let k = 0; k < reps; k++) {
        for (let j = 0; j < runs.length; j++) {
          const i = (j + k) % runs.length;
          const start = Date.now();
          await run(i);
          times[i].push(Date.now() - start);
        }
      }
      const records = median(times[2]);
      console.log(`${name}, N = ${n}:`);
      runs.forEach((r, i) => console.log(`  ${r.label}: ${times[i].join(", ")} ms; median ${median(times[i])}${i < 2 ? `; DNS records / this = ${(records / median(times[i])).toFixed(2)}` : ""}`));
    }
    console.log(`API requests for all of these: ${edge.log.slice(before).map((e) => e.method).join(" ") || "none"}`);
    for (const r of runs) await r.engine.stack.destroy();
  } finally {
    for (const r of runs) await r.engine.dispose();
    await edge.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});

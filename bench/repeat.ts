/**
 * `node dist/bench/repeat.js [N] [REPS]`: the phases that change nothing — no-op preview, no-op up, refresh —
 * repeated: N DNS records and two floors brought up once, then each phase REPS times (default 3) on each,
 * interleaved (the order rotating), and the medians compared. The floors: (a) as in `npm run bench`, and (a) with
 * outputs the size of a DNS record's (bench/programs/noop/noop-floor/record-shaped.js), which shows what the engine
 * itself spends carrying a record's outputs. Single runs vary by 10–30% here; interleaved repeats settle a ratio
 * near a target. `REPEAT_PHASES=refresh` (comma-separated phase names) repeats only those; `REPEAT_PHASES=destroy`
 * times a destroy and the up that follows it, REPS times (not run by default: about 6 minutes per repeat at 1000).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { DEMO_TOKEN, EdgeEmulator } from "../emulators";
import { engineStack, ROOT } from "../scripts/engine";
import { byMethod, countByMethod, installedPrograms, median } from "./harness";

const said: string[] = [];
const say = (line: string) => {
  said.push(line);
  console.log(line);
};
/** The settings that change what a repeat measures, for its results file. */
const env = () => ["REPEAT_PHASES", "PULUMI_SKIP_CHECKPOINTS"].filter((k) => process.env[k]).map((k) => `${k}=${process.env[k]}`);

async function main(): Promise<void> {
  const n = process.argv[2] ?? "1000";
  const reps = Number(process.argv[3] ?? 3);
  const programs = installedPrograms();
  const edge = await new EdgeEmulator({ rateLimit: { requests: 1e9, perSeconds: 300 } }).start();
  const config = (p: string) => ({
    [`bench-${p}:count`]: { value: n },
    "ops:edgeBaseUrl": { value: edge.url },
    "ops:edgeApiToken": { value: DEMO_TOKEN, secret: true },
    "ops:edgeRateLimit": { value: "1000000" },
  });
  const runs = [
    { label: "floor (a)", engine: await engineStack(path.join(programs, "noop"), config("noop"), "repeat", { PULUMI_OPS_QUIET: "1" }) },
    {
      label: "floor (a), record-sized outputs",
      engine: await engineStack(
        path.join(programs, "noop"),
        { ...config("noop"), "bench-noop:outputs": { value: "record" } },
        "repeat-record-sized",
        { PULUMI_OPS_QUIET: "1" },
      ),
    },
    {
      label: "DNS records",
      engine: await engineStack(path.join(programs, "records"), config("records"), "repeat", { PULUMI_OPS_QUIET: "1" }),
    },
  ];
  try {
    for (const r of runs) await r.engine.stack.up();
    const before = edge.log.length;
    const timed = async (f: () => Promise<unknown>) => {
      const start = Date.now();
      await f();
      return Date.now() - start;
    };
    // Each phase leaves the stack as it found it; the last one times a destroy and the up that brings it back.
    const phases: [string, (i: number) => Promise<Record<string, number>>][] = [
      ["preview (no-op)", async (i) => ({ "preview (no-op)": await timed(() => runs[i].engine.stack.preview()) })],
      ["up (no-op)", async (i) => ({ "up (no-op)": await timed(() => runs[i].engine.stack.up()) })],
      ["refresh", async (i) => ({ refresh: await timed(() => runs[i].engine.stack.refresh()) })],
      [
        "destroy and up",
        async (i) => ({
          destroy: await timed(() => runs[i].engine.stack.destroy()),
          "up (create)": await timed(() => runs[i].engine.stack.up()),
        }),
      ],
    ];
    const only = process.env.REPEAT_PHASES?.split(",").map((p) => p.trim());
    for (const [name, run] of phases) {
      if (only ? !only.some((p) => name.startsWith(p)) : name === "destroy and up") continue;
      const times = new Map<string, number[][]>();
      for (let k = 0; k < reps; k++) {
        for (let j = 0; j < runs.length; j++) {
          const i = (j + k) % runs.length;
          for (const [label, ms] of Object.entries(await run(i))) {
            if (!times.has(label))
              times.set(
                label,
                runs.map(() => []),
              );
            times.get(label)![i].push(ms);
          }
        }
      }
      for (const [label, series] of times) {
        const records = median(series[2]);
        say(`${label}, N = ${n}:`);
        runs.forEach((r, i) =>
          say(
            `  ${r.label}: ${series[i].join(", ")} ms; median ${median(series[i])}${i < 2 ? `; DNS records / this = ${(records / median(series[i])).toFixed(2)}` : ""}`,
          ),
        );
      }
    }
    say(`API requests for all of these: ${byMethod(countByMethod(edge.log.slice(before))) || "none"}`);
    const file = path.join(ROOT, "bench/results", `repeat-${new Date().toISOString().replace(/[:.]/g, "-")}.txt`);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(
      file,
      [
        `node dist/bench/repeat.js ${n} ${reps}`,
        ...env(),
        `Machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? "?"}, Node ${process.version}`,
        "",
        ...said,
        "",
      ].join("\n"),
    );
    console.log(`wrote ${path.relative(ROOT, file)}`);
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

/**
 * Where a resource's time goes (issue 19, part 1), measured, not guessed:
 * - an empty program's preview with pulumi-ops imported against the same program without it (bench/programs/empty
 *   and bare), interleaved, median of BENCH_COST_REPS (default 7): what importing the package costs every command;
 * - what each process loads: `require("pulumi-ops")` in a fresh Node (the program's share) and the provider's door
 *   (the provider process's, once per command), medians of fresh processes;
 * - the provider's own work per resource: check and diff of N DNS records called in one process, without the
 *   engine (µs per resource), to set beside the engine's milliseconds per resource (floor (a)).
 * The rest of a resource's cost is the engine's and the Node SDK's: floor (a) runs the same program shape with a
 * provider that does nothing.
 */
import { execFileSync } from "node:child_process";
import * as path from "node:path";
import { engineStack } from "../scripts/engine";
import { median } from "./harness";

const REPS = Math.max(1, Number(process.env.BENCH_COST_REPS ?? 7));

/** Node from the repository's node_modules (22), in `dir`, running `script`; its stdout parsed as JSON. */
function node<T>(dir: string, script: string): T {
  return JSON.parse(
    execFileSync(process.execPath, ["-e", script], { cwd: dir, encoding: "utf8", env: { ...process.env, PULUMI_OPS_QUIET: "1" } }),
  ) as T;
}

const LOAD = `
const t0 = process.hrtime.bigint(); require("@pulumi/pulumi");
const t1 = process.hrtime.bigint(); const before = Object.keys(require.cache).length; require("pulumi-ops");
const t2 = process.hrtime.bigint();
console.log(JSON.stringify({ sdkMs: Number(t1 - t0) / 1e6, opsMs: Number(t2 - t1) / 1e6, opsFiles: Object.keys(require.cache).length - before }));`;

const DOOR = `
const t0 = process.hrtime.bigint(); require("pulumi-ops/dist/provider/door");
console.log(JSON.stringify({ doorMs: Number(process.hrtime.bigint() - t0) / 1e6, doorFiles: Object.keys(require.cache).length }));`;

/** check and diff of N records through the door, in one process, the preview checks off (no I/O at all). */
const HANDLERS = (n: number) => `
process.env.PULUMI_OPS_PREVIEW_CHECKS = "false";
const door = require("pulumi-ops/dist/provider/door");
(async () => {
  const inputs = Array.from({ length: ${n} }, (_, i) => ({ zoneName: "example.com", type: "A", name: "host-" + i, content: "203.0." + Math.floor(i / 250) + "." + (i % 250 + 1), ttl: 300 }));
  const runs = [];
  for (let rep = 0; rep < 3; rep++) {
    let t = process.hrtime.bigint();
    const checked = [];
    for (const x of inputs) checked.push((await door.checkForEngine("edge:DnsRecord", {}, x)).inputs);
    const check = Number(process.hrtime.bigint() - t) / 1e3 / ${n};
    t = process.hrtime.bigint();
    for (const x of checked) await door.call("edge:DnsRecord", "diff", ["id", { ...x, zoneId: "z", hostname: x.name + ".example.com" }, x]);
    runs.push({ check, diff: Number(process.hrtime.bigint() - t) / 1e3 / ${n} });
  }
  const last = runs[runs.length - 1];
  console.log(JSON.stringify({ firstCheckUs: runs[0].check, checkUs: last.check, diffUs: last.diff }));
})();`;

export interface Cost {
  emptyPreviewMs: number;
  barePreviewMs: number;
  emptyRuns: number[];
  bareRuns: number[];
  sdkMs: number;
  opsMs: number;
  opsFiles: number;
  doorMs: number;
  doorFiles: number;
  handlers: { n: number; firstCheckUs: number; checkUs: number; diffUs: number };
}

export async function benchCost(programs: string, n = 1000): Promise<Cost> {
  const empty = await engineStack(path.join(programs, "empty"), {}, "bench", { PULUMI_OPS_QUIET: "1" });
  const bare = await engineStack(path.join(programs, "bare"), {}, "bench", { PULUMI_OPS_QUIET: "1" });
  const runs: [number[], number[]] = [[], []];
  try {
    const both = [empty, bare];
    for (const e of both) await e.stack.preview(); // a first preview each, not counted: plugin discovery, caches
    for (let r = 0; r < REPS; r++) {
      for (const i of r % 2 ? [1, 0] : [0, 1]) {
        const start = Date.now();
        await both[i].stack.preview();
        runs[i].push(Date.now() - start);
      }
    }
  } finally {
    await Promise.all([empty.dispose(), bare.dispose()]);
  }
  const dir = path.join(programs, "empty");
  const loads = Array.from({ length: REPS }, () => node<{ sdkMs: number; opsMs: number; opsFiles: number }>(dir, LOAD));
  const doors = Array.from({ length: REPS }, () => node<{ doorMs: number; doorFiles: number }>(dir, DOOR));
  const handlers = { n, ...node<{ firstCheckUs: number; checkUs: number; diffUs: number }>(dir, HANDLERS(n)) };
  return {
    emptyPreviewMs: median(runs[0]),
    barePreviewMs: median(runs[1]),
    emptyRuns: runs[0],
    bareRuns: runs[1],
    sdkMs: median(loads.map((l) => l.sdkMs)),
    opsMs: median(loads.map((l) => l.opsMs)),
    opsFiles: loads[0].opsFiles,
    doorMs: median(doors.map((d) => d.doorMs)),
    doorFiles: doors[0].doorFiles,
    handlers,
  };
}

const ms = (x: number) => `${x.toFixed(0)} ms`;

export function describeCost(c: Cost): string[] {
  return [
    `Cost breakdown (medians of ${c.emptyRuns.length}; bench/cost.ts):`,
    "",
    "| what | measured |",
    "|---|---|",
    `| preview of an empty program importing pulumi-ops | ${ms(c.emptyPreviewMs)} |`,
    `| preview of the same program without it | ${ms(c.barePreviewMs)} |`,
    `| difference (target: within 200 ms) | ${ms(c.emptyPreviewMs - c.barePreviewMs)} |`,
    `| \`require("@pulumi/pulumi")\` in a fresh Node, for scale | ${ms(c.sdkMs)} |`,
    `| \`require("pulumi-ops")\` after it (the program's share; ${c.opsFiles} files) | ${ms(c.opsMs)} |`,
    `| the provider's door in a fresh Node (once per command that has resources; ${c.doorFiles} files) | ${ms(c.doorMs)} |`,
    `| check of one DNS record, first of ${c.handlers.n} / warm | ${c.handlers.firstCheckUs.toFixed(0)} µs / ${c.handlers.checkUs.toFixed(0)} µs |`,
    `| diff of one DNS record, warm | ${c.handlers.diffUs.toFixed(0)} µs |`,
  ];
}

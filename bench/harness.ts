/**
 * The benchmark's measuring tools: program copies with pulumi-ops installed as users install it, and one run of the
 * phases (preview, up, no-op up, no-op preview, refresh, an update of 10%, destroy) through the real engine, with
 * each phase's time, API requests by method (from the emulators' own logs) and the provider process's peak memory.
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import * as path from "node:path";
import type { ConfigMap } from "@pulumi/pulumi/automation";
import type { LogEntry } from "../emulators";
import { engineStack, ROOT } from "../scripts/engine";

export const PHASES = ["preview (new)", "up (create)", "up (no-op)", "preview (no-op)", "refresh", "up (update 10%)", "destroy"] as const;
export type PhaseName = (typeof PHASES)[number];

export interface Phase {
  /** When the phase began (epoch ms, the clock of the emulators' logs); for a repeated phase, its first run. */
  start: number;
  /** The time; for a repeated phase, the median of `runs`. */
  ms: number;
  /** Every run's time, when the phase changes nothing and is repeated (REPEAT_UNCHANGED). */
  runs?: number[];
  requests: Record<string, number>;
  perResource: number;
  peakRssMb: number;
  /** Peak resident memory of the program's own process (the Node SDK holds every resource there). */
  programMb: number;
}

export interface PhaseRun {
  phases: Record<PhaseName, Phase>;
  stateBytesPerResource: number;
}

/**
 * The bench programs get pulumi-ops the way users do: `npm pack` of this repository, unpacked into the program's
 * own node_modules (a real directory, not the repository's link). Only then does Pulumi's closure serializer store
 * each resource's provider as a `require` of its module instead of copying the object's code into state. The
 * copies live under bench/.work/, inside the repository, so @pulumi/pulumi and the other dependencies still resolve
 * from the repository's node_modules: one instance of the SDK for the program and the package.
 */
export function installedPrograms(): string {
  const work = path.join(ROOT, "bench/.work");
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const tarball = execFileSync("npm", ["pack", "--silent", "--pack-destination", work], { cwd: ROOT, encoding: "utf8" })
    .trim()
    .split("\n")
    .pop()!;
  for (const program of readdirSync(path.join(ROOT, "bench/programs"))) {
    const dir = path.join(work, program);
    cpSync(path.join(ROOT, "bench/programs", program), dir, { recursive: true });
    const pkg = path.join(dir, "node_modules/pulumi-ops");
    mkdirSync(pkg, { recursive: true });
    execFileSync("tar", ["-xzf", path.join(work, tarball), "-C", pkg, "--strip-components=1"]);
    // The floors' package goes where pulumi-ops goes, so both providers are stored in state as a require.
    cpSync(path.join(ROOT, "bench/programs/noop/noop-floor"), path.join(dir, "node_modules/noop-floor"), { recursive: true });
    rmSync(path.join(dir, "noop-floor"), { recursive: true, force: true });
  }
  return work;
}

/** Peak resident memory (MB) of the dynamic provider process and of the program `project` while `f` runs (every 200 ms). */
export async function withPeakRss<T>(project: string, f: () => Promise<T>): Promise<[T, { provider: number; program: number }]> {
  const peak = { provider: 0, program: 0 };
  const result = await sampled(f, (line, mb) => {
    if (line.includes("dynamic-provider")) peak.provider = Math.max(peak.provider, mb);
    // The language host starts the program as `node .../cmd/run/index.js ... --project <name> ...`.
    else if (line.includes("cmd/run") && line.includes(`--project ${project} `)) peak.program = Math.max(peak.program, mb);
  });
  return [result, peak];
}

/** The peak resident memory, MB, of the processes whose command line holds `marker` while `f` runs. */
export async function withPeakRssOf<T>(marker: string, f: () => Promise<T>): Promise<[T, number]> {
  let peak = 0;
  const result = await sampled(f, (line, mb) => void (line.includes(marker) && (peak = Math.max(peak, mb))));
  return [result, peak];
}

/** Runs `f`, handing each process's `ps` line and resident MB to `see` every 200 ms. */
async function sampled<T>(f: () => Promise<T>, see: (line: string, mb: number) => void): Promise<T> {
  const sample = () => {
    try {
      const ps = execFileSync("ps", ["-eo", "rss=,args="], { encoding: "utf8" });
      for (const line of ps.split("\n")) see(line, Number(line.trim().split(/\s+/)[0]) / 1024);
    } catch {
      /* ps unavailable: no memory figure */
    }
  };
  const timer = setInterval(sample, 200);
  try {
    return await f();
  } finally {
    clearInterval(timer);
  }
}

function stateBytes(scratch: string): number {
  const dir = path.join(scratch, "state", ".pulumi", "stacks");
  const files = readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith(".json") && !f.includes(".bak"));
  return files.reduce((n, f) => n + statSync(path.join(dir, f)).size, 0);
}

export interface PhaseOptions {
  /** The program's directory. */
  dir: string;
  /** The program's project name: its `count` and `generation` config keys live under it. */
  project: string;
  n: number;
  config: ConfigMap;
  /** The request logs of the emulators the program talks to. */
  logs: () => LogEntry[][];
  label: string;
}

/** The phases that change nothing can be run again on the same stack: they are, and the median is reported. */
const UNCHANGED: PhaseName[] = ["up (no-op)", "preview (no-op)", "refresh"];
const REPEAT_UNCHANGED = Math.max(1, Number(process.env.BENCH_REPEAT ?? 3));

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Requests by method, from emulator log entries. */
export function countByMethod(entries: LogEntry[]): Record<string, number> {
  const requests: Record<string, number> = {};
  for (const e of entries) requests[e.method] = (requests[e.method] ?? 0) + 1;
  return requests;
}

/**
 * Runs the phases of several programs interleaved — phase 1 of each, then phase 2 of each, the order alternating —
 * so that a floor and the program it is the floor of see the same machine: a noisy minute cannot land on one of
 * them only. The phases that change nothing run BENCH_REPEAT times each (default 3), still interleaved; single
 * runs vary by 10–30% on a shared machine, and their median settles a ratio near a target.
 */
export async function runPhases(programs: PhaseOptions[]): Promise<PhaseRun[]> {
  const engines = await Promise.all(
    programs.map((o) =>
      engineStack(o.dir, { ...o.config, [`${o.project}:count`]: { value: String(o.n) } }, "bench", { PULUMI_OPS_QUIET: "1" }),
    ),
  );
  const runs: PhaseRun[] = programs.map(() => ({ phases: {} as Record<PhaseName, Phase>, stateBytesPerResource: 0 }));
  const measure = async (i: number, name: PhaseName, f: () => Promise<unknown>) => {
    const o = programs[i];
    const before = o.logs().map((l) => l.length);
    const start = Date.now();
    const [, mem] = await withPeakRss(o.project, f);
    const peak = mem.provider;
    const ms = Date.now() - start;
    const requests = countByMethod(o.logs().flatMap((l, j) => l.slice(before[j])));
    const total = Object.values(requests).reduce((a, b) => a + b, 0);
    process.stdout.write(`  ${o.label} N=${o.n} ${name}: ${ms} ms, ${total} requests\n`);
    const earlier = runs[i].phases[name];
    if (!earlier) {
      runs[i].phases[name] = {
        start,
        ms,
        requests,
        perResource: +(total / o.n).toFixed(2),
        peakRssMb: Math.round(peak),
        programMb: Math.round(mem.program),
      };
      return;
    }
    // A repeat: requests and memory are per run (the worst of them), the time is the median of the runs.
    const times = [...(earlier.runs ?? [earlier.ms]), ms];
    const worse = total > Object.values(earlier.requests).reduce((a, b) => a + b, 0);
    runs[i].phases[name] = {
      ...earlier,
      ...(worse ? { requests, perResource: +(total / o.n).toFixed(2) } : {}),
      ms: median(times),
      runs: times,
      peakRssMb: Math.max(earlier.peakRssMb, Math.round(peak)),
      programMb: Math.max(earlier.programMb, Math.round(mem.program)),
    };
  };
  const steps: [PhaseName, (i: number) => Promise<unknown>][] = [
    ["preview (new)", (i) => engines[i].stack.preview()],
    ["up (create)", (i) => engines[i].stack.up()],
    ["up (no-op)", (i) => engines[i].stack.up()],
    ["preview (no-op)", (i) => engines[i].stack.preview()],
    ["refresh", (i) => engines[i].stack.refresh()],
    ["up (update 10%)", (i) => engines[i].stack.setConfig(`${programs[i].project}:generation`, { value: "1" }).then(() => undefined)],
    ["destroy", (i) => engines[i].stack.destroy()],
  ];
  try {
    let turn = 0;
    for (const [name, step] of steps) {
      for (let r = 0; r < (UNCHANGED.includes(name) ? REPEAT_UNCHANGED : 1); r++) {
        const order = programs.map((_, i) => i);
        if (turn++ % 2) order.reverse();
        for (const i of order) {
          if (name === "up (update 10%)") await step(i); // the config change is not part of the measured phase
          await measure(i, name, () => (name === "up (update 10%)" ? engines[i].stack.up() : step(i)));
          if (name === "up (create)") runs[i].stateBytesPerResource = Math.round(stateBytes(engines[i].scratch) / programs[i].n);
        }
      }
    }
  } finally {
    await Promise.all(engines.map((e) => e.dispose()));
  }
  return runs;
}

export const totalRequests = (p: Phase) => Object.values(p.requests).reduce((x, y) => x + y, 0);
export const byMethod = (requests: Record<string, number>) => JSON.stringify(requests).replace(/[{}"]/g, "").replace(/,/g, " ");

/** The real Pulumi engine for the engine tests: scripts/engine.ts on the example programs. */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import type { ConfigMap } from "@pulumi/pulumi/automation";
import { vi } from "vitest";
import { engineStack, ROOT, type EngineStack } from "../../scripts/engine";

export type { EngineStack };
export { ROOT };

/** Credentials reach the provider only through stack config: the variables the fallback reads are removed. */
export function withoutEnvFallback(): void {
  for (const k of Object.keys(process.env))
    if (/^(EDGE|PAGES|POSTS|RUNNER|SKILLS|CONTROL|CLOUDFLARE|FACEBOOK|THREADS)_/.test(k)) delete process.env[k];
}

export function exampleStack(example: string, config: ConfigMap, stackName = "test"): Promise<EngineStack> {
  return engineStack(path.join(ROOT, "examples", example), config, stackName, { PULUMI_OPS_QUIET: "0" });
}

/** Milliseconds taken by `f`, recorded under `name` for the run's timing table. */
export const timings: Record<string, number> = {};
export async function timed<T>(name: string, f: () => Promise<T>): Promise<T> {
  const start = Date.now();
  try {
    return await f();
  } finally {
    timings[name] = Date.now() - start;
  }
}

/** The pid of `engine`'s running `pulumi up` (the CLI alone, not its plugins or a pipeline's shell). */
export function cliPid(engine: EngineStack): number | undefined {
  return engine.running().find((pid) => {
    try {
      const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
      return path.basename(argv[0]) === "pulumi" && argv[1] === "up";
    } catch {
      return false;
    }
  });
}

/**
 * After a killed CLI: waits until no process of `engine` runs any more (its providers stop when their engine is gone)
 * and `emulators` answer nothing (a slowed request acts when its delay ends), so what a test counts next is final.
 * At most 20 seconds; it fails naming what is still going then.
 */
export async function settled(engine: EngineStack, emulators: { name: string; inFlight: number }[]): Promise<void> {
  const going = () => [
    ...engine.running().map((pid) => `process ${pid}`),
    ...emulators.filter((e) => e.inFlight > 0).map((e) => `${e.inFlight} request(s) of ${e.name}`),
  ];
  await vi.waitFor(
    () => {
      const left = going();
      if (left.length) throw new Error(`still going after a killed CLI: ${left.join(", ")}`);
    },
    { timeout: 20_000, interval: 100 },
  );
}

/** The real Pulumi engine for the engine tests: scripts/engine.ts on the example programs. */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import type { ConfigMap } from "@pulumi/pulumi/automation";
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

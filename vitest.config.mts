import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * Vitest runs the files that took longest last time first, and on a fresh clone (no timings kept yet) the largest.
 * The two fault matrices are four-line files that take about 100 s each, mostly waiting out the emulators' fault
 * timings: by size they would start last, together, with the two cores idle (and even by time they may start
 * together). So the first starts second, beside a CPU-bound file, and each next one only after the busy files queued
 * since add up to its predecessor's time (where no time is kept yet: 100 s a matrix, 30 s an engine file, 2 s another).
 */
class WaitingBesideBusy extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const waiting = sorted.filter((f) => /fault-matrix-[^/]*\.test\.ts$/.test(f.moduleId));
    const rest = sorted.filter((f) => !waiting.includes(f));
    const guess = (f: TestSpecification) => (waiting.includes(f) ? 100_000 : /\/test\/engine\//.test(f.moduleId) ? 30_000 : 2_000);
    const ms = (f: TestSpecification) => this.ctx.cache.getTestSpecificationResult(f)?.duration ?? guess(f);
    const order = rest.slice(0, 1);
    let next = order.length;
    for (const w of waiting) {
      order.push(w);
      for (let budget = ms(w); budget > 0 && next < rest.length; next++) {
        budget -= ms(rest[next]);
        order.push(rest[next]);
      }
    }
    return [...order, ...rest.slice(next)];
  }
}

// Tiers: unit (pure functions, schemas), handlers (provider methods against the emulators), emulator (fidelity
// with third-party clients), serialization (plain node), engine (the real Pulumi CLI through the Automation API).
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Engine tests start the CLI and a Node language host per operation: two at once is all two cores can carry.
    maxWorkers: 2,
    sequence: { sequencer: WaitingBesideBusy },
    env: {
      PULUMI_OPS_QUIET: "1",
      // Node's on-disk compile cache for every process the tests start (the engine's programs and providers, the
      // plugin, the CLIs of tools written in Node): each engine command starts a program and a provider, and each
      // loads @pulumi/pulumi's 760 modules; with the cache five previews of a small program took 18% less CPU. The
      // benchmark (npm run bench) runs without it, as users' programs do.
      NODE_COMPILE_CACHE: fileURLToPath(new URL(".tools/node-compile-cache", import.meta.url)),
    },
  },
});

import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * Vitest runs the files that took longest last time first, and on a fresh clone (no timings kept yet) the largest.
 * The two fault matrices are four-line files that take about 100 s each, mostly waiting out the emulators' fault
 * timings: by size they would start last, together, with the two cores idle. Each starts beside a CPU-bound file.
 */
class WaitingBesideBusy extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const waiting = sorted.filter((f) => /fault-matrix-[^/]*\.test\.ts$/.test(f.moduleId));
    const rest = sorted.filter((f) => !waiting.includes(f));
    return rest.flatMap((f, i) => (i < waiting.length ? [f, waiting[i]] : [f]));
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
    env: { PULUMI_OPS_QUIET: "1" },
  },
});

import { defineConfig } from "vitest/config";

// Tiers: unit (pure functions, schemas), handlers (provider methods against the emulators), emulator (fidelity
// with third-party clients), serialization (plain node), engine (the real Pulumi CLI through the Automation API).
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Engine tests start the CLI and a Node language host per operation: two at once is all two cores can carry.
    maxWorkers: 2,
    env: { PULUMI_OPS_QUIET: "1" },
  },
});

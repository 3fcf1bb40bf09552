/**
 * A vitest reporter for docs/testing.md's numbers: each file's whole time — its tests and its hooks, where the
 * engine files spend much of theirs (a `beforeAll` that packs, installs and brings a stack up) and which vitest's
 * JSON report leaves out — written to .ci/file-times.json, and one line per tier printed at the end of the run.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import type { Reporter, TestModule } from "vitest/node";

const tierOf = (file: string) => /^test\/([^/]+)\//.exec(file)?.[1] ?? path.basename(file, ".test.ts");

export default class TierTimes implements Reporter {
  private readonly root = process.cwd();

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const files = modules
      .map((m) => ({ file: path.relative(this.root, m.moduleId), seconds: Math.round(m.diagnostic().duration / 100) / 10 }))
      .sort((a, b) => b.seconds - a.seconds);
    mkdirSync(path.join(this.root, ".ci"), { recursive: true });
    writeFileSync(path.join(this.root, ".ci/file-times.json"), JSON.stringify(files, null, 1) + "\n");
    const tiers = new Map<string, { files: number; seconds: number }>();
    for (const f of files) {
      const t = tiers.get(tierOf(f.file)) ?? { files: 0, seconds: 0 };
      tiers.set(tierOf(f.file), { files: t.files + 1, seconds: t.seconds + f.seconds });
    }
    for (const [tier, t] of tiers) console.log(`tier ${tier}: ${t.files} files, ${Math.round(t.seconds)} s (tests and hooks)`);
  }
}

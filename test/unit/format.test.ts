/**
 * The TypeScript sources are as the formatter writes them (prettier, .prettierrc.json; generated files are left to
 * their generators, .prettierignore), and the linter (eslint.config.mjs) finds nothing: so `npm test`, and CI with
 * it, fails on a change that skipped `npm run format` or `npm run lint`.
 */
import { execFileSync } from "node:child_process";
import * as path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.join(__dirname, "../..");
/**
 * Each tool's cache under .tools (by the files' content, so a fresh clone or a checkout of other files is never
 * taken for the last run's): a run where few files changed checks those few. Unchanged files took 27 s of the
 * unit tier's CPU, every run.
 */
const CACHE = {
  prettier: ["--cache", "--cache-strategy", "content", "--cache-location", path.join(ROOT, ".tools/cache/prettier")],
  eslint: ["--cache", "--cache-strategy", "content", "--cache-location", path.join(ROOT, ".tools/cache/eslint/")],
};
const GLOBS = [
  "provider/**/*.ts",
  "sdk/**/*.ts",
  "emulators/**/*.ts",
  "scripts/**/*.ts",
  "bench/**/*.ts",
  "test/**/*.ts",
  "examples/**/*.ts",
];

describe("the sources' format", () => {
  it("is prettier's (run `npm run format`)", () => {
    const run = () =>
      execFileSync(path.join(ROOT, "node_modules/.bin/prettier"), ["--check", "--log-level", "warn", ...CACHE.prettier, ...GLOBS], {
        cwd: ROOT,
        encoding: "utf8",
        stdio: "pipe",
      });
    expect(run).not.toThrow();
  }, 120_000);
});

describe("the sources' lint", () => {
  it("is clean (run `npm run lint`)", () => {
    const run = () =>
      execFileSync(path.join(ROOT, "node_modules/.bin/eslint"), ["--max-warnings", "0", ...CACHE.eslint, "."], {
        cwd: ROOT,
        encoding: "utf8",
        stdio: "pipe",
      });
    expect(run).not.toThrow();
  }, 120_000);
});

/**
 * The Go SDK (sdk/go, a module of its own): what the generator makes of schema.json today (pkg/v3/codegen/go at the
 * CLI's version, through tools/pulumi-cli/sdkgen), and it compiles against github.com/pulumi/pulumi/sdk/v3 from the
 * Go module proxy. No Go language host is served here to run a Go program (docs: README "From Go").
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../..");
const SDK = path.join(ROOT, "sdk/go");
const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((n) => (statSync(path.join(dir, n)).isDirectory() ? files(path.join(dir, n)).map((f) => path.join(n, f)) : [n]));

describe("the Go SDK", () => {
  it("sdk/go is what the generator makes of schema.json", () => {
    const fresh = mkdtempSync(path.join(tmpdir(), "pulumi-ops-go-"));
    try {
      execFileSync(path.join(ROOT, ".tools/pulumi/bin/pulumi-ops-sdkgen"), ["--language", "go", path.join(ROOT, "schema.json"), fresh], {
        stdio: "pipe",
      });
      const generated = files(fresh).sort();
      expect(
        files(SDK)
          .filter((f) => f !== "go.mod" && f !== "go.sum")
          .sort(),
        "regenerate: npm run gen",
      ).toEqual(generated);
      for (const f of generated)
        expect(readFileSync(path.join(SDK, f), "utf8"), `sdk/go/${f} is stale`).toBe(readFileSync(path.join(fresh, f), "utf8"));
      expect(JSON.parse(readFileSync(path.join(SDK, "ops/pulumi-plugin.json"), "utf8"))).toMatchObject({
        resource: true,
        name: "ops",
        server: expect.stringContaining("/releases/download/v${VERSION}"),
      });
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
  });

  it("compiles against sdk/v3 from the module proxy", { timeout: 900_000 }, () => {
    const env = { ...process.env, GOFLAGS: "-mod=mod", GOTOOLCHAIN: "local" };
    execFileSync("go", ["build", "./..."], { cwd: SDK, env, stdio: "pipe" });
    const required = readFileSync(path.join(SDK, "go.mod"), "utf8");
    expect(required).toContain(
      `github.com/pulumi/pulumi/sdk/v3 v${JSON.parse(readFileSync(path.join(ROOT, "node_modules/@pulumi/pulumi/package.json"), "utf8")).version}`,
    );
  });
});

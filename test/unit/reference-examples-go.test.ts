/**
 * The reference's Go examples compile against the Go SDK (sdk/go) and github.com/pulumi/pulumi/sdk/v3 from the Go
 * module proxy: each ```go block of docs/reference/*.md becomes the body of a function of one program. No Go language
 * host is served here to run it (README, "From Go"); the YAML examples of the same data run through the engine.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../../scripts/root";

const MODULES = ["control", "edge", "pages", "posts", "runner", "skills"];
const pages = readdirSync(path.join(ROOT, "docs/reference")).filter((f) => f.endsWith(".md"));
const blocks = pages.flatMap((page) =>
  [...readFileSync(path.join(ROOT, "docs/reference", page), "utf8").matchAll(/```go\n([\s\S]*?)```/g)].map((m) => ({
    page,
    code: m[1].trimEnd(),
  })),
);

describe("the reference's Go examples", () => {
  it("compile against the Go SDK", { timeout: 900_000 }, () => {
    expect(blocks.length).toBeGreaterThan(35);
    const used = new Set(blocks.flatMap(({ code }) => MODULES.filter((m) => new RegExp(`\\b${m}\\.`).test(code))));
    const imports = [...used].sort().map((m) => `\t"github.com/pulumi-ops/pulumi-ops/sdk/go/ops/${m}"`);
    const functions = blocks.map(
      ({ page, code }, i) =>
        `// ${page}\nfunc example${i}(ctx *pulumi.Context) error {\n${code
          .split("\n")
          .map((l) => `\t${l}`)
          .join("\n")}\n\treturn nil\n}`,
    );
    const main = `package main\n\nimport (\n${imports.join("\n")}\n\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi"\n)\n\n${functions.join("\n\n")}\n\nfunc main() {\n\tpulumi.Run(func(ctx *pulumi.Context) error {\n\t\tfor _, f := range []func(*pulumi.Context) error{${blocks.map((_, i) => `example${i}`).join(", ")}} {\n\t\t\tif err := f(ctx); err != nil {\n\t\t\t\treturn err\n\t\t\t}\n\t\t}\n\t\treturn nil\n\t})\n}\n`;
    const dir = mkdtempSync(path.join(tmpdir(), "reference-go-"));
    try {
      const sdkMod = readFileSync(path.join(ROOT, "sdk/go/go.mod"), "utf8");
      const goVersion = /^go (\S+)/m.exec(sdkMod)![1];
      const pulumiVersion = /github\.com\/pulumi\/pulumi\/sdk\/v3 (\S+)/.exec(sdkMod)![1];
      writeFileSync(
        path.join(dir, "go.mod"),
        `module examples\n\ngo ${goVersion}\n\nrequire (\n\tgithub.com/pulumi-ops/pulumi-ops/sdk/go v0.0.0\n\tgithub.com/pulumi/pulumi/sdk/v3 ${pulumiVersion}\n)\n\nreplace github.com/pulumi-ops/pulumi-ops/sdk/go => ${path.join(ROOT, "sdk/go")}\n`,
      );
      copyFileSync(path.join(ROOT, "sdk/go/go.sum"), path.join(dir, "go.sum"));
      writeFileSync(path.join(dir, "main.go"), main);
      const env = { ...process.env, GOFLAGS: "-mod=mod", GOTOOLCHAIN: "local" };
      let said = "";
      try {
        execFileSync("go", ["vet", "."], { cwd: dir, env, stdio: "pipe", encoding: "utf8" });
        // As gofmt lays it out: the examples are shown so.
        said += execFileSync("gofmt", ["-l", "."], { cwd: dir, env, encoding: "utf8" });
      } catch (e) {
        said = `${(e as { stderr?: string }).stderr ?? e}`;
      }
      expect(
        said,
        main
          .split("\n")
          .map((l, i) => `${i + 1} ${l}`)
          .join("\n"),
      ).toBe("");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

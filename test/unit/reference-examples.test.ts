/**
 * The reference's TypeScript examples compile against the SDK's typings, strict: each resource's and function's
 * example (docs/reference/*.md), each record type's example as a DnsRecord, and reading every output the reference
 * lists (a DnsRecord's `data.tag` is text). An example that drifts from the typings fails here.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { ROOT } from "../../scripts/root";

const pages = readdirSync(path.join(ROOT, "docs/reference")).filter((f) => f.endsWith(".md"));
const blocks = pages.flatMap((page) =>
  [...readFileSync(path.join(ROOT, "docs/reference", page), "utf8").matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => ({
    page,
    code: m[1].trim(),
  })),
);

describe("the reference's TypeScript examples", () => {
  it("compile under strict against the SDK's typings, outputs included", { timeout: 120_000 }, () => {
    expect(blocks.length).toBeGreaterThan(20);
    const program = blocks.map(({ page, code }, i) => {
      // A record type's example is a record's value: made into a DnsRecord of its own.
      const body = code.startsWith("{ type:") ? `new ops.edge.DnsRecord("r${i}", { zoneName: "example.com", ...${code} });` : code;
      return `// ${page}\nexport namespace example${i} {\n${body}\n}`;
    });
    program.push(`export namespace outputs {
  const caa = new ops.edge.DnsRecord("caa", { zoneName: "example.com", type: "CAA", name: "@", data: { flags: 0, tag: "issue", value: "letsencrypt.org" } });
  export const tag: pulumi.Output<string | undefined> = caa.data.apply((d) => d?.tag);
  export const flags: pulumi.Output<number | string | undefined> = caa.data.apply((d) => d?.flags); // text for NAPTR
  const rule = new ops.edge.FirewallRule("fw", { zoneName: "example.com", expression: "ip.src eq 203.0.113.1", action: "block" });
  export const ids: pulumi.Output<string>[] = [rule.ruleId, rule.rulesetId, rule.ref];
  const script = new ops.edge.WorkerScript("w", { name: "w", content: "export default {}" });
  export const date: pulumi.Output<string> = script.compatibilityDate;
}`);
    const dir = mkdtempSync(path.join(tmpdir(), "reference-examples-"));
    const file = path.join(dir, "index.ts");
    // What the examples take from the program around them, as a reader would have it.
    const context = [
      "declare const pageId: string;",
      "declare const appId: string;",
      "declare const verifyToken: pulumi.Output<string>;",
      "declare const model: ops.runner.RunnerModel;",
    ].join("\n");
    writeFileSync(
      file,
      `import * as pulumi from "@pulumi/pulumi";\nimport * as ops from "pulumi-ops";\n${context}\n${program.join("\n\n")}\n`,
    );
    const options: ts.CompilerOptions = {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.CommonJS,
      moduleResolution: ts.ModuleResolutionKind.Node10,
      baseUrl: ROOT,
      paths: { "pulumi-ops": ["sdk/index.ts"], "@pulumi/pulumi": ["node_modules/@pulumi/pulumi"] },
      typeRoots: [path.join(ROOT, "node_modules/@types")],
      types: ["node"],
    };
    const diagnostics = ts.getPreEmitDiagnostics(ts.createProgram([file], options)).filter((d) => d.file?.fileName === file);
    const text = diagnostics.map(
      (d) => `${d.file!.getLineAndCharacterOfPosition(d.start!).line + 1}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`,
    );
    expect(
      text,
      readFileSync(file, "utf8")
        .split("\n")
        .map((l, i) => `${i + 1} ${l}`)
        .join("\n"),
    ).toEqual([]);
  });
});

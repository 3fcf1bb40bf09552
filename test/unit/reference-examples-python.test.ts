/**
 * The reference's Python examples run against the Python SDK generated from schema.json (sdk/python), under
 * Pulumi's own mocks (`pulumi.runtime.set_mocks`): every ```python block of docs/reference/*.md is the body of a
 * function of one program. A misspelt argument fails in the SDK; what reaches the engine is held to schema.json by
 * the mocks (every property and nested field named as the schema names it, of its type), and each function's
 * answer is made from its schema, so an example that reads a field the answer lacks fails too. KEEP_EXAMPLES=1 keeps
 * the program it writes (its folder under the system's temporary directory), to run it by hand.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../../scripts/root";

const PYTHON = path.join(ROOT, ".tools/python/bin/python");
const pages = readdirSync(path.join(ROOT, "docs/reference")).filter((f) => f.endsWith(".md"));
const blocks = pages.flatMap((page) =>
  [...readFileSync(path.join(ROOT, "docs/reference", page), "utf8").matchAll(/```python\n([\s\S]*?)```/g)].map((m) => ({
    page,
    code: m[1].trimEnd(),
  })),
);

const MOCKS = String.raw`
import json, sys
import pulumi

schema = json.load(open(sys.argv[1]))
problems = []

def conforms(value, prop, where):
    if value is None:
        return
    ref = prop.get("$ref", "")
    if ref.startswith("#/types/"):
        fields = schema["types"][ref[len("#/types/"):]]["properties"]
        if not isinstance(value, dict):
            problems.append(f"{where}: expected an object, got {value!r}")
            return
        for k, v in value.items():
            if k not in fields:
                problems.append(f"{where}.{k}: not a field of {ref} (fields: {sorted(fields)})")
            else:
                conforms(v, fields[k], f"{where}.{k}")
    elif prop.get("type") == "array":
        if not isinstance(value, list):
            problems.append(f"{where}: expected a list, got {value!r}")
        else:
            for i, v in enumerate(value):
                conforms(v, prop.get("items", {}), f"{where}[{i}]")
    elif prop.get("type") == "object":
        if not isinstance(value, dict):
            problems.append(f"{where}: expected a map, got {value!r}")
        else:
            for k, v in value.items():
                conforms(v, prop.get("additionalProperties", {}), f"{where}.{k}")
    elif prop.get("type") in ("string", "integer", "number", "boolean"):
        # Numbers reach the engine as protobuf doubles: an integer is a whole one.
        kinds = {"string": str, "integer": (int, float), "number": (int, float), "boolean": bool}[prop["type"]]
        if not isinstance(value, kinds) or (prop["type"] == "integer" and value != int(value)):
            problems.append(f"{where}: expected {prop['type']}, got {value!r}")

def inputs(token, given, props):
    for k, v in given.items():
        if k not in props:
            problems.append(f"{token}: {k} is not an input (inputs: {sorted(props)})")
        else:
            conforms(v, props[k], f"{token}.{k}")

def made(prop):
    """A value of the schema's type, as a service would answer it."""
    ref = prop.get("$ref", "")
    if ref.startswith("#/types/"):
        return {k: made(p) for k, p in schema["types"][ref[len("#/types/"):]]["properties"].items()}
    t = prop.get("type")
    return {"array": lambda: [made(prop.get("items", {}))], "object": lambda: {}, "string": lambda: "text", "integer": lambda: 1, "number": lambda: 1.5, "boolean": lambda: True}.get(t, lambda: "any")()

class Mocks(pulumi.runtime.Mocks):
    def new_resource(self, args):
        inputs(args.typ, args.inputs, schema["resources"][args.typ]["inputProperties"])
        return [f"{args.name}-id", dict(args.inputs)]

    def call(self, args):
        fn = schema["functions"][args.token]
        inputs(args.token, args.args, (fn.get("inputs") or {}).get("properties", {}))
        return {k: made(p) for k, p in fn["outputs"]["properties"].items()}

pulumi.runtime.set_mocks(Mocks(), preview=False)

@pulumi.runtime.test
def run():
    import program
    return pulumi.Output.all(*program.everything)

run()
print(json.dumps(problems))
`;

describe("the reference's Python examples", () => {
  it("run on the Python SDK under Pulumi's mocks, every value as schema.json says", { timeout: 120_000 }, () => {
    expect(blocks.length).toBeGreaterThan(35);
    const dir = mkdtempSync(path.join(tmpdir(), "reference-python-"));
    try {
      // Each example a function; what it exports is also kept, so that the run waits for every answer to be read.
      const functions = blocks.map(
        ({ page, code }, i) =>
          `# ${page}\ndef example_${i}():\n${code
            .split("\n")
            .map((l) => `    ${l}`)
            .join("\n")}\n`,
      );
      const program = `import pulumi\nimport pulumi_ops as ops\n\neverything = []\n_export = pulumi.export\npulumi.export = lambda name, value: (everything.append(pulumi.Output.from_input(value)), _export(name, value))\n\n${functions.join("\n")}\n${blocks.map((_, i) => `example_${i}()`).join("\n")}\n`;
      writeFileSync(path.join(dir, "program.py"), program);
      writeFileSync(path.join(dir, "run.py"), MOCKS);
      // The SDK reads its own version from the installed package's metadata: sdk/python on PYTHONPATH has none until
      // a wheel build leaves some (python.test.ts), so the version it would have is given as an install would.
      const version = (JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string }).version;
      mkdirSync(path.join(dir, `pulumi_ops-${version}.dist-info`));
      writeFileSync(
        path.join(dir, `pulumi_ops-${version}.dist-info/METADATA`),
        `Metadata-Version: 2.1\nName: pulumi_ops\nVersion: ${version}\n`,
      );
      const result = spawnSync(PYTHON, ["run.py", path.join(ROOT, "schema.json")], {
        cwd: dir,
        encoding: "utf8",
        env: { ...process.env, PYTHONPATH: `${dir}:${path.join(ROOT, "sdk/python")}` },
      });
      const listing = program
        .split("\n")
        .map((l, i) => `${i + 1} ${l}`)
        .join("\n");
      expect(result.status, `${result.stderr}\n${listing}`).toBe(0);
      expect(JSON.parse(result.stdout.trim().split("\n").pop()!), listing).toEqual([]);
    } finally {
      if (!process.env.KEEP_EXAMPLES) rmSync(dir, { recursive: true, force: true });
    }
  });
});

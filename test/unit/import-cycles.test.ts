/**
 * Imports run one way (issue 45): no module of the provider imports, directly or through others, a module that
 * imports it back. A cycle makes load order decide what is defined (a `const` read before its module ran) and ties
 * modules that should be apart. madge (a maintained dependency-graph tool) reads the graph as TypeScript resolves it;
 * imports of types only are left out, as they vanish when compiled.
 */
import * as path from "node:path";
import madge from "madge";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../..");

async function cycles(dir: string): Promise<string[][]> {
  const graph = await madge(path.join(ROOT, dir), {
    fileExtensions: ["ts"],
    tsConfig: path.join(ROOT, "tsconfig.json"),
    detectiveOptions: { ts: { skipTypeImports: true }, tsx: { skipTypeImports: true } },
  });
  return graph.circular();
}

describe("import cycles", () => {
  it("none in provider/ (nor in the emulators it starts)", { timeout: 60_000 }, async () => {
    expect(await cycles("provider")).toEqual([]);
  });
});

/**
 * The SDK is generated (scripts/gen-sdk.ts, scripts/gen-sdk-classes.ts) from the zod schemas, as schema.json and the
 * reference are: the committed files must be what the generator writes today, and every resource has a named
 * `XxxArgs` with a doc comment on each property.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { generateSchema } from "../../scripts/gen-schema";
import { generateSdk } from "../../scripts/gen-sdk";
import { generateClasses, kebab } from "../../scripts/gen-sdk-classes";
import { render } from "../../scripts/example-render";
import { registry } from "../../provider/registry";

const files = generateSdk();

describe("the generated SDK typings", () => {
  it("and the classes, module indexes and serialized provider modules are what `npm run gen` writes today", async () => {
    const classes = await generateClasses(generateSchema() as unknown as Parameters<typeof generateClasses>[0]);
    expect(Object.keys(classes).length).toBeGreaterThan(40); // a class and a provider module per type, an index per module
    for (const [file, text] of Object.entries(classes)) {
      expect(readFileSync(path.resolve(__dirname, "../..", file), "utf8"), `${file} (run \`npm run gen\`)`).toBe(text);
    }
  });

  it("end each class's doc comment (an IDE's hover) in the reference's TypeScript example", async () => {
    const schema = generateSchema() as unknown as Parameters<typeof generateClasses>[0];
    const classes = await generateClasses(schema);
    for (const [token, entry] of Object.entries(registry).filter(([, e]) => e.docs.example)) {
      const [module, type] = token.split(":");
      const file = `sdk/${module}/${kebab(type)}.ts`;
      const example = render(schema, "typescript", `ops:${token}`, entry.docs.example!).replace(/\*\//g, "*\\/");
      const comment = /\/\*\*((?:(?!\*\/)[\s\S])*)\*\/\s*export class/.exec(classes[file])![1];
      expect(comment.replace(/\n \* {0,5}/g, "\n").trimEnd(), file).toMatch(
        new RegExp(`${example.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`),
      );
    }
  });

  it.each(Object.keys(files))("%s is what the zod schemas generate today (run `npm run gen` after changing a schema)", (file) => {
    expect(readFileSync(path.resolve(__dirname, "../..", file), "utf8")).toBe(files[file]);
  });

  it("give each resource an XxxArgs whose every property has a doc comment and takes pulumi.Input at every depth", () => {
    const edge = files["sdk/edge/types.ts"];
    const args = /export interface PageRuleArgs \{([\s\S]*?)\n\}/.exec(edge)![1].split("\n").filter(Boolean);
    for (const [i, line] of args.entries()) if (!line.trim().startsWith("/**")) expect(args[i - 1].trim()).toMatch(/^\/\*\*.*\*\/$/);
    expect(edge).toContain("targets: pulumi.Input<pulumi.Input<string>[]>;");
    expect(files["sdk/control/types.ts"]).toContain("environment?: pulumi.Input<{ [key: string]: pulumi.Input<string> }>;");
    expect(Object.values(files).join("\n")).not.toMatch(/from "zod"|z\.(input|infer|output)</);
  });

  it("give each function getX and getXOutput", () => {
    expect(files["sdk/edge/functions.ts"]).toMatch(
      /export function getZone\(args: GetZoneArgs, opts\?: pulumi\.InvokeOptions\): Promise<GetZoneResult>/,
    );
    expect(files["sdk/edge/functions.ts"]).toMatch(
      /export function getZoneOutput\(args: GetZoneOutputArgs, opts\?: pulumi\.InvokeOutputOptions\): pulumi\.Output<GetZoneResult>/,
    );
  });

  it("declare every output a resource has on its class, so a program can read it (DnsRecord's data, a rule's ruleId)", () => {
    const { readdirSync } = require("node:fs") as typeof import("node:fs");
    for (const module of ["edge", "pages", "posts", "runner", "skills", "control"]) {
      const types = files[`sdk/${module}/types.ts`];
      for (const [, name, list] of types.matchAll(/export const (\w+)OutputNames = (\[[^\]]*\])/g)) {
        const file = readdirSync(path.resolve(__dirname, "../../sdk", module)).find(
          (f) => readFileSync(path.resolve(__dirname, "../../sdk", module, f), "utf8").includes(`${name}OutputNames`) && f !== "types.ts",
        )!;
        const text = readFileSync(path.resolve(__dirname, "../../sdk", module, file), "utf8");
        for (const output of JSON.parse(list) as string[])
          expect(text, `${module}/${file} declares ${output}`).toContain(`declare readonly ${output}: pulumi.Output<Out["${output}"]>;`);
      }
    }
    expect(files["sdk/edge/types.ts"]).toMatch(/export interface DnsRecordOutputs \{[\s\S]*?data\?: DnsRecordData;/);
  });
});

/**
 * schema.json, the Pulumi package schema, generated from the registry's zod schemas (the same ones `check` runs).
 * `npm run gen-schema` rewrites it; test/unit/schema.test.ts fails when the committed file is stale.
 */
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { z } from "zod";
import { registry } from "../provider/registry";
import { ROOT } from "./root";


type JsonSchema = {
  type?: string | string[];
  description?: string;
  default?: unknown;
  enum?: unknown[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: JsonSchema | boolean;
  anyOf?: JsonSchema[];
  replaceOnChanges?: boolean;
  secret?: boolean;
};

/** One JSON Schema property in Pulumi's property format. */
function property(s: JsonSchema): Record<string, unknown> {
  const variants = s.anyOf?.filter((v) => v.type !== "null");
  const base = variants?.length === 1 ? { ...variants[0], ...s, anyOf: undefined } : s;
  const out: Record<string, unknown> = {};
  const t = Array.isArray(base.type) ? base.type.find((x) => x !== "null") : base.type;
  if (t === "array") {
    out.type = "array";
    out.items = property(base.items ?? {});
  } else if (t === "object") {
    out.type = "object";
    out.additionalProperties = property(typeof base.additionalProperties === "object" ? base.additionalProperties : {});
  } else if (t === "integer" || t === "number" || t === "boolean" || t === "string") {
    out.type = t;
  } else if (base.enum?.every((v) => typeof v === "string")) {
    out.type = "string";
  } else {
    out.$ref = "pulumi.json#/Any";
  }
  let description = base.description ?? "";
  if (base.enum) description = `${description}${description ? " " : ""}One of: ${base.enum.map((v) => `\`${v}\``).join(", ")}.`;
  if (description) out.description = description;
  // Pulumi's metaschema takes constant defaults only (a boolean, number or string); a list's default stays in check.
  if (["boolean", "number", "string"].includes(typeof base.default)) out.default = base.default;
  if (base.replaceOnChanges) out.replaceOnChanges = true;
  if (base.secret) out.secret = true;
  return out;
}

function properties(schema: z.ZodType, io: "input" | "output") {
  const json = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema;
  const props = Object.fromEntries(Object.entries(json.properties ?? {}).map(([k, v]) => [k, property(v)]));
  return { props, required: [...(json.required ?? [])].sort() };
}

export function generateSchema(): Record<string, unknown> {
  const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string; description: string };
  const resources: Record<string, unknown> = {};
  for (const token of Object.keys(registry).sort()) {
    const entry = registry[token];
    const inputs = properties(entry.inputs, "input");
    const outputs = properties(entry.outputs, "output");
    resources[`ops:${token}`] = {
      description: entry.description,
      inputProperties: inputs.props,
      requiredInputs: inputs.required,
      properties: outputs.props,
      required: outputs.required,
    };
  }
  return {
    name: "ops",
    displayName: "pulumi-ops",
    version: pkg.version,
    description: pkg.description,
    license: "Apache-2.0",
    language: { nodejs: { packageName: "pulumi-ops" } },
    resources,
  };
}

export function schemaText(): string {
  return `${JSON.stringify(generateSchema(), null, 2)}\n`;
}

if (require.main === module) {
  const file = path.join(ROOT, "schema.json");
  writeFileSync(file, schemaText());
  console.log(`wrote ${file}`);
}

/**
 * docs/reference/*.md, one page per service: every resource's inputs and outputs (from the same zod schemas as
 * schema.json and `check`), how to adopt or read an existing object, and an example, and every read-only
 * function — examples and function notes taken from the SDK's own doc comments, so IDE hovers and these pages
 * never disagree. `npm run gen-docs` rewrites them; test/unit/docs.test.ts fails when they are stale.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { generateSchema } from "./gen-schema";
import { ROOT } from "./root";

interface Prop {
  type?: string;
  items?: Prop;
  $ref?: string;
  description?: string;
  default?: unknown;
  replaceOnChanges?: boolean;
  secret?: boolean;
}
interface Resource {
  description: string;
  inputProperties: Record<string, Prop>;
  requiredInputs: string[];
  properties: Record<string, Prop>;
}

const SERVICES: Record<string, string> = {
  edge: "Edge network: zone settings, DNS records, page rules, firewall and rate-limit rules, edge scripts",
  pages: "Page management: page posts, page roles, webhook subscriptions",
  posts: "Short posts: posts and the app's webhook",
  skills: "Skills registry: written and generated skills",
  runner: "Model runner: models",
  control: "Remote computer control: commands on a host",
};

const kebab = (s: string) => s.replace(/([a-z0-9])([A-Z])/g, "$1-$2").toLowerCase();
const cell = (s: string) => s.replace(/\|/g, "\\|").replace(/\n/g, " ");

interface ObjectType {
  properties: Record<string, Prop>;
  required?: string[];
}
interface Fn {
  description: string;
  inputs?: ObjectType;
  outputs: ObjectType;
}

const refName = (ref: string) => (ref.startsWith("#/types/") ? ref.split(":").pop()! : "");

function typeName(p: Prop): string {
  if (p.type === "array") return `${typeName(p.items ?? {})}[]`;
  if (p.type === "object") return "map";
  if (p.$ref) return refName(p.$ref) || "any";
  return p.type ?? "any";
}

/** The named object types `props` refers to, at any depth: a table each, after the table that uses them. */
function typeTables(props: Record<string, Prop>, types: Record<string, ObjectType>, seen = new Set<string>()): string[] {
  const out: string[] = [];
  for (const p of Object.values(props)) {
    const ref = p.$ref ?? p.items?.$ref;
    if (!ref?.startsWith("#/types/") || seen.has(ref)) continue;
    seen.add(ref);
    const t = types[ref.slice("#/types/".length)];
    out.push(`\`${refName(ref)}\`:`, "", ...table(t.properties, t.required ?? [], "field"), "", ...typeTables(t.properties, types, seen));
  }
  return out;
}

function table(props: Record<string, Prop>, required: string[], kind: "input" | "output" | "field"): string[] {
  const inputs = kind !== "output";
  const head = inputs ? `| ${kind} | type | required | default | notes |\n|---|---|---|---|---|` : "| output | type | notes |\n|---|---|---|";
  const rows = Object.entries(props).map(([k, p]) => {
    const notes = [p.description ?? "", p.replaceOnChanges && !/replaces/.test(p.description ?? "") ? "**Changing it replaces the resource.**" : "", p.secret ? "Secret." : ""].filter(Boolean).join(" ");
    return inputs
      ? `| \`${k}\` | ${typeName(p)} | ${required.includes(k) ? "yes" : ""} | ${p.default !== undefined ? `\`${JSON.stringify(p.default)}\`` : ""} | ${cell(notes)} |`
      : `| \`${k}\` | ${typeName(p)} | ${cell(notes)} |`;
  });
  return [head, ...rows];
}

/** The SDK file's doc comments: the class's (with its example) and `get`'s. */
function sdkDocs(module: string, name: string): { about: string; example: string; get: string } {
  const text = readFileSync(path.join(ROOT, "sdk", module, `${kebab(name)}.ts`), "utf8");
  const classDoc = /\/\*\*((?:(?!\*\/)[\s\S])*)\*\/\s*export class/.exec(text)?.[1] ?? "";
  const lines = classDoc.split("\n").map((l) => l.replace(/^\s*\* ?/, ""));
  const example = lines.filter((l) => l.startsWith("    ")).map((l) => l.slice(4)).join("\n");
  const about = lines.filter((l) => !l.startsWith("    ")).join(" ").replace(/\s+/g, " ").trim();
  const get = /\/\*\*\s*(.*?)\s*\*\/\s*static get/.exec(text)?.[1] ?? "";
  return { about, example, get };
}

/** Exported functions of sdk/<module>/functions.ts with their one-line docs, and the file's example. */
function sdkFunctions(module: string): { header: string; functions: [string, string][] } {
  const text = readFileSync(path.join(ROOT, "sdk", module, "functions.ts"), "utf8");
  const header = (/^\/\*\*([\s\S]*?)\*\//.exec(text)?.[1] ?? "").split("\n").map((l) => l.replace(/^\s*\* ?/, "")).join("\n").trim();
  const functions = [...text.matchAll(/\/\*\*\s*((?:(?!\*\/)[\s\S])*?)\s*\*\/\s*export (?:const|async function|function) (\w+)/g)].map((m) => [m[2], m[1].replace(/\s*\*\s*/g, " ").trim()] as [string, string]);
  return { header, functions };
}

export function generateDocs(): Record<string, string> {
  const schema = generateSchema() as { resources: Record<string, Resource>; functions: Record<string, Fn>; types: Record<string, ObjectType> };
  const pages: Record<string, string> = {};
  const index = ["# Reference", "", "Generated by `npm run gen-docs` from the zod schemas (the same ones as `check` and `schema.json`) and the SDK's doc comments.", ""];
  for (const [module, title] of Object.entries(SERVICES)) {
    const out = [`# ${title}`, "", "Generated by `npm run gen-docs`; do not edit.", ""];
    const tokens = Object.keys(schema.resources).filter((t) => t.startsWith(`ops:${module}:`)).sort();
    for (const token of tokens) {
      const r = schema.resources[token];
      const name = token.split(":")[2];
      const docs = sdkDocs(module, name);
      out.push(`## ${module}.${name}`, "", `\`ops.${module}.${name}\` (TypeScript) · \`${token}\` (schema token, the provider plugin)`, "", docs.about || r.description, "");
      if (docs.example) out.push("```ts", docs.example, "```", "");
      out.push("### Inputs", "", ...table(r.inputProperties, r.requiredInputs, "input"), "", ...typeTables(r.inputProperties, schema.types));
      out.push("### Outputs", "", ...table(r.properties, [], "output"), "", ...typeTables(r.properties, schema.types));
      out.push("### Existing objects", "");
      if (r.inputProperties.adopt) out.push(`- Adopt: \`adopt: true\` — ${r.inputProperties.adopt.description ?? ""}`);
      out.push(docs.get ? `- Read only: \`${name}.get(name, id)\`. ${docs.get}` : "- Read only: none: what it made is not an object the service can look up by id; declare it.", "");
    }
    const fns = sdkFunctions(module);
    if (fns.functions.length) {
      out.push("## Functions", "", fns.header, "", "| function | what it returns |", "|---|---|");
      for (const [fn, doc] of fns.functions) out.push(`| \`ops.${module}.${fn}\` | ${cell(doc)} |`);
      out.push("");
    }
    const invokes = Object.keys(schema.functions).filter((t) => t.startsWith(`ops:${module}:`)).sort();
    if (invokes.length) {
      out.push("## Functions through the provider plugin", "", "What programs in other languages call (their SDK is generated from schema.json; see the README). A list comes back under a named property.", "");
      for (const token of invokes) {
        const f = schema.functions[token];
        out.push(`### ${token.split(":")[2]}`, "", `\`${token}\`: ${f.description}`, "");
        if (f.inputs) out.push(...table(f.inputs.properties, f.inputs.required ?? [], "input"), "", ...typeTables(f.inputs.properties, schema.types));
        out.push(...table(f.outputs.properties, [], "output"), "", ...typeTables(f.outputs.properties, schema.types));
      }
    }
    pages[`${module}.md`] = `${out.join("\n").replace(/\n{3,}/g, "\n\n").trimEnd()}\n`;
    index.push(`- [${title}](${module}.md): ${tokens.map((t) => `\`${t.split(":")[2]}\``).join(", ")}${fns.functions.length ? `; ${fns.functions.length} functions` : ""}`);
  }
  pages["README.md"] = `${index.join("\n")}\n`;
  return pages;
}

if (require.main === module) {
  const dir = path.join(ROOT, "docs/reference");
  mkdirSync(dir, { recursive: true });
  for (const [file, text] of Object.entries(generateDocs())) writeFileSync(path.join(dir, file), text);
  console.log(`wrote ${dir}`);
}

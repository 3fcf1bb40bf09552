/**
 * One example (scripts/reference-examples.ts) written in the four languages a Pulumi user reads a registry page in:
 * TypeScript (the classes of this package), Python and Go (the SDKs generated from schema.json) and YAML (tokens).
 * Each value is written by its type in the schema, as that language's SDK spells it.
 */
import YAML from "yaml";
import { Ref, type Example, type Step, type Value } from "./reference-examples";

export interface Prop {
  type?: string;
  items?: Prop;
  additionalProperties?: Prop;
  $ref?: string;
  properties?: Record<string, Prop>;
}
export interface Schema {
  resources: Record<string, { inputProperties: Record<string, Prop> }>;
  functions: Record<string, { inputs?: { properties: Record<string, Prop> } }>;
  types: Record<string, { properties: Record<string, Prop> }>;
}

export type Language = "typescript" | "python" | "go" | "yaml";
export const LANGUAGES: Language[] = ["typescript", "python", "go", "yaml"];

const isFunction = (token: string) => /^[a-z]/.test(token.split(":")[2]);
const moduleOf = (token: string) => token.split(":")[1];
const member = (token: string) => token.split(":")[2];
const PYTHON_KEYWORDS = new Set(
  "and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield".split(
    " ",
  ),
);
/** A name as the Python SDK generated from schema.json spells it: snake_case, and a keyword with a trailing `_`. */
export const pythonName = (s: string) => {
  const name = s.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
  return PYTHON_KEYWORDS.has(name) ? `${name}_` : name;
};
const snake = pythonName;
const pascal = (s: string) => s[0].toUpperCase() + s.slice(1);
const quote = (s: string) => JSON.stringify(s);
const isIdentifier = (k: string) => /^[A-Za-z_$][\w$]*$/.test(k);

/** The steps in order, each with its token. */
function stepsOf(token: string, ex: Example): Step[] {
  return [...(ex.before ?? []), { token, ...ex.step }];
}

function propsOf(schema: Schema, token: string): Record<string, Prop> {
  return isFunction(token) ? (schema.functions[token].inputs?.properties ?? {}) : schema.resources[token].inputProperties;
}

/** The named object type a property holds, or undefined (`pulumi.json#/Any` and plain types). */
function typeOf(schema: Schema, p: Prop | undefined): { token: string; props: Record<string, Prop> } | undefined {
  if (!p?.$ref?.startsWith("#/types/")) return undefined;
  const token = p.$ref.slice("#/types/".length);
  return { token, props: schema.types[token].properties };
}

/** Path segments of a reference: `latest.posts[0].id` -> ["latest", "posts", 0, "id"]. */
function segments(path: string): (string | number)[] {
  return path.split(/\.|(?=\[)/).map((s) => (s.startsWith("[") ? Number(s.slice(1, -1)) : s));
}

/** Steps a later step or an export refers to: only those get a variable. */
function referenced(ex: Example, steps: Step[]): Set<string> {
  const names = new Set<string>();
  const visit = (v: Value | undefined): void => {
    if (v instanceof Ref) names.add(String(segments(v.path)[0]));
    else if (Array.isArray(v)) v.forEach(visit);
    else if (v && typeof v === "object") Object.values(v).forEach(visit);
  };
  for (const s of steps) visit(s.args as Value);
  for (const r of Object.values(ex.exports ?? {})) visit(r);
  return names;
}

// ---- TypeScript ----

function tsRef(path: string): string {
  const [head, ...rest] = segments(path);
  if (!rest.some((s) => typeof s === "number")) return path;
  return `${head}.apply((r) => r${rest.map((s) => (typeof s === "number" ? `[${s}]` : `.${s}`)).join("")})`;
}

function tsValue(v: Value): string {
  if (v instanceof Ref) return tsRef(v.path);
  if (Array.isArray(v)) return `[${v.map(tsValue).join(", ")}]`;
  if (typeof v === "object") {
    const entries = Object.entries(v);
    return entries.length ? `{ ${entries.map(([k, x]) => `${isIdentifier(k) ? k : quote(k)}: ${tsValue(x)}`).join(", ")} }` : "{}";
  }
  return typeof v === "string" ? quote(v) : String(v);
}

/** An object literal on one line, or a property a line when that is long. */
function tsArgs(args: Record<string, Value>, indent: string): string {
  const one = tsValue(args);
  if (one.length <= 90) return one;
  return `{\n${Object.entries(args)
    .map(([k, x]) => `${indent}  ${isIdentifier(k) ? k : quote(k)}: ${tsValue(x)},`)
    .join("\n")}\n${indent}}`;
}

function typescript(token: string, ex: Example): string {
  const steps = stepsOf(token, ex);
  const named = referenced(ex, steps);
  const lines = steps.map((s) => {
    const call = isFunction(s.token)
      ? `ops.${moduleOf(s.token)}.${member(s.token)}Output(${tsArgs(s.args, "")})`
      : `new ops.${moduleOf(s.token)}.${member(s.token)}(${quote(s.name)}, ${tsArgs(s.args, "")})`;
    return named.has(s.name) || isFunction(s.token) ? `const ${s.name} = ${call};` : `${call};`;
  });
  for (const [k, r] of Object.entries(ex.exports ?? {})) lines.push(`export const ${k} = ${tsRef(r.path)};`);
  return lines.join("\n");
}

// ---- Python ----

function pyRef(path: string): string {
  const [head, ...rest] = segments(path);
  const tail = rest.map((s) => (typeof s === "number" ? `[${s}]` : `.${snake(s)}`)).join("");
  return rest.some((s) => typeof s === "number") ? `${snake(String(head))}.apply(lambda r: r${tail})` : `${snake(String(head))}${tail}`;
}

function pyValue(schema: Schema, v: Value, p: Prop | undefined): string {
  if (v instanceof Ref) return pyRef(v.path);
  if (typeof v === "boolean") return v ? "True" : "False";
  if (typeof v !== "object") return typeof v === "string" ? quote(v) : String(v);
  if (Array.isArray(v)) return `[${v.map((x) => pyValue(schema, x, p?.items)).join(", ")}]`;
  const type = typeOf(schema, p);
  // A named type's fields are spelled as Python spells them; a map's keys and an `any` value's are the user's own.
  const entries = Object.entries(v).map(([k, x]) =>
    type ? `${quote(snake(k))}: ${pyValue(schema, x, type.props[k])}` : `${quote(k)}: ${pyValue(schema, x, p?.additionalProperties)}`,
  );
  return `{${entries.join(", ")}}`;
}

function pyCall(schema: Schema, s: Step, head: string): string {
  const props = propsOf(schema, s.token);
  const kwargs = Object.entries(s.args).map(([k, x]) => `${snake(k)}=${pyValue(schema, x, props[k])}`);
  const args = isFunction(s.token) ? kwargs : [quote(s.name), ...kwargs];
  const one = `${head}(${args.join(", ")})`;
  return one.length <= 100 ? one : `${head}(\n${args.map((a) => `    ${a},`).join("\n")}\n)`;
}

function python(schema: Schema, token: string, ex: Example): string {
  const steps = stepsOf(token, ex);
  const named = referenced(ex, steps);
  const lines = steps.map((s) => {
    const call = isFunction(s.token)
      ? pyCall(schema, s, `ops.${moduleOf(s.token)}.${snake(member(s.token))}_output`)
      : pyCall(schema, s, `ops.${moduleOf(s.token)}.${member(s.token)}`);
    return named.has(s.name) || isFunction(s.token) ? `${snake(s.name)} = ${call}` : call;
  });
  for (const [k, r] of Object.entries(ex.exports ?? {})) lines.push(`pulumi.export(${quote(k)}, ${pyRef(r.path)})`);
  return lines.join("\n");
}

// ---- Go ----

function goRef(schema: Schema, steps: Step[], path: string): string {
  const [head, ...rest] = segments(path);
  const step = steps.find((s) => s.name === head)!;
  // A resource's outputs are fields; a function's output has a method per field, and Index for a list.
  // A resource's own id is a method: ID().
  if (!isFunction(step.token))
    return rest.length === 1 && rest[0] === "id" ? `${head}.ID()` : `${head}${rest.map((s) => `.${pascal(String(s))}`).join("")}`;
  return `${head}${rest.map((s) => (typeof s === "number" ? `.Index(pulumi.Int(${s}))` : `.${pascal(s)}()`)).join("")}`;
}

const GO_SCALARS: Record<string, [string, string]> = {
  string: ["String", "StringArray"],
  integer: ["Int", "IntArray"],
  number: ["Float64", "Float64Array"],
  boolean: ["Bool", "BoolArray"],
};

/** A plain Go value, for a property of any type. */
function goPlain(v: Value): string {
  if (Array.isArray(v)) return `[]interface{}{${v.map(goPlain).join(", ")}}`;
  if (typeof v === "object" && !(v instanceof Ref))
    return `map[string]interface{}{${Object.entries(v)
      .map(([k, x]) => `${quote(k)}: ${goPlain(x)}`)
      .join(", ")}}`;
  return typeof v === "string" ? quote(v) : String(v);
}

function goValue(schema: Schema, steps: Step[], v: Value, p: Prop | undefined, indent: string): string {
  if (v instanceof Ref) return goRef(schema, steps, v.path);
  const type = typeOf(schema, p);
  if (type) {
    const [, mod, name] = type.token.split(":");
    return `${mod}.${name}Args${goFields(schema, steps, v as Record<string, Value>, type.props, indent)}`;
  }
  if (p?.type === "array") {
    const items = typeOf(schema, p.items);
    const list = (v as Value[]).map((x) => goValue(schema, steps, x, p.items, indent));
    const kind = items
      ? `${items.token.split(":")[1]}.${items.token.split(":")[2]}Array`
      : GO_SCALARS[p.items?.type ?? ""]
        ? `pulumi.${GO_SCALARS[p.items!.type!][1]}`
        : "pulumi.Array";
    return `${kind}{${list.join(", ")}}`;
  }
  if (p?.type === "object") {
    const values = typeOf(schema, p.additionalProperties);
    const kind = values
      ? `${values.token.split(":")[1]}.${values.token.split(":")[2]}Map`
      : GO_SCALARS[p.additionalProperties?.type ?? ""]
        ? `pulumi.${GO_SCALARS[p.additionalProperties!.type!][0]}Map`
        : "pulumi.Map";
    const inner = `${indent}\t`;
    return `${kind}{\n${Object.entries(v as Record<string, Value>)
      .map(([k, x]) => `${inner}${quote(k)}: ${goValue(schema, steps, x, p.additionalProperties, inner)},`)
      .join("\n")}\n${indent}}`;
  }
  const scalar = GO_SCALARS[p?.type ?? ""];
  return scalar ? `pulumi.${scalar[0]}(${goPlain(v)})` : `pulumi.Any(${goPlain(v)})`;
}

function goFields(schema: Schema, steps: Step[], args: Record<string, Value>, props: Record<string, Prop>, indent: string): string {
  const inner = `${indent}\t`;
  const entries = Object.entries(args);
  if (!entries.length) return "{}";
  return `{\n${entries.map(([k, x]) => `${inner}${pascal(k)}: ${goValue(schema, steps, x, props[k], inner)},`).join("\n")}\n${indent}}`;
}

/** A function's Go name: `getX` is `LookupX` when the module has a resource `X` (the Go generator's rule). */
export function goFunction(schema: Schema, token: string): string {
  const [, mod, fn] = token.split(":");
  return fn.startsWith("get") && schema.resources[`ops:${mod}:${fn.slice(3)}`] ? `Lookup${fn.slice(3)}` : pascal(fn);
}

function go(schema: Schema, token: string, ex: Example): string {
  const steps = stepsOf(token, ex);
  const named = referenced(ex, steps);
  const lines: string[] = [];
  for (const s of steps) {
    const mod = moduleOf(s.token);
    const fields = goFields(schema, steps, s.args, propsOf(schema, s.token), "");
    if (isFunction(s.token)) {
      lines.push(`${s.name} := ${mod}.${goFunction(schema, s.token)}Output(ctx, ${mod}.${goFunction(schema, s.token)}OutputArgs${fields})`);
      continue;
    }
    const call = `${mod}.New${member(s.token)}(ctx, ${quote(s.name)}, &${mod}.${member(s.token)}Args${fields})`;
    if (named.has(s.name)) lines.push(`${s.name}, err := ${call}`, "if err != nil {", "\treturn err", "}");
    else lines.push(`if _, err := ${call}; err != nil {`, "\treturn err", "}");
  }
  for (const [k, r] of Object.entries(ex.exports ?? {})) lines.push(`ctx.Export(${quote(k)}, ${goRef(schema, steps, r.path)})`);
  return lines.join("\n");
}

/** The Go packages an example uses, for its imports. */
export function goModules(token: string, ex: Example): string[] {
  return [...new Set(stepsOf(token, ex).map((s) => moduleOf(s.token)))].sort();
}

// ---- YAML ----

function yamlValue(v: Value, prefix: string): unknown {
  if (v instanceof Ref) return `\${${prefix}${v.path}}`;
  if (Array.isArray(v)) return v.map((x) => yamlValue(x, prefix));
  if (typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, yamlValue(x, prefix)]));
  return v;
}

/**
 * The example as a YAML program's sections. `prefix` goes before every name, reference and output, so that many
 * examples can share one program (the test that runs them all).
 */
export function yamlSections(
  token: string,
  ex: Example,
  prefix = "",
): { resources: Record<string, unknown>; variables: Record<string, unknown>; outputs: Record<string, unknown> } {
  const resources: Record<string, unknown> = {};
  const variables: Record<string, unknown> = {};
  const value = (v: Value): unknown => yamlValue(v, prefix);
  for (const s of stepsOf(token, ex)) {
    const args = value(s.args as Value) as Record<string, unknown>;
    if (isFunction(s.token)) variables[prefix + s.name] = { "fn::invoke": { function: s.token, arguments: args } };
    else resources[prefix + s.name] = { type: s.token, properties: args };
  }
  const outputs = Object.fromEntries(Object.entries(ex.exports ?? {}).map(([k, r]) => [prefix + k, value(r)]));
  return { resources, variables, outputs };
}

/**
 * YAML text of a program's sections. Written as YAML 1.1 would read it, so that a word such as `on` or `yes` is
 * quoted: Pulumi YAML (YAML 1.2) reads it as text either way, a reader or another tool may not.
 */
export function yamlText(doc: Record<string, unknown>): string {
  return YAML.stringify(doc, { lineWidth: 0, version: "1.1" }).trimEnd();
}

function yaml(token: string, ex: Example): string {
  const sections = yamlSections(token, ex);
  return yamlText(Object.fromEntries(Object.entries(sections).filter(([, v]) => Object.keys(v).length)));
}

export function render(schema: Schema, language: Language, token: string, ex: Example): string {
  switch (language) {
    case "typescript":
      return typescript(token, ex);
    case "python":
      return python(schema, token, ex);
    case "go":
      return go(schema, token, ex);
    case "yaml":
      return yaml(token, ex);
  }
}

/** The fence language of each, as a registry page labels it. */
export const FENCES: Record<Language, [string, string]> = {
  typescript: ["ts", "TypeScript"],
  python: ["python", "Python"],
  go: ["go", "Go"],
  yaml: ["yaml", "YAML"],
};

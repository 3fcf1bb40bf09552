/**
 * docs/reference/*.md, one page per service: every resource's inputs and outputs (from the same zod schemas as
 * schema.json and `check`), how to adopt or read an existing object, and every read-only function, each with an
 * example in four languages (scripts/reference-examples.ts, written by example-render.ts). A resource's prose is its
 * generated SDK class's (scripts/gen-sdk-classes.ts, from `classDoc` in its folder), whose doc comment ends in the
 * same TypeScript example, so IDE hovers and these pages never disagree. `npm run gen-docs` rewrites the pages and the
 * README's settings table; test/unit/docs.test.ts fails when one is stale.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { DATA_FIELDS, isDataType } from "../provider/edge/dns-record/data";
import { toZoneFile } from "../provider/edge/zone-file";
import { SAMPLES } from "../test/helpers/record-samples";
import * as path from "node:path";
import { ACCOUNTS_KEY, ALL_SETTINGS } from "../provider/config";
import { registry } from "../provider/registry";
import { FENCES, goFunction, LANGUAGES, pythonName, render, type Schema } from "./example-render";
import { generateSchema } from "./gen-schema";
import { getDoc, kebab } from "./gen-sdk-classes";
import { FUNCTION_EXAMPLES, NO_EXAMPLE, RESOURCE_EXAMPLES, type Example } from "./reference-examples";
import { ROOT } from "./root";

interface Prop {
  type?: string;
  items?: Prop;
  additionalProperties?: Prop;
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
  posts: "Short posts",
  skills: "Skills registry: written and generated skills",
  runner: "Model runner: models",
  control: "Remote computer control: commands on a host",
};

const snake = pythonName;
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

/** The values a property is limited to, from its description's "One of: `a`, `b`." (the zod enum's own words). */
const ONE_OF = /\s*One of: ((?:`[^`]+`(?:, )?)+)\.?/;
const choices = (p: Prop) =>
  ONE_OF.exec(p.description ?? "")?.[1]
    .split(", ")
    .map((c) => `"${c.slice(1, -1)}"`);

/** The type as the TypeScript typings have it: a union of its choices, a list or a map of what it holds. */
function typeName(p: Prop, input?: Prop): string {
  const union = (choices(p) ?? (input && choices(input)))?.join(" \\| ");
  if (p.type === "array") {
    const item = union ?? choices(p.items ?? {})?.join(" \\| ");
    return item ? `(${item})[]` : `${typeName(p.items ?? {})}[]`;
  }
  if (p.type === "object") return `map of ${p.additionalProperties ? typeName(p.additionalProperties) : "any"}`;
  if (p.$ref) return refName(p.$ref) || "any";
  return union ?? p.type ?? "any";
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

/** The provider's own bookkeeping (hashes, a source's kept text): inputs in the schema, never written by a program. */
const internal = (p: Prop) => /^Set by the provider/.test(p.description ?? "");

function table(
  props: Record<string, Prop>,
  required: string[],
  kind: "input" | "output" | "field",
  inputsOf: Record<string, Prop> = {},
): string[] {
  const inputs = kind !== "output";
  const head = inputs
    ? `| ${kind} | Python | type | required | default | notes |\n|---|---|---|---|---|---|`
    : "| output | Python | type | notes |\n|---|---|---|---|";
  const shown = Object.entries(props).filter(([, p]) => kind !== "input" || !internal(p));
  const rows = shown.map(([k, p]) => {
    // An output without a sentence of its own says what its input says; a replacing input is marked one way.
    // The choices are the type column's: not said twice.
    const said = (p.description ?? inputsOf[k]?.description ?? "")
      .replace(/\s*Changing (it|them|the [a-z]+) replaces the [a-z ]+\.\s*/g, " ")
      .replace(ONE_OF, "")
      .trim();
    // Replacement is a property of an input: an output's row does not say it.
    const notes = [said, inputs && p.replaceOnChanges ? "**Changing it replaces the resource.**" : "", p.secret ? "Secret." : ""]
      .filter(Boolean)
      .join(" ");
    return inputs
      ? `| \`${k}\` | \`${snake(k)}\` | ${typeName(p)} | ${required.includes(k) ? "yes" : ""} | ${p.default !== undefined ? `\`${JSON.stringify(p.default)}\`` : ""} | ${cell(notes)} |`
      : `| \`${k}\` | \`${snake(k)}\` | ${typeName(p, inputsOf[k])} | ${cell(notes)} |`;
  });
  return [head, ...rows];
}

/** Go code as gofmt lays it out (fields aligned): the body of a function, formatted inside one and taken out again. */
function gofmt(body: string): string {
  const file = `package p\n\nfunc f() {\n${body
    .split("\n")
    .map((l) => `\t${l}`)
    .join("\n")}\n}\n`;
  const out = execFileSync("gofmt", [], { input: file, encoding: "utf8" });
  return out
    .slice(out.indexOf("{\n") + 2, out.lastIndexOf("\n}"))
    .split("\n")
    .map((l) => l.replace(/^\t/, ""))
    .join("\n");
}

/** What a component's section adds to its description. */
const COMPONENT_NOTE =
  "A component: in TypeScript a class built in the program (its list must be known there); in the other languages the plugin builds it when the engine asks (`construct`), with the same posts under it.";

/** An example in the four languages, each under its name. */
function examples(schema: Schema, token: string, example: Example): string[] {
  return LANGUAGES.flatMap((language) => {
    const code = render(schema, language, token, example);
    return [`**${FENCES[language][1]}**`, "", "```" + FENCES[language][0], language === "go" ? gofmt(code) : code, "```", ""];
  });
}

/** The class's prose from its generated SDK file (`classDoc` in the resource's folder), its example left out. */
function classProse(module: string, name: string): string {
  const text = readFileSync(path.join(ROOT, "sdk", module, `${kebab(name)}.ts`), "utf8");
  const classDoc = /\/\*\*((?:(?!\*\/)[\s\S])*)\*\/\s*export class/.exec(text)?.[1] ?? "";
  const lines = classDoc.split("\n").map((l) => l.replace(/^\s*\* ?/, ""));
  // A `@deprecated` tag (an IDE strikes the class through) reads as a sentence of its own here.
  return lines
    .filter((l) => !l.startsWith("    "))
    .join(" ")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/ ?@deprecated /, " **Deprecated:** ");
}

/**
 * Every record type with its fields and one example, in a program and in a zone file: the examples are the samples
 * the tests make through the emulator (test/helpers/record-samples.ts), so each one is known to work.
 */
function recordTypes(): string[] {
  const out = [
    "## Record types",
    "",
    "What `DnsRecord`, `DnsRecordSet`, `parseZoneFile`, `toZoneFile` and `pulumi-ops import` handle. A, AAAA, CNAME, MX, TXT, NS, PTR and OPENPGPKEY take `content`; the others take `data`, field by field as the service's API takes them (the official client's `XxxRecordParam.Data`). Each field is checked at preview with its range; host names compare without case or trailing dot, hex without case or spaces, base64 without spaces. `priority` is a field of MX and URI records; SRV, HTTPS and SVCB carry theirs in `data`.",
    "",
  ];
  for (const s of SAMPLES) {
    const fields = isDataType(s.type) ? DATA_FIELDS[s.type] : undefined;
    const value = isDataType(s.type)
      ? `data: ${JSON.stringify(s.value.data)
          .replace(/"([a-z_]+)":/g, "$1: ")
          .replace(/,/g, ", ")}`
      : `content: ${JSON.stringify(s.value.content)}`;
    const zone = toZoneFile([{ type: s.type, name: s.name, ttl: 3600, ...s.value }], "example.com")
      .split("\n")[1]
      .replace(/\s+/g, " ");
    out.push(`### ${s.type}`, "");
    if (fields)
      out.push(
        "| field | what |",
        "|---|---|",
        ...Object.entries(fields).map(([k, f]) => `| \`${k}\` | ${f.about}${f.default !== undefined ? ` (default ${f.default})` : ""} |`),
        "",
      );
    else out.push(`\`content\`: ${CONTENT_ABOUT[s.type]}.`, "");
    out.push(
      "```ts",
      `{ type: "${s.type}", name: "${s.name}", ${value}${s.value.priority !== undefined ? `, priority: ${s.value.priority}` : ""}, ttl: 3600 }`,
      "```",
      "",
      `Zone file: \`${zone}\``,
      "",
    );
  }
  return out;
}
const CONTENT_ABOUT: Record<string, string> = {
  A: "an IPv4 address",
  AAAA: "an IPv6 address (compared in its canonical form)",
  CNAME: "a host name; a name with a CNAME holds no other record",
  MX: "the mail host's name, with `priority` (0 to 65535)",
  TXT: "the text (a zone file's strings joined; written back in strings of at most 255 bytes)",
  NS: "a name server's host name (the zone's apex NS records are the service's own)",
  PTR: "a host name",
  OPENPGPKEY: "the OpenPGP public key, base64 (RFC 7929; spaces are ignored)",
};

export function generateDocs(): Record<string, string> {
  const schema = generateSchema() as {
    resources: Record<string, Resource>;
    functions: Record<string, Fn>;
    types: Record<string, ObjectType>;
  };
  const pages: Record<string, string> = {};
  const index = [
    "# Reference",
    "",
    "Generated by `npm run gen-docs` from the zod schemas (the same ones as `check` and `schema.json`) and the SDK's doc comments.",
    "",
    "Each resource (but a retired one) and each function has an example in TypeScript, Python, Go and YAML, written from one set of data (scripts/reference-examples.ts) and run by the tests: the TypeScript ones compiled strict, the Go ones compiled against sdk/go, the Python ones run on sdk/python under Pulumi's mocks, the YAML ones through `pulumi preview`, `up` and `destroy` against the emulators. The Go examples are the body of `pulumi.Run(func(ctx *pulumi.Context) error { ... })`, importing `github.com/pulumi-ops/pulumi-ops/sdk/go/ops/<service>`. The YAML ones find the plugin installed (`pulumi plugin install resource ops <version> --file <tarball>`), or say where it comes from with `options: { version, pluginDownloadURL }` on each resource, as the README's \"From YAML\" shows.",
    "",
  ];
  for (const [module, title] of Object.entries(SERVICES)) {
    const out = [`# ${title}`, "", "Generated by `npm run gen-docs`; do not edit.", ""];
    const tokens = Object.keys(schema.resources)
      .filter((t) => t.startsWith(`ops:${module}:`))
      .sort();
    for (const token of tokens) {
      const r = schema.resources[token];
      const name = token.split(":")[2];
      const component = (r as { isComponent?: boolean }).isComponent;
      const about = component ? `${r.description} ${COMPONENT_NOTE}` : classProse(module, name);
      out.push(
        `## ${module}.${name}`,
        "",
        `\`ops.${module}.${name}\` (TypeScript, Python) · \`${token}\` (schema token, the provider plugin)`,
        "",
        about || r.description,
        "",
      );
      const example = RESOURCE_EXAMPLES[token];
      if (example) out.push(...examples(schema as unknown as Schema, token, example));
      else if (!NO_EXAMPLE.has(token)) throw new Error(`${token} has no example in scripts/reference-examples.ts`);
      out.push(
        "### Inputs",
        "",
        ...table(r.inputProperties, r.requiredInputs, "input"),
        "",
        ...typeTables(r.inputProperties, schema.types),
      );
      out.push("### Outputs", "", ...table(r.properties, [], "output", r.inputProperties), "", ...typeTables(r.properties, schema.types));
      if (component) continue; // made of resources, each with its own lifecycle: nothing of its own to take over
      out.push("### Existing objects", "");
      if (r.inputProperties.adopt) out.push(`- Adopt: \`adopt: true\` — ${r.inputProperties.adopt.description ?? ""}`);
      const importId = registry[token.slice(4)].importId;
      if (importId) {
        out.push(
          `- Read only: \`${name}.get(name, id)\`. ${getDoc(importId)}`,
          `- Import (the plugin): \`pulumi import ${token} <name> <id>\`, or the \`import\` resource option; the id is ${importId}.`,
          "",
        );
      } else
        out.push(
          "- Read only: none: what it made is not an object the service can look up by id; declare it.",
          "- Import: none, for the same reason.",
          "",
        );
    }
    if (module === "edge") out.push(...recordTypes());
    const invokes = Object.keys(schema.functions)
      .filter((t) => t.startsWith(`ops:${module}:`))
      .sort();
    if (invokes.length) {
      out.push(
        "## Functions",
        "",
        "The same on both doors. In TypeScript `getX(args)` returns a promise and `getXOutput(args)` an output; in Python `get_x(...)` and `get_x_output(...)`; through the plugin the token below. A list comes back under a named property. `account` chooses a named account.",
        "",
      );
      for (const token of invokes) {
        const f = schema.functions[token];
        const fn = token.split(":")[2];
        out.push(
          `### ${fn}`,
          "",
          `\`ops.${module}.${fn}\` / \`${fn}Output\` (TypeScript) · \`ops.${module}.${snake(fn)}\` / \`${snake(fn)}_output\` (Python) · \`${module}.${goFunction(schema as unknown as Schema, token)}Output\` (Go) · \`${token}\`: ${f.description}`,
          "",
        );
        const example = FUNCTION_EXAMPLES[token];
        if (!example) throw new Error(`${token} has no example in scripts/reference-examples.ts`);
        out.push(...examples(schema as unknown as Schema, token, example));
        if (f.inputs)
          out.push(...table(f.inputs.properties, f.inputs.required ?? [], "input"), "", ...typeTables(f.inputs.properties, schema.types));
        out.push(...table(f.outputs.properties, [], "output"), "", ...typeTables(f.outputs.properties, schema.types));
      }
    }
    pages[`${module}.md`] = `${out
      .join("\n")
      .replace(/\n{3,}/g, "\n\n")
      .trimEnd()}\n`;
    // A retired resource is documented on its page (for stacks that still hold one), not offered in the index.
    const offered = tokens.filter((t) => !(schema.resources[t] as { deprecationMessage?: string }).deprecationMessage);
    const retired = tokens.filter((t) => !offered.includes(t)).map((t) => `\`${t.split(":")[2]}\` (retired)`);
    index.push(
      `- [${title}](${module}.md): ${[...offered.map((t) => `\`${t.split(":")[2]}\``), ...retired].join(", ")}${invokes.length ? `; ${invokes.length} functions` : ""}`,
    );
  }
  index.push("", "- [Configuration](configuration.md): every setting, both doors", "", ...DOORS);
  pages["README.md"] = `${index.join("\n")}\n`;
  pages["configuration.md"] = configurationPage();
  return pages;
}

/** What differs between the TypeScript classes (the dynamic door) and the provider plugin (other languages). */
const DOORS = [
  "## The two doors",
  "",
  "The same handlers serve both; what differs is what the engine allows each.",
  "",
  "| | TypeScript classes (dynamic provider) | provider plugin (Python, YAML, Go, ...) |",
  "|---|---|---|",
  "| resource types | `pulumi-nodejs:dynamic/<service>:<Type>` | `ops:<service>:<Type>` |",
  "| configuration | stack config `ops:*`, then the environment | the same keys (the default provider), or an explicit `ops.Provider` with the same names as arguments |",
  "| more accounts | `account` on a resource or function (`ops:accounts`) | the same, or explicit providers |",
  "| `pulumi import`, the `import` option | not possible for dynamic resources: the option fails at preview naming `adopt`, `get` and `pulumi-ops import` | works, with the ids below |",
  "| reading without managing | `Type.get(name, id, { account? })` | the SDK's `Type.get(name, id)` |",
  "| progress and warnings | stack-level lines `[pulumi-ops] ...` (the engine gives a dynamic provider no resource to name) | under the resource: progress as its status, warnings in its diagnostics |",
  "| functions | `getX` / `getXOutput`, run in the program | invokes `ops:<service>:<function>` (`get_x` / `get_x_output` in Python) |",
  "| names | camelCase | the SDK's spelling (Python: snake_case, given beside each name here) |",
];

/** Every setting: key, Python argument of an explicit provider, environment variable, default, secret. */
export function configurationTable(): string[] {
  return [
    "| stack config | explicit provider's argument (schema / Python) | environment (read in this order, after the stack config) | default | secret | meaning |",
    "|---|---|---|---|---|---|",
    ...ALL_SETTINGS.map(
      (s) =>
        `| \`${s.key}\` | \`${s.name}\` / \`${snake(s.name)}\` | ${[s.env, ...(s.alsoEnv ?? [])].map((e) => `\`${e}\``).join(", then ")} | ${s.default !== undefined ? `\`${s.default}\`` : "—"} | ${s.secret ? "yes" : "no"} | ${cell(s.description)} |`,
    ),
    `| \`${ACCOUNTS_KEY}\` | \`accounts\` / \`accounts\` | — | — | yes | Named accounts: an object of accounts, each an object of the settings above by name (\`edgeApiToken\`, ...), chosen by a resource's \`account\`. Set with \`pulumi config set --secret --path '${ACCOUNTS_KEY}.<account>.<name>' <value>\`. |`,
  ];
}

function configurationPage(): string {
  const intro =
    "Generated by `npm run gen-docs` from provider/settings.ts; do not edit. The same keys on both doors: stack config `ops:<name>` (TypeScript classes and the plugin's default provider), the argument `<name>` of an explicit provider, then the environment variable.";
  return `${["# Configuration", "", intro, "", ...configurationTable()].join("\n")}\n`;
}

const TABLE_START = "<!-- configuration table: generated by `npm run gen-docs` from provider/settings.ts -->";
const TABLE_END = "<!-- end of configuration table -->";

/** The README with its configuration table as the settings make it today. */
export function readmeWithTable(readme: string): string {
  const a = readme.indexOf(TABLE_START);
  const b = readme.indexOf(TABLE_END);
  if (a < 0 || b < a) throw new Error("README.md lost its configuration table markers");
  return `${readme.slice(0, a + TABLE_START.length)}\n${configurationTable().join("\n")}\n${readme.slice(b)}`;
}

if (require.main === module) {
  const dir = path.join(ROOT, "docs/reference");
  mkdirSync(dir, { recursive: true });
  for (const [file, text] of Object.entries(generateDocs())) writeFileSync(path.join(dir, file), text);
  const readme = path.join(ROOT, "README.md");
  writeFileSync(readme, readmeWithTable(readFileSync(readme, "utf8")));
  console.log(`wrote ${dir}`);
}

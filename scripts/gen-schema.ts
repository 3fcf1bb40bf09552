/**
 * schema.json, the Pulumi package schema, generated from the registry's zod schemas (the same ones `check` runs).
 * `npm run gen-schema` rewrites it; test/unit/schema.test.ts fails when the committed file is stale.
 */
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { z } from "zod";
import { ACCOUNTS_KEY, ALL_SETTINGS, type Setting } from "../provider/config";
import { functions } from "../provider/function-registry";
import { registry } from "../provider/registry";
import { components } from "../provider/component-registry";
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

/** Named object types (`#/types/...`), collected while properties are converted. */
type Types = Record<string, Record<string, unknown>>;

/** Where a property sits, to name the object type it may need: `ops:<module>:<Owner><Prop>`. */
interface Place {
  module: string;
  owner: string;
  prop: string;
  types: Types;
}

const pascal = (s: string) => s.charAt(0).toUpperCase() + s.slice(1).replace(/_(\w)/g, (_, c: string) => c.toUpperCase());

/**
 * The allowed values of a property converted from a zod enum or literal. Pulumi's schema gets them as a sentence in
 * the description; the SDK's typings (scripts/gen-sdk.ts) make a union of them.
 */
export const ENUMS = new WeakMap<object, unknown[]>();

/** A list's or a map's item type named for one of it: `colos` a Colo, `classes` a Class. */
const singular = (prop: string) => prop.replace(/(ss)es$|s$/, "$1");
/** One JSON Schema property in Pulumi's property format; an object with known properties becomes a named type. */
function property(s: JsonSchema, at: Place): Record<string, unknown> {
  const variants = s.anyOf?.filter((v) => v.type !== "null");
  // One variant left, or variants of one primitive type (`"now"` or a time): that type.
  const one =
    variants?.length &&
    variants.every((v) => typeof v.type === "string" && v.type === variants[0].type && v.type !== "object" && v.type !== "array");
  const base = variants?.length === 1 || one ? { ...variants![0], ...s, anyOf: undefined, enum: undefined } : s;
  const out: Record<string, unknown> = {};
  const t = Array.isArray(base.type) ? base.type.find((x) => x !== "null") : base.type;
  if (t === "array") {
    out.type = "array";
    // The items of `colos` are a `...Colo`, of `renamedClasses` a `...RenamedClass`.
    out.items = property(base.items ?? {}, { ...at, prop: singular(at.prop) });
  } else if (t === "object" && base.properties && Object.keys(base.properties).length) {
    const token = `ops:${at.module}:${at.owner}${pascal(at.prop)}`;
    const owner = `${at.owner}${pascal(at.prop)}`;
    // Inputs come first and describe the type best (descriptions, enums, integers): the outputs reuse it.
    at.types[token] ??= { type: "object", ...objectOf(base, { ...at, owner }) };
    out.$ref = `#/types/${token}`;
  } else if (t === "object") {
    out.type = "object";
    // The values of `records` are a `...Record`.
    out.additionalProperties = property(typeof base.additionalProperties === "object" ? base.additionalProperties : {}, {
      ...at,
      prop: singular(at.prop),
    });
  } else if (Array.isArray(base.type) && base.type.filter((x) => x !== "null").length > 1) {
    // A field of two primitive types (a record's `flags`: a number for CAA and DNSKEY, text for NAPTR).
    out.oneOf = base.type.filter((x) => x !== "null").map((x) => ({ type: x }));
  } else if (t === "integer" || t === "number" || t === "boolean" || t === "string") {
    out.type = t;
  } else if (base.enum?.every((v) => typeof v === "string")) {
    out.type = "string";
  } else {
    out.$ref = "pulumi.json#/Any";
  }
  let description = base.description ?? "";
  if (base.enum) description = `${description}${description ? " " : ""}One of: ${base.enum.map((v) => `\`${v}\``).join(", ")}.`;
  const literal = (base as { const?: unknown }).const;
  if (base.enum?.length || literal !== undefined) ENUMS.set(out, base.enum ?? [literal]);
  if (description) out.description = description;
  // Pulumi's metaschema takes constant defaults only (a boolean, number or string); a list's default stays in check.
  if (["boolean", "number", "string"].includes(typeof base.default) && !out.$ref) out.default = base.default;
  if (base.replaceOnChanges) out.replaceOnChanges = true;
  if (base.secret) out.secret = true;
  return out;
}

/** An object's properties (each converted) and its required ones. */
function objectOf(json: JsonSchema, at: Omit<Place, "prop">): { properties: Record<string, unknown>; required: string[] } {
  const properties = Object.fromEntries(Object.entries(json.properties ?? {}).map(([k, v]) => [k, property(v, { ...at, prop: k })]));
  return { properties, required: [...(json.required ?? [])].sort() };
}

function properties(schema: z.ZodType, io: "input" | "output", at: Omit<Place, "prop">) {
  return objectOf(z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema, at);
}

/** Every resource's `account` input and output (door.ts). */
const ACCOUNT_PROPERTY = {
  type: "string",
  description: `The named account (\`${ACCOUNTS_KEY}\`) whose settings serve this resource; unset, the stack's own settings. Changing it replaces the resource.`,
  replaceOnChanges: true,
};
const COMPONENT_ACCOUNT = `The named account (\`${ACCOUNTS_KEY}\`) whose settings serve its resources (each takes it); unset, the stack's own settings.`;
const ACCOUNT_ARGUMENT = {
  type: "string",
  description: `The named account (\`${ACCOUNTS_KEY}\`) to read with; unset, the stack's own settings.`,
};

/** A setting as a config variable and provider input: typed, secret where it is, the environment as default. */
function settingProperty(s: Setting): Record<string, unknown> {
  const type = s.bool ? "boolean" : s.range ? "integer" : "string";
  return {
    type,
    description: `${s.description} Stack config \`${s.key}\`; environment ${[s.env, ...(s.alsoEnv ?? [])].map((e) => `\`${e}\``).join(", then ")}.`,
    ...(s.default !== undefined ? { default: type === "string" ? s.default : JSON.parse(s.default) } : {}),
    defaultInfo: { environment: [s.env, ...(s.alsoEnv ?? [])] },
    ...(s.secret ? { secret: true } : {}),
  };
}

function providerProperties(): Record<string, unknown> {
  return {
    ...Object.fromEntries(ALL_SETTINGS.map((s) => [s.name, settingProperty(s)])),
    accounts: {
      type: "object",
      additionalProperties: { type: "object", additionalProperties: { type: "string" } },
      description:
        "Named accounts: each an object of the settings above by name (`edgeApiToken`, `edgeBaseUrl`, ...), chosen by a resource's `account` input. An account's credentials are its own; its other settings default to the stack's.",
      secret: true,
    },
  };
}

export function generateSchema(): Record<string, unknown> {
  const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
    version: string;
    description: string;
    repository: { url: string };
  };
  const types: Types = {};
  const resources: Record<string, unknown> = {};
  for (const token of Object.keys(registry).sort()) {
    const entry = registry[token];
    const [module, name] = token.split(":");
    const inputs = properties(entry.inputs, "input", { module, owner: name, types });
    const outputs = properties(entry.outputs, "output", { module, owner: name, types });
    resources[`ops:${token}`] = {
      description: entry.description,
      ...(entry.retired ? { deprecationMessage: entry.retired } : {}),
      inputProperties: { ...inputs.properties, account: ACCOUNT_PROPERTY },
      requiredInputs: inputs.required,
      properties: { ...outputs.properties, account: ACCOUNT_PROPERTY },
      required: outputs.required,
    };
  }
  // Components: the plugin constructs them for the languages whose SDKs are generated (TypeScript's is hand-written).
  for (const token of Object.keys(components).sort()) {
    const entry = components[token];
    const [module, name] = token.split(":");
    const inputs = properties(entry.inputs, "input", { module, owner: name, types });
    const outputs = properties(entry.outputs, "output", { module, owner: name, types });
    resources[`ops:${token}`] = {
      isComponent: true,
      description: entry.description,
      // Its resources' account: each of them takes it. A component is never replaced: its resources are.
      inputProperties: Object.fromEntries(
        Object.entries({ ...inputs.properties, account: { ...ACCOUNT_PROPERTY, description: COMPONENT_ACCOUNT } }).map(([k, p]) => [
          k,
          { ...(p as object), replaceOnChanges: undefined },
        ]),
      ),
      requiredInputs: inputs.required,
      properties: outputs.properties,
      required: outputs.required,
    };
  }
  const fns: Record<string, unknown> = {};
  for (const token of Object.keys(functions).sort()) {
    const entry = functions[token];
    const [module, name] = token.split(":");
    const inputs = properties(entry.args, "input", { module, owner: pascal(name), types });
    fns[`ops:${token}`] = {
      description: entry.description,
      inputs: { ...inputs, properties: { ...inputs.properties, account: ACCOUNT_ARGUMENT } },
      outputs: properties(entry.result, "output", { module, owner: `${pascal(name)}Result`, types }),
    };
  }
  return {
    name: "ops",
    displayName: "pulumi-ops",
    version: pkg.version,
    description: pkg.description,
    license: "Apache-2.0",
    repository: pkg.repository.url,
    homepage: pkg.repository.url,
    // The registry's search words, as Pulumi's own providers list them (`category/...` is the registry's category).
    keywords: ["pulumi", "ops", "dns", "edge", "threads", "skills", "ollama", "mcp", "category/infrastructure"],
    // Where the engine fetches the plugin for an SDK that names it (the Python package's pulumi-plugin.json): the
    // release assets scripts/build-plugin.ts makes, `pulumi-resource-ops-v<version>-<os>-<arch>.tar.gz`.
    pluginDownloadURL: `${pkg.repository.url}/releases/download/v\${VERSION}`,
    // Go: the SDK in sdk/go (its own module), generated by tools/pulumi-cli/sdkgen --language go.
    language: {
      nodejs: { packageName: "pulumi-ops" },
      // pyproject.toml (PEP 621) rather than setup.py: what `python -m build` reads, with the metadata PyPI shows.
      python: { respectSchemaVersion: true, pyproject: { enabled: true } },
      go: { importBasePath: `${pkg.repository.url.replace(/^https:\/\//, "")}/sdk/go/ops` },
      // Java: the SDK in sdk/java (io.github.pulumiops.ops.edge, ...), generated by Pulumi's Java host; not com.pulumi,
      // which is Pulumi's own namespace on Maven Central.
      java: { basePackage: "io.github.pulumiops" },
    },
    config: { variables: providerProperties() },
    provider: {
      description:
        'The pulumi-ops provider: its inputs are the stack config keys `ops:<name>`. An explicit provider (`new ops.Provider("eu", {...})`) serves the resources given it as `provider`: another account or endpoint.',
      inputProperties: providerProperties(),
    },
    types: Object.fromEntries(Object.entries(types).sort(([a], [b]) => a.localeCompare(b))),
    resources,
    functions: fns,
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

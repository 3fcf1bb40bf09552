#!/usr/bin/env node
/**
 * The provider-plugin door: the same handlers as the dynamic door (door.ts), served as the Pulumi resource plugin
 * `pulumi-resource-ops` under the schema's tokens (`ops:edge:DnsRecord`, ...), so programs in any language that
 * has an SDK generated from schema.json (or none, like YAML) can use them.
 *
 * Differences from the dynamic door, each handled here:
 * - Secrets arrive wrapped (`{ <sig>: <secret sig>, value }`): unwrapped before a handler sees them; outputs are
 *   wrapped again where the input was secret, where the schema marks the property secret, and where the type
 *   derives them from secret inputs (a RemoteCommand's commands and output when any input is secret).
 * - Credentials: this SDK version's plugin host ignores provider configuration, so they come from the environment
 *   (EDGE_API_TOKEN, ...; config.ts) — or a resource's secret inputs where the schema has them.
 * - No `__provider` bag: the type comes from the URN.
 * - Invokes: the read-only functions of function-registry.ts, under `ops:<module>:<function>`.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import type * as pulumi from "@pulumi/pulumi";
import { main } from "@pulumi/pulumi/provider";
import { call, checkForEngine, configure, invoke } from "./door";
import { registry } from "./registry";
import { isSecretValue, markSecretOutputs, secretValue, unwrapSecrets } from "./secrets";
import { watchEngine } from "./engine-watch";
import { nodeProblem } from "./node-version";

type Bag = Record<string, any>;

export const unwrap = unwrapSecrets;
export const wrap = secretValue;
const isSecret = isSecretValue;

/** The top-level property names that arrived secret (anywhere inside). */
function secretKeys(bag: Bag): Set<string> {
  const inside = (v: unknown): boolean => isSecret(v) || (Array.isArray(v) ? v.some(inside) : !!v && typeof v === "object" && Object.values(v).some(inside));
  return new Set(Object.keys(bag ?? {}).filter((k) => inside(bag[k])));
}

const SCHEMA = path.resolve(__dirname, "../../schema.json");
let schemaText: string | undefined;
const schema = () => (schemaText ??= readFileSync(SCHEMA, "utf8"));

let secretProps: Map<string, string[]> | undefined;
/** Properties the schema marks secret, per resource token (read once). */
function schemaSecrets(token: string): string[] {
  if (!secretProps) {
    const resources = (JSON.parse(schema()) as { resources: Record<string, { properties?: Record<string, { secret?: boolean }> }> }).resources;
    secretProps = new Map(Object.entries(resources).map(([t, r]) => [t, Object.entries(r.properties ?? {}).filter(([, p]) => p.secret).map(([k]) => k)]));
  }
  return secretProps.get(`ops:${token}`) ?? [];
}

/** `edge:DnsRecord` from `urn:pulumi:<stack>::<project>::ops:edge:DnsRecord::<name>` (parent types come first). */
export function typeOf(urn: string): string {
  const qualified = urn.split("::")[2] ?? "";
  const token = qualified.split("$").pop() ?? "";
  const t = token.replace(/^ops:/, "");
  if (!registry[t]) throw new Error(`pulumi-ops has no resource type ${token}: upgrade the pulumi-ops plugin`);
  return t;
}

/**
 * Outputs with the secret ones wrapped again: those named like a secret input, those the schema marks secret, and
 * those the type derives from secret inputs (registry `secretOutputs`, e.g. a command's stdout).
 */
function rewrap(token: string, outs: Bag, secretIn: Set<string>, inputs: Bag): Bag {
  return markSecretOutputs(token, outs ?? {}, inputs, secretIn.size > 0, [...secretIn, ...schemaSecrets(token)])!;
}

let configured = false;
function ready(): void {
  if (configured) return;
  configure({ get: () => undefined }); // no stack config reaches a plugin here: the environment is the source
  configured = true;
}

export const provider: pulumi.provider.Provider = {
  version: (JSON.parse(readFileSync(path.resolve(__dirname, "../../package.json"), "utf8")) as { version: string }).version,
  getSchema: async () => schema(),

  async check(urn, olds, news) {
    ready();
    const t = typeOf(urn);
    const r = await checkForEngine(t, unwrap(olds) as Bag, unwrap(news) as Bag, secretKeys(news));
    return { inputs: rewrap(t, r.inputs, secretKeys(news), unwrap(news) as Bag), failures: r.failures };
  },
  async diff(id, urn, olds, news) {
    ready();
    return call(typeOf(urn), "diff", [id, unwrap(olds), unwrap(news)]);
  },
  async create(urn, inputs) {
    ready();
    const t = typeOf(urn);
    const plain = unwrap(inputs) as Bag;
    const r = await call(t, "create", [plain]);
    return { id: r.id, outs: rewrap(t, r.outs, secretKeys(inputs), plain) };
  },
  async read(id, urn, props) {
    ready();
    const t = typeOf(urn);
    const plain = unwrap(props ?? {}) as Bag;
    const r = await call(t, "read", [id, plain]);
    if (!r.id) return {};
    const secret = secretKeys(props ?? {});
    return { id: r.id, props: rewrap(t, r.props, secret, plain), ...(r.inputs ? { inputs: rewrap(t, r.inputs, secret, plain) } : {}) };
  },
  async update(id, urn, olds, news) {
    ready();
    const t = typeOf(urn);
    const plain = unwrap(news) as Bag;
    const r = await call(t, "update", [id, unwrap(olds), plain]);
    return { outs: rewrap(t, r.outs, new Set([...secretKeys(news), ...secretKeys(olds)]), plain) };
  },
  async delete(id, urn, props) {
    ready();
    await call(typeOf(urn), "delete", [id, unwrap(props)]);
  },
  async invoke(token, inputs) {
    ready();
    return invoke(token.replace(/^ops:/, ""), unwrap(inputs ?? {}));
  },
};

if (require.main === module) {
  const unsupported = nodeProblem();
  if (unsupported) {
    console.error(unsupported); // the engine shows a plugin's stderr: one line, then the plugin is gone
    process.exit(1);
  }
  watchEngine();
  main(provider, process.argv.slice(2)).catch((e: Error) => {
    console.error(e.message);
    process.exit(1);
  });
}

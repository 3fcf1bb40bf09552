#!/usr/bin/env node
/**
 * The plugin door: the same handlers through the same dispatcher (door.ts) as the dynamic door, served as the Pulumi resource plugin
 * `pulumi-resource-ops` under the schema's tokens (`ops:edge:DnsRecord`, ...), so programs in any language that
 * has an SDK generated from schema.json (or none, like YAML) can use them.
 *
 * Differences from the dynamic door, each handled here:
 * - Secrets arrive wrapped (`{ <sig>: <secret sig>, value }`): unwrapped before a handler sees them; outputs are
 *   wrapped again where the input was secret, where the schema marks the property secret, and where the type
 *   derives them from secret inputs (a RemoteCommand's commands and output when any input is secret).
 * - Configuration: the provider's inputs — stack config `ops:*` for the default provider, or the arguments of an
 *   explicit `ops.Provider` — arrive by Configure (plugin-server.ts), the same keys the dynamic door reads; the
 *   environment (EDGE_API_TOKEN, ...) is the fallback. Each explicit provider is a process of its own.
 * - No `__provider` bag: the type comes from the URN.
 * - Invokes: the read-only functions of function-registry.ts, under `ops:<module>:<function>`.
 * - Components (component-registry.ts, `isComponent` in schema.json): built here when the engine asks (`construct`),
 *   their resources registered by token; the TypeScript SDK builds the same in the program.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import type * as pulumi from "@pulumi/pulumi";
import { main } from "@pulumi/pulumi/provider";
import { call, checkForEngine, configure, invoke, readForEngine, warnRetired } from "./door";
import { ACCOUNTS_KEY, ALL_SETTINGS, configProblems, RETIRED_SETTINGS, type ConfigSource } from "./config";
import { amendProviderServer, engineLog } from "./plugin-server";
import { forResource, useLogSink, withCallSecrets } from "./log";
import { knownProperties, unknownNames } from "./check";
import { registry } from "./registry";
import { components } from "./component-registry";
import { isSecretValue, markSecretOutputs, secretStrings, secretValue, unwrapSecrets } from "./secrets";
import { engineAddress, watchEngine } from "./engine-watch";
import { nodeProblem } from "./node-version";
import { keepCreateJournal } from "./create-journal";

type Bag = Record<string, any>;

export const unwrap = unwrapSecrets;
export const wrap = secretValue;
const isSecret = isSecretValue;

/** The top-level property names that arrived secret (anywhere inside). */
function secretKeys(bag: Bag): Set<string> {
  const inside = (v: unknown): boolean =>
    isSecret(v) || (Array.isArray(v) ? v.some(inside) : !!v && typeof v === "object" && Object.values(v).some(inside));
  return new Set(Object.keys(bag ?? {}).filter((k) => inside(bag[k])));
}

let schemaText: string | undefined;
/** schema.json: beside the package, or — in the standalone plugin (a single executable) — its embedded asset. */
function schema(): string {
  if (schemaText === undefined) {
    const sea = (() => {
      try {
        return require("node:sea") as { isSea(): boolean; getAsset(key: string, encoding: string): string };
      } catch {
        return undefined; // a Node without single executable applications
      }
    })();
    schemaText = sea?.isSea() ? sea.getAsset("schema.json", "utf8") : readFileSync(path.resolve(__dirname, "../../schema.json"), "utf8");
  }
  return schemaText;
}

let secretProps: Map<string, string[]> | undefined;
/** Properties the schema marks secret, per resource token (read once). */
function schemaSecrets(token: string): string[] {
  if (!secretProps) {
    const resources = (JSON.parse(schema()) as { resources: Record<string, { properties?: Record<string, { secret?: boolean }> }> })
      .resources;
    secretProps = new Map(
      Object.entries(resources).map(([t, r]) => [
        t,
        Object.entries(r.properties ?? {})
          .filter(([, p]) => p.secret)
          .map(([k]) => k),
      ]),
    );
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

/** The provider's inputs as config: `ops:<name>` from an input or the engine's `ops:config:<name>` variable. */
function providerConfig(inputs: Bag, variables: Record<string, string>): ConfigSource {
  const plain = unwrap(inputs) as Bag;
  const value = (name: string): string | undefined => {
    const v = plain[name] ?? variables[`ops:config:${name}`];
    return v === undefined || v === null ? undefined : typeof v === "object" ? JSON.stringify(v) : String(v);
  };
  return { get: (key) => (key.startsWith("ops:") ? value(key.slice(4)) : undefined) };
}

/** Inputs of the provider itself that are not its settings: the engine's own bookkeeping keys. */
const ENGINE_KEYS = ["version", "pluginDownloadURL"];

/** `CheckConfig`: unknown keys ("did you mean") and bad values of the provider's inputs, before anything is sent. */
export function providerConfigFailures(news: Bag): { property: string; reason: string }[] {
  const names = [...ALL_SETTINGS.map((s) => s.name), ACCOUNTS_KEY.slice(4)];
  const given = Object.keys(news).filter((k) => !ENGINE_KEYS.includes(k));
  // A setting an earlier release had: one warning, never a failure (config.ts RETIRED_SETTINGS).
  const retired = given.filter((k) => `ops:${k}` in RETIRED_SETTINGS);
  warnRetired(retired.map((k) => `ops:${k}`));
  const unknown = unknownNames(
    names,
    given.filter((k) => !retired.includes(k)),
  );
  if (unknown.length) return unknown;
  const problems = configProblems(providerConfig(news, {}));
  return problems.map((p) => ({ property: ALL_SETTINGS.find((s) => p.startsWith(`${s.key} `))?.name ?? "accounts", reason: p }));
}

/** The outputs that are also inputs of the type (import: what the program would have given). */
function inputsFrom(token: string, outs: Bag): Bag {
  const names = new Set(knownProperties(registry[token].inputs) ?? []);
  return Object.fromEntries(Object.entries(outs ?? {}).filter(([k]) => names.has(k) || k === "account"));
}

let configured = false;
function ready(): void {
  if (configured) return;
  configure({ get: () => undefined }); // not configured by the engine (a direct call): the environment only
  configured = true;
}

/**
 * A method of the provider on behalf of the resource `urn`: its progress and warnings are shown under it, and the
 * strings of its secret inputs (as the engine sends them, wrapped) are masked in all it says (log.ts).
 */
function forUrn<A extends unknown[], R>(f: (urn: string, ...args: A) => Promise<R>, urnAt: number): (...args: any[]) => Promise<R> {
  return (...args: any[]) => {
    ready();
    const secret = secretStrings(args.filter((_, i) => i !== urnAt));
    const run = () => (f as (...a: unknown[]) => Promise<R>)(...[args[urnAt], ...args.filter((_, i) => i !== urnAt)]);
    return forResource(args[urnAt] as string, () => withCallSecrets(secret.values, run, secret.any));
  };
}

export const provider: pulumi.provider.Provider = {
  version: (JSON.parse(schema()) as { version: string }).version, // the package's version (gen-schema writes it)
  getSchema: async () => schema(),

  check: forUrn(async (urn: string, olds: Bag, news: Bag) => {
    const t = typeOf(urn);
    const r = await checkForEngine(t, unwrap(olds) as Bag, unwrap(news) as Bag, secretKeys(news));
    return { inputs: rewrap(t, r.inputs, secretKeys(news), unwrap(news) as Bag), failures: r.failures };
  }, 0),
  diff: forUrn(async (urn: string, id: string, olds: Bag, news: Bag) => call(typeOf(urn), "diff", [id, unwrap(olds), unwrap(news)]), 1),
  create: forUrn(async (urn: string, inputs: Bag) => {
    const t = typeOf(urn);
    const plain = unwrap(inputs) as Bag;
    const r = await call(t, "create", [plain]);
    return { id: r.id, outs: rewrap(t, r.outs, secretKeys(inputs), plain) };
  }, 0),
  read: forUrn(async (urn: string, id: string, props: Bag | undefined) => {
    const t = typeOf(urn);
    const plain = unwrap(props ?? {}) as Bag;
    const r = await readForEngine(t, id, plain);
    if (!r.id) return {};
    const secret = secretKeys(props ?? {});
    // An import (`pulumi import`, the `import` option) reads with no state: its inputs are the outputs the
    // resource takes as inputs, which the engine then checks against the program's.
    const importing = !Object.keys(plain).some((k) => k !== "account");
    const inputs = r.inputs ?? (importing ? inputsFrom(t, r.props) : undefined);
    return { id: r.id, props: rewrap(t, r.props, secret, plain), ...(inputs ? { inputs: rewrap(t, inputs, secret, plain) } : {}) };
  }, 1),
  update: forUrn(async (urn: string, id: string, olds: Bag, news: Bag) => {
    const t = typeOf(urn);
    const plain = unwrap(news) as Bag;
    const r = await call(t, "update", [id, unwrap(olds), plain]);
    return { outs: rewrap(t, r.outs, new Set([...secretKeys(news), ...secretKeys(olds)]), plain) };
  }, 1),
  delete: forUrn(async (urn: string, id: string, props: Bag) => {
    await call(typeOf(urn), "delete", [id, unwrap(props)]);
  }, 1),
  // A component (schema.json's `isComponent`): built here, its resources registered with the engine by token.
  async construct(name, type, inputs, opts) {
    ready();
    const component = components[type.replace(/^ops:/, "")];
    if (!component) throw new Error(`unknown component type ${type}`);
    return component.construct(name, inputs, opts);
  },
  async invoke(token, inputs) {
    ready();
    return invoke(token.replace(/^ops:/, ""), unwrap(inputs ?? {}));
  },
};

/** Serves the plugin: run as `pulumi-resource-ops` (the package's bin, or the standalone executable's entry). */
export function serve(): void {
  const unsupported = nodeProblem();
  if (unsupported) {
    console.error(unsupported); // the engine shows a plugin's stderr: one line, then the plugin is gone
    process.exit(1);
  }
  if (watchEngine()) keepCreateJournal();
  const engine = engineAddress(process.argv.slice(2));
  if (engine) useLogSink(engineLog(`${engine.host}:${engine.port}`));
  amendProviderServer({
    configure(inputs, variables) {
      configure(providerConfig(inputs, variables));
      configured = true;
    },
    checkConfig: providerConfigFailures,
  });
  main(provider, process.argv.slice(2)).catch((e: Error) => {
    console.error(e.message);
    process.exit(1);
  });
}

if (require.main === module) serve();

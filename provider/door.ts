/**
 * What the serialized dynamic providers call (see dynamic.ts): configuration, then one handler method by type
 * token. Errors leave here with every credential masked, and a partial create keeps its id and `__provider`.
 */
import { configProblems, useStackConfig, type ConfigSource } from "./config";
import { ConfigError } from "./http/errors";
import { PROVIDER_KEY } from "./check";
import { PartialCreateError, type Bag } from "./handler";
import { redact } from "./log";
import { registry } from "./registry";

type Method = "check" | "diff" | "create" | "read" | "update" | "delete";

/** Takes the stack config; a value that is set but wrong fails here, so `pulumi preview` already shows it. */
export function configure(config: ConfigSource): void {
  useStackConfig(config);
  const problems = configProblems();
  if (problems.length) throw new ConfigError(`pulumi-ops configuration: ${problems.join("; ")}`);
}

export async function call(type: string, method: Method, args: unknown[]): Promise<any> {
  const entry = registry[type];
  if (!entry) {
    throw new Error(`pulumi-ops has no resource type ${type}: upgrade the pulumi-ops package this program uses`);
  }
  try {
    return withoutUndefined(await (entry.handler[method] as (...a: unknown[]) => Promise<unknown>)(...args));
  } catch (e) {
    const err = e instanceof Error ? e : new Error(String(e));
    const clean = new Error(redact(err.message));
    clean.name = err.name;
    if (err instanceof PartialCreateError) {
      const inputs = args[0] as Bag;
      Object.assign(clean, { id: err.id, properties: { ...err.properties, [PROVIDER_KEY]: inputs[PROVIDER_KEY] } });
    }
    throw clean;
  }
}

/** The engine's protobuf Struct has no `undefined`: an absent optional output is left out, at any depth. */
export function withoutUndefined<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutUndefined) as T;
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined).map(([k, v]) => [k, withoutUndefined(v)])) as T;
  }
  return value;
}

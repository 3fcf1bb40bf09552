/**
 * Secret values in the engine's wire format, for both doors. The engine strips secrets before it calls a dynamic
 * provider and re-marks only outputs named like a secret input, so an output derived from a secret input (a
 * command's stdout) is returned wrapped: the engine keeps the wrapper as a secret (it reads provider outputs with
 * secrets kept), on the dynamic door as on the plugin door.
 */
import type { Bag } from "./handler";
import { registry } from "./registry";

/** The marker of a wrapped secret (sdk/go/common/resource/sig). */
const SIG = "4dabf18193072939515e22adb298388d";
const SECRET = "1b47061264138c4ac30d75fd1eb44270";

export const isSecretValue = (v: unknown): v is { value: unknown } => !!v && typeof v === "object" && (v as Bag)[SIG] === SECRET;

export const secretValue = (value: unknown) => (isSecretValue(value) ? value : { [SIG]: SECRET, value });

/** The value with every secret wrapper removed, at any depth. */
export function unwrapSecrets(v: unknown): unknown {
  if (isSecretValue(v)) return unwrapSecrets(v.value);
  if (Array.isArray(v)) return v.map(unwrapSecrets);
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, unwrapSecrets(x)]));
  return v;
}

/**
 * `outs` with the outputs the resource type derives from secret inputs wrapped as secrets (registry
 * `secretOutputs`), plus `alsoSecret`. `anyInputSecret`: known on the plugin door; the dynamic door's SDK classes
 * fold it into an input instead (RemoteCommand's `secret`).
 */
export function markSecretOutputs(
  type: string,
  outs: Bag | undefined,
  inputs: Bag,
  anyInputSecret = false,
  alsoSecret: Iterable<string> = [],
): Bag | undefined {
  if (!outs) return outs;
  const hide = new Set([...alsoSecret, ...(registry[type]?.secretOutputs?.(inputs, anyInputSecret) ?? [])]);
  if (!hide.size) return outs;
  return Object.fromEntries(Object.entries(outs).map(([k, v]) => [k, hide.has(k) && v !== undefined ? secretValue(v) : v]));
}

/** Every string in `v`, at any depth (a secret input's values, for masking). */
export function stringsIn(v: unknown): string[] {
  if (typeof v === "string") return [v];
  if (isSecretValue(v)) return stringsIn(v.value);
  if (Array.isArray(v)) return v.flatMap(stringsIn);
  if (v && typeof v === "object") return Object.values(v).flatMap(stringsIn);
  return [];
}

/** The strings inside secret wrappers in `v` (the plugin door's secret inputs), and whether it holds any secret. */
export function secretStrings(v: unknown): { values: string[]; any: boolean } {
  if (isSecretValue(v)) return { values: stringsIn(v.value), any: true };
  const parts = Array.isArray(v) ? v.map(secretStrings) : v && typeof v === "object" ? Object.values(v).map(secretStrings) : [];
  return { values: parts.flatMap((p) => p.values), any: parts.some((p) => p.any) };
}

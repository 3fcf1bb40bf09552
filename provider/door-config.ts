/**
 * The stack configuration as the doors take it (door.ts `configure`): a value that is set but wrong, a mistyped
 * `ops:*` key or a retired setting is said at configure, so `pulumi preview` already shows it.
 */
import {
  ALL_SETTINGS,
  ACCOUNTS_KEY,
  configProblems,
  credentialOverrides,
  RETIRED_SETTINGS,
  retiredSettingLine,
  useStackConfig,
  type ConfigSource,
} from "./config";
import { unknownNames } from "./check";
import { ConfigError } from "./http/errors";
import { warn } from "./log";
import { nodeProblem } from "./node-version";

/** On an older Node every call fails at once with one message, not each request as "service not reachable". */
export const unsupportedNode = nodeProblem();

/** Takes the stack config; a value that is set but wrong fails here, so `pulumi preview` already shows it. */
export function configure(config: ConfigSource): void {
  if (unsupportedNode) throw new ConfigError(unsupportedNode);
  useStackConfig(config);
  const problems = [...unknownKeys(config), ...configProblems()];
  for (const [key, line] of credentialOverrides()) warn(line, "credential-override", key);
  failure = problems.length ? `pulumi-ops configuration: ${problems.join("; ")}` : undefined;
  // The dynamic door (its config holds the stack's raw keys): the engine would print a throw here with the gRPC
  // server's stack trace, twice; the failure is the resource's check failure instead, one line (checkForEngine).
  if (failure && !isDynamicConfig(config)) throw new ConfigError(failure);
}

/** The configuration's problems, when the dynamic door was configured with some: every check fails with them. */
let failure: string | undefined;
/** The configuration's problems, in one line, or undefined. */
export const configFailure = (): string | undefined => failure;
const isDynamicConfig = (config: ConfigSource) => typeof (config as { rawConfig?: unknown }).rawConfig === "object";

/**
 * The stack's `ops:*` keys that are no setting, each with the nearest one (`ops:edgeApiTokn`: did you mean
 * `ops:edgeApiToken`?), as the plugin's CheckConfig names them: a mistyped key would otherwise read as "no
 * credentials". The dynamic door's config holds every key of the stack (`rawConfig`).
 */
function unknownKeys(config: ConfigSource): string[] {
  const raw = (config as { rawConfig?: Record<string, unknown> }).rawConfig;
  if (!raw || typeof raw !== "object") return [];
  const known = [...ALL_SETTINGS.map((s) => s.key), ACCOUNTS_KEY];
  const keys = Object.keys(raw).filter((k) => k.startsWith("ops:"));
  // A setting an earlier release had: one warning, and the stack goes on (config.ts RETIRED_SETTINGS).
  warnRetired(keys.filter((k) => k in RETIRED_SETTINGS));
  return unknownNames(
    known,
    keys.filter((k) => !(k in RETIRED_SETTINGS)),
  ).map((f) => f.reason.replace(" is not a known property:", " is not a pulumi-ops setting:"));
}

/** Each retired setting of the stack, in one warning line each (shown once per command, as every warning). */
export function warnRetired(keys: string[]): void {
  for (const key of keys) warn(retiredSettingLine(key));
}

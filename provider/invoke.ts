/**
 * The plugin door's invokes: a read-only function by token, its arguments checked, its result held to the
 * function's result schema (function-registry.ts). The dispatcher (door.ts) exports it as it always has.
 */
import { accountProblem, withAccount } from "./config";
import { parseArgs, type CheckFailure } from "./check";
import { ConfigError } from "./http/errors";
import { redacted } from "./log";
import { nodeProblem } from "./node-version";
import { ACCOUNT_KEY, withoutUndefined } from "./call-bags";
import type { Bag } from "./handler";

/** On an older Node every call fails at once with one message. */
const unsupportedNode = nodeProblem();

/**
 * A read-only function by token (`edge:getZone`), for the plugin's invoke: bad arguments come back as failures
 * naming the argument (nothing is sent); the result is checked against the function's result schema.
 */
export async function invoke(token: string, args: unknown): Promise<{ outputs?: unknown; failures?: CheckFailure[] }> {
  const { functions } = await import("./function-registry"); // only the plugin's invokes need these
  if (unsupportedNode) throw new ConfigError(unsupportedNode);
  const entry = functions[token];
  if (!entry) throw new Error(`pulumi-ops has no function ${token}: upgrade the pulumi-ops package`);
  const { [ACCOUNT_KEY]: account, ...own } = (args ?? {}) as Bag;
  const problem = accountProblem(account);
  if (problem) return { failures: [{ property: ACCOUNT_KEY, reason: problem }] };
  const parsed = parseArgs(token, entry.args, own);
  if (parsed.failures.length) return { failures: parsed.failures };
  let result: unknown;
  try {
    result = await withAccount(account, () => entry.run(parsed.data));
  } catch (e) {
    throw redacted(e);
  }
  const shaped = entry.result.safeParse(result);
  if (!shaped.success) {
    const i = shaped.error.issues[0];
    throw new Error(
      `${token}: the service answered in a shape this version does not know (${i.path.join(".")}: ${i.message}): upgrade pulumi-ops`,
    );
  }
  return { outputs: withoutUndefined(shaped.data) };
}

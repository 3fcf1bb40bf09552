/**
 * What the SDK passes beside a resource's inputs, and where the engine keeps it: the named account (`account`), the
 * owner (owner.ts) and the names of the inputs given as secrets. The dispatcher (door.ts) takes them off before a
 * handler sees the inputs and puts them back on what it answers.
 */
import { isUnknown } from "./check";
import type { Bag } from "./handler";
import { OWNER_KEY } from "./owner";
import { stringsIn } from "./secrets";

export type Method = "check" | "diff" | "create" | "read" | "update" | "delete";

/** Every resource's `account` input: the named account (ops:accounts) whose settings serve it. */
export const ACCOUNT_KEY = "account";

/** Where each method's input bag is among its arguments: the one whose `account` chooses the settings. */
const BAG_OF: Record<Method, number[]> = { check: [0, 1], diff: [1, 2], create: [0], read: [1], update: [1, 2], delete: [1] };
const ACCOUNT_FROM: Record<Method, number> = { check: 1, diff: 2, create: 0, read: 1, update: 2, delete: 1 };

/**
 * The names of a dynamic resource's inputs that the program gave as secrets: the SDK's classes pass them as the
 * hidden `__secrets` (the engine strips secrets before it calls a dynamic provider, so the provider cannot tell).
 */
export const SECRETS_KEY = "__secrets";

/**
 * The strings of the inputs `__secrets` names, in the call's bags (inputs, olds, outputs): masked while it runs; and
 * whether any input is secret at all (a secret number holds no string, and still makes a command's output secret).
 */
export function secretValuesOf(method: Method, args: unknown[]): { values: string[]; any: boolean } {
  const named = BAG_OF[method]
    .map((i) => args[i] as Bag | undefined)
    .flatMap((bag) => (Array.isArray(bag?.[SECRETS_KEY]) ? (bag![SECRETS_KEY] as unknown[]).map((k) => [bag!, String(k)] as const) : []));
  return { values: named.flatMap(([bag, k]) => stringsIn(bag[k])), any: named.length > 0 };
}

/** The call's account, owner (owner.ts) and secret names, and its arguments without them (the handlers know none). */
export function splitAccount(method: Method, args: unknown[]): { account: unknown; owner: unknown; secrets: unknown; args: unknown[] } {
  const account = (args[ACCOUNT_FROM[method]] as Bag | undefined)?.[ACCOUNT_KEY];
  const owner = (args[ACCOUNT_FROM[method]] as Bag | undefined)?.[OWNER_KEY];
  const secrets = (args[ACCOUNT_FROM[method]] as Bag | undefined)?.[SECRETS_KEY];
  const own = args.map((a, i) => {
    if (!BAG_OF[method].includes(i) || !a || typeof a !== "object" || !(ACCOUNT_KEY in a || OWNER_KEY in a || SECRETS_KEY in a)) return a;
    const { [ACCOUNT_KEY]: _, [OWNER_KEY]: _o, [SECRETS_KEY]: _s, ...rest } = a as Bag;
    return rest;
  });
  return { account, owner, secrets, args: own };
}

/** The owner and secret names the SDK passed, kept where the engine stores them: the checked inputs, and the outputs. */
export function withOwnerKept(method: Method, result: any, owner: unknown, secrets: unknown): any {
  if ((owner === undefined && secrets === undefined) || !result) return result;
  const kept = { ...(owner !== undefined ? { [OWNER_KEY]: owner } : {}), ...(secrets !== undefined ? { [SECRETS_KEY]: secrets } : {}) };
  if (method === "check") return { ...result, inputs: { ...result.inputs, ...kept } };
  if (method === "create" || method === "update") return { ...result, outs: { ...result.outs, ...kept } };
  if (method === "read" && result.id) return { ...result, props: { ...result.props, ...kept } };
  return result;
}

/**
 * `account` kept where the engine stores it (inputs, outputs), so read and delete later use the same account; a
 * resource moved to another account is replaced, as its object lives in the other account.
 */
export function withAccountKept(method: Method, result: any, account: unknown, args: unknown[]): any {
  if (method === "diff") {
    const before = (args[1] as Bag | undefined)?.[ACCOUNT_KEY];
    if (before === account || isUnknown(account)) return result;
    // The same object (its natural key unchanged) moved between accounts: made first, it would meet itself (a record,
    // a script name, a slug), or the old one's delete would undo it (a setting, a subscription). Delete first.
    return { ...result, changes: true, replaces: [...new Set([...(result?.replaces ?? []), ACCOUNT_KEY])], deleteBeforeReplace: true };
  }
  if (account === undefined || !result) return result;
  switch (method) {
    case "check":
      return { ...result, inputs: { ...result.inputs, [ACCOUNT_KEY]: account } };
    case "create":
    case "update":
      return { ...result, outs: { ...result.outs, [ACCOUNT_KEY]: account } };
    case "read":
      if (!result.id) return result;
      return {
        ...result,
        props: { ...result.props, [ACCOUNT_KEY]: account },
        ...(result.inputs ? { inputs: { ...result.inputs, [ACCOUNT_KEY]: account } } : {}),
      };
    default:
      return result;
  }
}

/** The engine's protobuf Struct has no `undefined`: an absent optional output is left out, at any depth. */
export function withoutUndefined<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutUndefined) as T;
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [k, withoutUndefined(v)]),
    ) as T;
  }
  return value;
}

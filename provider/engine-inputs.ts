/**
 * Inputs as the engine carries them and as the handlers are given them. The engine keeps, shows and diffs the
 * checked inputs; what serves a reviewer there is not what a handler works with, so the door turns one into the other:
 * - sets as texts (set-text.ts), lists for the handler;
 * - a value equal to its default left out (`adopt: false` under every new resource is not news), given back;
 * - the marks no handler reads: the outputs known at preview (`__known`, with the keys it names), and the program's
 *   own verdicts on a resource (`__invalid`: its problems; `__held`: another resource of its turn has some, see
 *   sdk/types.ts), for which nothing is ever sent.
 */
import { schemaDefaults } from "./check";
import { canonical, type Bag } from "./handler";
import { ValidationError } from "./http/errors";
import { registry } from "./registry";
import { setsAsLists, setsAsText } from "./set-text";

type Method = "check" | "diff" | "create" | "read" | "update" | "delete";

/** The checked inputs as the engine keeps them: sets as texts, and no value equal to its default. */
export function forEngine(type: string, inputs: Bag): Bag {
  return setsAsText(withoutDefaults(type, inputs), registry[type]?.sets ?? []);
}

/** A call's arguments as the handler takes them: no marks, sets as lists, the defaults left out put back. */
export function forHandler(type: string, method: Method, args: unknown[]): unknown[] {
  return args.map((a, i) => withDefaults(type, method, i, setsAsLists(withoutMarks(a))));
}

/** The problems the program found in a resource's inputs (sdk/types.ts), if it found any. */
export function invalidOf(inputs: Bag | undefined): string[] | undefined {
  const found = inputs?.__invalid;
  return Array.isArray(found) && found.length ? (found as string[]) : undefined;
}

/**
 * What the door answers for a resource the program refused (its diff: a change; its create or update: the problems,
 * nothing sent), or held because another resource of its turn has problems; undefined for any other.
 */
export function programRefusal(type: string, method: Method, args: unknown[]): { changes: true } | undefined {
  const [service, name] = type.split(":");
  const news = (method === "create" ? args[0] : method === "update" || method === "diff" ? args[2] : undefined) as Bag | undefined;
  const invalid = invalidOf(news);
  if (invalid && method === "diff") return { changes: true };
  if (invalid)
    throw new ValidationError({
      service,
      message: `${name}: ${invalid.join("; ")}`,
      remedy: "Fix these inputs (the program's error above names each); nothing was sent",
    });
  if (method !== "diff" && news?.__held === true)
    throw new ValidationError({
      service,
      message: `${name} not applied: other resources of the program have problems (named above)`,
      remedy: "Fix those inputs; nothing was sent",
    });
  return undefined;
}

/** A bag without the marks no handler reads: the program's (`__invalid`, `__held`) and the outputs known at preview (`__known`). */
function withoutMarks<T>(a: T): T {
  if (!a || typeof a !== "object" || Array.isArray(a) || !("__held" in a || "__invalid" in a || "__known" in a)) return a;
  const { __held: _h, __invalid: _i, __known: known, ...rest } = a as Bag;
  if (Array.isArray(known)) for (const k of known) delete rest[k as string];
  return rest as T;
}

/**
 * A default is not news in a preview (`adopt: false` under every new resource): the inputs the engine keeps and shows
 * leave out every value equal to its default (set by the program or not: the same either way), and the door gives it
 * back to the handler (withDefaults) and to a check's old inputs (withDefaultsFilled).
 */
function withoutDefaults(type: string, inputs: Bag): Bag {
  const defaults = defaultsOf(type);
  const dropped = Object.keys(defaults).filter((k) => k in inputs && canonical(inputs[k]) === canonical(defaults[k]));
  if (!dropped.length) return inputs;
  const out = { ...inputs };
  for (const k of dropped) delete out[k];
  return out;
}

/** `bag` with every default it leaves out put back. */
export function withDefaultsFilled(type: string, bag: Bag): Bag {
  const missing = Object.entries(defaultsOf(type)).filter(([k]) => bag[k] === undefined);
  return missing.length ? { ...Object.fromEntries(missing), ...bag } : bag;
}

/** The checked inputs a handler is given (create's, update's and diff's new ones) with the defaults left out put back. */
function withDefaults(type: string, method: Method, at: number, bag: unknown): unknown {
  const inputsAt = method === "create" ? 0 : method === "update" || method === "diff" ? 2 : -1;
  return at === inputsAt && bag && typeof bag === "object" ? withDefaultsFilled(type, bag as Bag) : bag;
}

const defaultsByType = new Map<string, Record<string, unknown>>();
function defaultsOf(type: string): Record<string, unknown> {
  let d = defaultsByType.get(type);
  if (!d) defaultsByType.set(type, (d = registry[type] ? schemaDefaults(registry[type].inputs) : {}));
  return d;
}

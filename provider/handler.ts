/** The contract every resource handler keeps: plain objects in, plain objects out, nothing about serialization. */
import { isUnknown, type CheckResult } from "./check";
import { ApiError, NotFoundError, ServerError, summaryOf, TransportError } from "./http/errors";
import { claim, isClaimed, markAdopted } from "./claims";
import { log, notice, warn } from "./log";
import { createResumed, resumedLine } from "./create-journal";
import type { PreviewContext } from "./preview";

export type Bag = Record<string, any>;

export interface DiffResult {
  changes: boolean;
  replaces?: string[];
  deleteBeforeReplace?: boolean;
}

/**
 * A resource's handler, typed by its schema's inputs and outputs (`Handler<XInputs, XOutputs>`): what create, read
 * and update answer must be the outputs whole, so a field the schema gains and a mapping forgets is a compile error.
 * What comes from state (`olds`, `props`) stays untyped: a stack may hold what an older release wrote.
 */
export interface Handler<I extends Bag = Bag, O extends Bag = Bag> {
  check(olds: Bag, news: Bag): Promise<CheckResult>;
  diff(id: string, olds: Bag, news: Bag): Promise<DiffResult>;
  create(inputs: I): Promise<{ id: string; outs: O }>;
  /** No id in the answer means the object is gone. `inputs` are what the program would have to say to match it. */
  read(id: string, props: Bag): Promise<{ id?: string; props?: O; inputs?: Bag }>;
  update(id: string, olds: Bag, news: I): Promise<{ outs: O }>;
  delete(id: string, props: Bag): Promise<void>;
  /**
   * Outputs the inputs alone decide (a record's hostname from its name and zone): the door adds them to the checked
   * inputs, which are what the engine shows as a resource's outputs at preview, so a text built from them is whole
   * in a pull request's preview instead of `[unknown]`. Given only the inputs' known values; answers what it can,
   * with reads only (a zone's id by its name), as a preview may.
   */
  knownAtPreview?(inputs: Bag): Bag | Promise<Bag>;
  /**
   * What up would refuse that a preview can tell (a takeover of another's object, a plan's limit, a quota): run at
   * every check after the service's shared reads (preflight.ts), reads only. With `ctx.reads` false it must send
   * nothing, saying only what needs no request.
   */
  preview?(ctx: PreviewContext): Promise<void>;
}

/**
 * Thrown when create made the object but could not finish: the engine records `id` and `properties` so that a later
 * up can repair it and destroy can remove it, instead of orphaning it.
 */
export class PartialCreateError extends Error {
  constructor(
    message: string,
    readonly id: string,
    readonly properties: Bag,
  ) {
    super(message);
  }
}

/**
 * `x` as JSON with object keys sorted: the same value however its keys are ordered (the service's answer, or the
 * engine's state, which sorts them).
 */
export function canonical(x: unknown): string {
  return JSON.stringify(x ?? null, (_k, v) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

const NUMERIC = /^-?(0|[1-9]\d*)(\.\d+)?$/;

/**
 * Two values as a service means them, never by our serialisation: objects by key (a takeover of an object whose
 * answer lists `{url, status_code}` where the program wrote `{status_code, url}` is no change), a number and its
 * numeric string as one where one side has a number (`301` and `"301"`; two strings are compared as written), and
 * absent as null.
 */
export function sameValue(a: unknown, b: unknown): boolean {
  a ??= null;
  b ??= null;
  if (typeof a === "number" && typeof b === "string") return NUMERIC.test(b) && Number(b) === a;
  if (typeof a === "string" && typeof b === "number") return sameValue(b, a);
  if (Array.isArray(a) || Array.isArray(b))
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  if (a && b && typeof a === "object" && typeof b === "object") {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].every((k) => sameValue((a as Bag)[k], (b as Bag)[k]));
  }
  return a === b;
}

/** sameValue in the shape changedKeys takes. */
export const sameField = (_k: string, a: unknown, b: unknown) => sameValue(a, b);

/** Two lists a service keeps as sets (tasks, subscribed fields, tags): the same members in any order, each once. */
export function sameSet(a: readonly unknown[] | undefined, b: readonly unknown[] | undefined): boolean {
  const members = (x: readonly unknown[] | undefined) => [...new Set((x ?? []).map((v) => canonical(v)))].sort();
  return canonical(members(a)) === canonical(members(b));
}

/** The names of the inputs in `news` (unknown values count as changes) that differ by `same`. */
export function changedKeys(keys: string[], olds: Bag, news: Bag, same: (k: string, a: any, b: any) => boolean): string[] {
  return keys.filter((k) => isUnknown(news[k]) || !same(k, olds[k], news[k]));
}

/** The object, or undefined when the service says it does not exist (read: gone). */
export async function unlessGone<T>(get: () => Promise<T>): Promise<T | undefined> {
  try {
    return await get();
  } catch (e) {
    if (e instanceof NotFoundError) return undefined;
    throw e;
  }
}

/** How many times a create is sent when each failure left no object behind (a lookup by key proved it). */
export const CREATE_ATTEMPTS = 4;

/** A failure after which the service may or may not have made the object. */
export function outcomeUnknown(e: unknown): boolean {
  return (e instanceof TransportError && e.ambiguous) || e instanceof ServerError;
}

/**
 * Create an object that has a natural key. With `adopt`, an existing object with the key is taken over (updated
 * to the program's values) instead of adding a second one. When the answer to a create is lost (connection
 * dropped, timeout, 5xx), the object is looked up by its key: found, it is kept (a retried `up` never duplicates
 * it); not found, the service never made it, so the create is sent again, up to CREATE_ATTEMPTS times in all.
 */
export async function createByKey<T>(o: {
  what: string;
  adopt: boolean;
  find: () => Promise<T | undefined>;
  create: () => Promise<T>;
  update: (existing: T) => Promise<T>;
  /** Whether the object found already is what the program says: taken over with nothing sent. */
  unchanged?: (existing: T) => boolean;
  /** The object's claim key (claims.ts): one another resource of this run made or adopted is not taken again. */
  claimKey?: (x: T) => string;
  /** False where the caller settles a create an earlier run left unrecorded itself (it weighs owner labels). */
  resumable?: boolean;
}): Promise<T> {
  const made = await createOrAdopt(o);
  if (o.claimKey) claim(o.claimKey(made));
  return made;
}

async function createOrAdopt<T>(o: Parameters<typeof createByKey<T>>[0]): Promise<T> {
  // An earlier create of this resource was never recorded in the stack's state (a killed run; or `pulumi state
  // delete`): what it made is this resource's (create-journal.ts).
  const earlier = o.resumable === false ? undefined : createResumed();
  if (earlier && !o.adopt) {
    const found = await o.find();
    if (found && (!o.claimKey || claim(o.claimKey(found)))) {
      warn(`${resumedLine(o.what, earlier)}; the service had made it, so it is kept (nothing made twice)`);
      return o.unchanged?.(found) ? found : o.update(found);
    }
  }
  if (o.adopt) {
    let existing = await o.find();
    if (existing && o.claimKey && !claim(o.claimKey(existing))) {
      log(`the existing ${o.what} is another resource's of this run: making this one's own`);
      existing = undefined;
    }
    // Taken over: the delete of a resource that had it (renamed without an alias) leaves it to this one.
    if (existing && o.claimKey) markAdopted(o.claimKey(existing));
    if (existing && o.unchanged?.(existing)) {
      notice(`adopting the existing ${o.what}: already as the program says, nothing sent`);
      return existing;
    }
    if (existing) {
      notice(`adopting the existing ${o.what}`);
      return o.update(existing);
    }
  }
  for (let attempt = 1; ; attempt++) {
    try {
      return await o.create();
    } catch (e) {
      if (!outcomeUnknown(e)) throw e;
      // Found by its key, and no other resource of this run's (claims.ts): the object this request made.
      const found = await o.find();
      const made = found && o.claimKey && isClaimed(o.claimKey(found)) ? undefined : found;
      if (made) {
        warn(`the answer to creating ${o.what} was lost; the service had made it, so it is kept`);
        return made;
      }
      if (attempt >= CREATE_ATTEMPTS) throw e;
      const wait = 1000 * 2 ** (attempt - 1); // 1, 2, 4 s: the service had a moment to recover
      log(
        `creating ${o.what} failed (${(e as Error).message.split(": ").slice(1, 3).join(": ")}) and the service has no such object; sending it again in ${(wait / 1000).toFixed(1)} s (${attempt + 1} of ${CREATE_ATTEMPTS})`,
      );
      await new Promise((r) => setTimeout(r, wait));
    }
  }
}

/** The id a create records when the service may have made the object but could not be asked: `pending-<sentAt ms>`. */
export const PENDING = "pending-";
export const isPending = (id: string) => id.startsWith(PENDING);
export const pendingSince = (id: string) => Number(id.slice(PENDING.length));

/**
 * Create an object that has no natural key (a post), never twice. When the answer is lost (connection dropped,
 * timeout, 5xx), `findMade` asks the service what it made since the request was sent (a container's status, the
 * page's recent posts): found, it is kept; certainly not made, the create is sent again (CREATE_ATTEMPTS in all).
 * When even that cannot be asked, the create ends as a partial create under the id `pending-<sentAt>`: the engine
 * keeps the resource in state, and the next `up` (an update) or `refresh` (a read) settles it by the same lookup
 * before anything is sent again. `findMade` answers "cannot tell" where the service offers no way to know; then
 * the error names `whereToLook` and the pending state keeps the next run from sending it blindly.
 */
export async function createOnce<T>(o: {
  what: string;
  create: () => Promise<T>;
  findMade: (sentAt: number) => Promise<T | undefined | "cannot tell">;
  whereToLook: string;
  properties: Bag;
}): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const sentAt = Date.now();
    try {
      return await o.create();
    } catch (e) {
      if (!outcomeUnknown(e)) throw e;
      // A slow answer is not a lost one: say which setting gives the service more time.
      const why = `${summaryOf(e)}${/TIMEOUT/.test(summaryOf(e)) && e instanceof ApiError && e.remedy ? ` (${e.remedy.replace(/, then run the command again$/, "")})` : ""}`;
      let made: T | undefined | "cannot tell";
      try {
        made = await o.findMade(sentAt);
      } catch (lookup) {
        throw unsettled(o, sentAt, `${why}; asking the service whether it made ${o.what} failed too (${summaryOf(lookup)})`);
      }
      if (made === "cannot tell") throw unsettled(o, sentAt, why, true);
      if (made) {
        warn(`the answer to creating ${o.what} was lost; the service had made it, so it is kept (nothing sent twice)`);
        return made;
      }
      if (attempt >= CREATE_ATTEMPTS) throw e;
      const wait = 1000 * 2 ** (attempt - 1);
      log(
        `creating ${o.what} failed and the service made nothing; sending it again in ${(wait / 1000).toFixed(1)} s (${attempt + 1} of ${CREATE_ATTEMPTS})`,
      );
      await new Promise((r) => setTimeout(r, wait));
    }
  }
}

/** How far a service's clock may be behind ours when an object's creation time is compared with when we sent it. */
export const CLOCK_SKEW_MS = 120_000;
/** How far back a recovery run (`ops:postsAdoptExisting`, `ops:pagesAdoptExisting`) looks for what a killed run made. */
export const ADOPT_WINDOW_MS = 86_400_000;

/**
 * The service's id of a resource that may be pending (see createOnce): its own id; once settled, `known` (kept in
 * its outputs); else what its create made, looked up now — undefined when it made nothing. Where the service
 * cannot tell, the error says what to check.
 */
export async function settlePending(
  id: string,
  known: string | undefined,
  findMade: (sentAt: number) => Promise<string | undefined | "cannot tell">,
  whereToLook: string,
): Promise<string | undefined> {
  if (!isPending(id)) return id;
  if (known) return known;
  const made = await findMade(pendingSince(id));
  if (made === "cannot tell")
    throw new Error(`pulumi-ops cannot tell whether this resource's create made its object: check ${whereToLook}`);
  return made;
}

function unsettled(
  o: { what: string; whereToLook: string; properties: Bag },
  sentAt: number,
  why: string,
  cannotTell = false,
): PartialCreateError {
  const next = cannotTell
    ? "pulumi-ops recorded it as pending and never sends it again blindly, as the service cannot tell whether it ran: check"
    : "pulumi-ops recorded it as pending and will look for it before sending anything again: the next `pulumi up` or `pulumi refresh` settles it. To settle it by hand, check";
  return new PartialCreateError(
    `${why}. The service may have made ${o.what}; ${next} ${o.whereToLook}`,
    `${PENDING}${sentAt}`,
    o.properties,
  );
}

/** Runs a delete; an object that is already gone is what a delete wants. */
export async function deleteUnlessGone(del: () => Promise<unknown>): Promise<void> {
  try {
    await del();
  } catch (e) {
    if (!(e instanceof NotFoundError)) throw e;
  }
}

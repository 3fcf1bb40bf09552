/** The contract every resource handler keeps: plain objects in, plain objects out, nothing about serialization. */
import { isUnknown, type CheckResult } from "./check";
import { NotFoundError, ServerError, TransportError } from "./http/errors";
import { log } from "./log";

export type Bag = Record<string, any>;

export interface DiffResult {
  changes: boolean;
  replaces?: string[];
  deleteBeforeReplace?: boolean;
}

export interface Handler {
  check(olds: Bag, news: Bag): Promise<CheckResult>;
  diff(id: string, olds: Bag, news: Bag): Promise<DiffResult>;
  create(inputs: Bag): Promise<{ id: string; outs: Bag }>;
  /** No id in the answer means the object is gone. `inputs` are what the program would have to say to match it. */
  read(id: string, props: Bag): Promise<{ id?: string; props?: Bag; inputs?: Bag }>;
  update(id: string, olds: Bag, news: Bag): Promise<{ outs: Bag }>;
  delete(id: string, props: Bag): Promise<void>;
}

/**
 * Thrown when create made the object but could not finish: the engine records `id` and `properties` so that a later
 * up can repair it and destroy can remove it, instead of orphaning it.
 */
export class PartialCreateError extends Error {
  constructor(message: string, readonly id: string, readonly properties: Bag) {
    super(message);
  }
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
}): Promise<T> {
  if (o.adopt) {
    const existing = await o.find();
    if (existing) {
      log(`adopting the existing ${o.what}`);
      return o.update(existing);
    }
  }
  for (let attempt = 1; ; attempt++) {
    try {
      return await o.create();
    } catch (e) {
      if (!outcomeUnknown(e)) throw e;
      const made = await o.find();
      if (made) {
        log(`the answer to creating ${o.what} was lost; the service had made it, so it is kept`);
        return made;
      }
      if (attempt >= CREATE_ATTEMPTS) throw e;
      const wait = 1000 * 2 ** (attempt - 1); // 1, 2, 4 s: the service had a moment to recover
      log(`creating ${o.what} failed (${(e as Error).message.split(": ").slice(1, 3).join(": ")}) and the service has no such object; sending it again in ${(wait / 1000).toFixed(1)} s (${attempt + 1} of ${CREATE_ATTEMPTS})`);
      await new Promise((r) => setTimeout(r, wait));
    }
  }
}

/** Runs a delete; an object that is already gone is what a delete wants. */
export async function deleteUnlessGone(del: () => Promise<unknown>): Promise<void> {
  try {
    await del();
  } catch (e) {
    if (!(e instanceof NotFoundError)) throw e;
  }
}

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

/**
 * Create an object that has a natural key. With `adopt`, an existing object with the key is taken over (updated
 * to the program's values) instead of adding a second one. When the answer to the create is lost (connection
 * dropped, timeout, 5xx), the object the service may have made is looked up by its key before giving up, so a
 * retried `up` never duplicates it.
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
  try {
    return await o.create();
  } catch (e) {
    if (!((e instanceof TransportError && e.ambiguous) || e instanceof ServerError)) throw e;
    const made = await o.find();
    if (!made) throw e;
    log(`the answer to creating ${o.what} was lost; the service had made it, so it is kept`);
    return made;
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

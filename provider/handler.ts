/** The contract every resource handler keeps: plain objects in, plain objects out, nothing about serialization. */
import { isUnknown, type CheckResult } from "./check";

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

import type * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";

/** A resource's Args from its zod input type: every property may be a plain value or a pulumi.Input. */
export type InputsOf<T> = { [K in keyof T]: pulumi.Input<T[K]> } & {
  /** The named account (`ops:accounts`) whose settings serve this resource; unset, the stack's own. Changing it replaces the resource. */
  account?: pulumi.Input<string>;
};

/**
 * Every output of a resource as an undefined property: the Node SDK exposes only the properties named in the
 * constructor's props, and outputs the engine computes must be passed as undefined.
 */
export function outputSlots(outputs: z.ZodObject): Record<string, undefined> {
  return Object.fromEntries([...Object.keys(outputs.shape), "account"].map((k) => [k, undefined]));
}

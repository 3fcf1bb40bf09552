/**
 * Whose a call is: the stack and resource it serves, so that an object a service can label carries its owner
 * (a skill's metadata) and adoption can tell this stack's own object from another stack's.
 * - The dynamic door: the SDK's classes pass `__owner` (`<project>/<stack>/<name>`) among the inputs; the engine
 *   hides `__` keys from diffs, the door takes it out before a handler sees the inputs and keeps it in the outputs
 *   (so destroy knows it too).
 * - The plugin door: the engine names the resource's URN on every call (`urn:pulumi:<stack>::<project>::<type>::<name>`).
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { currentUrn } from "./log";

export const OWNER_KEY = "__owner";

export interface Owner {
  /** `<project>/<stack>`. */
  stack: string;
  /** The resource's name in the program. */
  resource: string;
}

const context = new AsyncLocalStorage<Owner | undefined>();

/** `<project>/<stack>/<name>` as the SDK passes it; undefined when it is not one. */
export function parseOwner(value: unknown): Owner | undefined {
  if (typeof value !== "string") return undefined;
  const m = /^([^/]+)\/([^/]+)\/(.+)$/s.exec(value);
  return m ? { stack: `${m[1]}/${m[2]}`, resource: m[3] } : undefined;
}

/** The owner in a URN: `urn:pulumi:<stack>::<project>::<type>::<name>`. */
export function ownerOfUrn(urn: string | undefined): Owner | undefined {
  const m = /^urn:pulumi:([^:]+)::([^:]+)::.*::([^:]+)$/s.exec(urn ?? "");
  return m ? { stack: `${m[2]}/${m[1]}`, resource: m[3] } : undefined;
}

/** Runs `f` on behalf of `owner` (when known). */
export function withOwner<T>(owner: Owner | undefined, f: () => T): T {
  return owner ? context.run(owner, f) : f();
}

/** The stack and resource the current call serves, when the door knows it. */
export function currentOwner(): Owner | undefined {
  return context.getStore() ?? ownerOfUrn(currentUrn());
}

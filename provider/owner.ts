/**
 * Whose a call is: the stack and resource it serves, so that an object a service can label carries its owner
 * (a skill's metadata) and adoption can tell this stack's own object from another stack's.
 * - The dynamic door: the SDK's classes pass `__owner` (`<project>/<stack>/<name>`) among the inputs; the engine
 *   hides `__` keys from diffs, the door takes it out before a handler sees the inputs and keeps it in the outputs
 *   (so destroy knows it too).
 * - The plugin door: the engine names the resource's URN on every call (`urn:pulumi:<stack>::<project>::<type>::<name>`).
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { GENERAL_SETTINGS, read } from "./config";
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

/**
 * Whose an object carrying the owner's label `label` (a stack's `<project>/<stack>`, or none) is, for a create that
 * would take it: this stack's own (left behind by its destroy: taken back with nothing to set), another stack's
 * (refused naming it), another stack's that ops:adoptFromStack names for this run (taken, and labelled anew), or
 * nobody's that we know (taken only with `adopt`).
 */
export function standing(label: string | undefined): "mine" | "theirs" | "forced" | "unlabelled" {
  if (!label) return "unlabelled";
  if (label === currentOwner()?.stack) return "mine";
  return label === read(GENERAL_SETTINGS.adoptFromStack) ? "forced" : "theirs";
}

/**
 * Whether a destroy must leave an object labelled `label`: another stack's (it took the object over). With no owner
 * known (state written before labels), a label is never this stack's: that release labelled nothing.
 */
export function leftToAnother(label: string | undefined): boolean {
  return !!label && label !== currentOwner()?.stack;
}

/**
 * The owner's label as a tag (`name:value`, the form DNS record tags take; Worker tags are free text): the tag's name
 * and the stack. Tag names are case-insensitive on the service.
 */
export const STACK_TAG = "pulumi-ops-stack";

/** The stack a list of tags names as owner, if any. */
export function stackOfTags(tags: readonly string[] | null | undefined): string | undefined {
  const tag = tags?.find((t) => t.toLowerCase().startsWith(`${STACK_TAG}:`));
  return tag?.slice(STACK_TAG.length + 1) || undefined;
}

/** `tags` with this stack's label in place of any owner's (others kept as they are); unchanged when no owner is known. */
export function withStackTag(tags: readonly string[] | null | undefined): string[] {
  const me = currentOwner();
  const others = (tags ?? []).filter((t) => !t.toLowerCase().startsWith(`${STACK_TAG}:`));
  return me ? [...others, `${STACK_TAG}:${me.stack}`] : [...(tags ?? [])];
}

/**
 * What a resource's own preview is given (Handler.preview): the shared preflight (preflight.ts) runs the reads every
 * resource of a service needs — credentials, a page API version, a zone by name — and then asks the resource what
 * else up would refuse, with these. Reads only: a preview never writes.
 */
import { isUnknown } from "./check";

export interface PreviewContext {
  type: string;
  account: string | undefined;
  /** The checked inputs; some may be unknown at preview (isUnknown). */
  inputs: Record<string, any>;
  /** The inputs in state; empty for a resource the stack does not hold yet. */
  olds: Record<string, any>;
  /**
   * Whether this resource's service may be asked: `ops:previewChecks` is on and its credentials are set. False: the
   * preview sends nothing and says only what needs no request.
   */
  reads: boolean;
  /** A read made once per command under `key` (the account is not added: put it in the key where it matters). */
  once<T>(key: string, read: () => Promise<T>): Promise<T>;
  /** The service's one read of this command for this account (preflight.ts READS): what it answered. */
  serviceRead(service?: string): Promise<unknown>;
  /** Whether the object the inputs name is this stack's own: a resource in state, or one being replaced. */
  ownedByStack(): boolean;
}

/** Whether every input is known (a preview of a resource whose inputs wait on others says nothing of it). */
export function allKnown(inputs: Record<string, unknown>): boolean {
  return !Object.values(inputs).some(isUnknown);
}

/** A string input known at preview, or undefined. */
export function knownText(value: unknown): string | undefined {
  return typeof value === "string" && !isUnknown(value) ? value : undefined;
}

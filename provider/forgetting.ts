/**
 * What a module remembers for one command (checks made, records declared) and must forget when a new one starts in
 * the same process (tests share one). A module loaded on demand registers here how it forgets, so that the module
 * that forgets everything (preflight.ts) never imports it back: imports run one way.
 */
const forgetters = new Set<() => void>();

/** Registers `f`, called by every forgetRegistered(). */
export function onForget(f: () => void): void {
  forgetters.add(f);
}

/** Calls every registered forgetter. */
export function forgetRegistered(): void {
  for (const f of forgetters) f();
}

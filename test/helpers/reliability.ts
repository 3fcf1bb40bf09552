/**
 * The reliability tally the fault and bad-input tests keep and print (docs/reliability.md quotes it): faults
 * injected, runs that converged afterwards, duplicates found, requests sent on bad input.
 */
import type { Emulator } from "../../emulators";

export interface Tally {
  faults: number;
  converged: number;
  duplicates: number;
  badInputs: number;
  badInputRequests: number;
}

export function tally(): Tally {
  return { faults: 0, converged: 0, duplicates: 0, badInputs: 0, badInputRequests: 0 };
}

/** Faults the emulators answered (injected status, hang, drop) since the log was last cleared. */
export function injectedFaults(...emulators: Emulator[]): number {
  return emulators.reduce((n, e) => n + e.log.filter((x) => x.fault).length, 0);
}

export function printTally(what: string, t: Tally): void {
  const parts = [
    t.faults || t.converged ? `${t.faults} faults injected, ${t.converged} runs converged, ${t.duplicates} duplicates` : "",
    t.badInputs
      ? `${t.badInputs} invalid input${t.badInputs === 1 ? "" : "s"} refused before any change, ${t.badInputRequests} requests sent on bad input`
      : "",
  ].filter(Boolean);
  console.log(`reliability (${what}): ${parts.join("; ")}`);
}

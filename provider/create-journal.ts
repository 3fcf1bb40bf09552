/**
 * Creates a killed run started (issue 44). When the `pulumi` CLI dies while a create is under way (SIGKILL, a CI
 * runner cancelled), the engine keeps only a pending operation: the next `pulumi up` calls create again for the same
 * resource with no word of the first one, and a service without a natural key (a page rule, a page post, a post)
 * would get a second object; a command would run again.
 *
 * So, before a create is sent, the provider notes it on this machine (a small file under
 * `$PULUMI_HOME/pulumi-ops/creates/`, one per resource), and leaves the note until the engine shows the resource is
 * in its state (it diffs it without replacing it, reads, updates or deletes it) or the create fails outright. A create that finds a note
 * for its resource knows an earlier run started the same create and never recorded the answer: the handler looks
 * for what that run made (from the note's time) and takes it instead of making a second (createResumed), and a
 * command refuses to run blindly. A check reads the note too, so that the preview says what the up will take.
 *
 * The note lives on the machine that ran the killed up (a CI job on a fresh runner has none: there the pipeline's
 * `recover` is the way, docs/reliability.md). Notes older than a day are ignored (a command's never are: door.ts
 * NOTES_KEPT). Only a provider an engine started
 * keeps notes (engine-watch.ts): the handlers' tests share one process and are not a killed run.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import * as path from "node:path";

/** How long a note stands: a run resumed later than this is not taken for the same attempt. */
const NOTE_LIFETIME_MS = 86_400_000;

/** An earlier run's create of this resource, started and never recorded. */
export interface StartedCreate {
  /** When that run sent it (ms since the epoch): what it made is no older. */
  sentAt: number;
  /** The note's file: removing it lets the next create send again (a user who checked that nothing was made). */
  note: string;
}

let keeping = false;
const resumed = new AsyncLocalStorage<StartedCreate | undefined>();

/** Turns the notes on: called once a provider knows an engine started it. */
export function keepCreateJournal(on = true): void {
  keeping = on;
}

const dir = () => path.join(process.env.PULUMI_HOME || path.join(homedir(), ".pulumi"), "pulumi-ops", "creates");
const noteOf = (key: string) => path.join(dir(), `${createHash("sha256").update(key).digest("hex").slice(0, 40)}.json`);

function readNote(key: string, expires = true): StartedCreate | undefined {
  try {
    const note = JSON.parse(readFileSync(noteOf(key), "utf8")) as { key?: string; sentAt?: number };
    if (note.key !== key || typeof note.sentAt !== "number" || (expires && Date.now() - note.sentAt > NOTE_LIFETIME_MS)) return undefined;
    return { sentAt: note.sentAt, note: noteOf(key) };
  } catch {
    return undefined;
  }
}

/** Thrown by a create that must keep its note (a command that refuses to run again blindly). */
export class InterruptedCreateError extends Error {}

/**
 * Runs the create `f` of the resource `key` (its stack, type and name) with its note written first. Inside `f`,
 * createResumed() tells whether an earlier run started the same create. The note stays when `f` succeeds, until the
 * engine shows the resource is in state (createRecorded); it is removed when `f` fails outright (nothing to find next
 * time), but kept when the failure may have left an object (`mayHaveMade`: a lost answer), when this create was
 * itself a resumed one (it may have found the earlier object and failed to update it), and on InterruptedCreateError.
 * `expires: false` keeps a note past a day (a command's: a refused command must never run blindly later).
 */
export async function journalledCreate<T>(
  key: string | undefined,
  f: () => Promise<T>,
  o: { mayHaveMade?: (e: unknown) => boolean; expires?: boolean } = {},
): Promise<T> {
  if (!keeping || !key) return f();
  const earlier = readNote(key, o.expires ?? true);
  try {
    mkdirSync(dir(), { recursive: true });
    // A resumed create that is killed again still looks back to the first attempt.
    writeFileSync(noteOf(key), JSON.stringify({ key, sentAt: earlier?.sentAt ?? Date.now(), pid: process.pid }));
  } catch {
    // A home that cannot be written: the create goes on as without notes (the pipeline's recover still works).
  }
  try {
    return await resumed.run(earlier, f);
  } catch (e) {
    if (!(e instanceof InterruptedCreateError) && !earlier && !o.mayHaveMade?.(e)) createRecorded(key);
    throw e;
  }
}

/** Runs the check `f` of the resource `key` knowing its note (read only): a preview says what the create will take. */
export function withEarlierCreate<T>(key: string | undefined, f: () => T, expires = true): T {
  return keeping && key ? resumed.run(readNote(key, expires), f) : f();
}

/**
 * An earlier run's create of the resource this create (or check) serves, started and never recorded; undefined if
 * none.
 */
export function createResumed(): StartedCreate | undefined {
  return resumed.getStore();
}

/** The engine holds the resource `key` in its state: its create's note is done with. */
export function createRecorded(key: string | undefined): void {
  if (!keeping || !key) return;
  rmSync(noteOf(key), { force: true });
}

/** How a create that found an earlier one's note says so: `what` is the object. */
export function resumedLine(what: string, earlier: StartedCreate): string {
  return `an earlier create of ${what} (sent ${new Date(earlier.sentAt).toISOString()}) never reached the stack's state (a killed run, or \`pulumi state delete\`)`;
}

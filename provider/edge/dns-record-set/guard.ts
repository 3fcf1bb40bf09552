/**
 * Large changes stopped before they happen, as octoDNS's UnsafePlan stops them: a DnsRecordSet whose plan updates, or
 * deletes, more than `maxChangePercent` (default 30) of the records of a zone that holds at least 10 fails in its diff,
 * which a preview runs, so a pull request's preview fails on it with nothing sent; `allowLargeChange: true` lets
 * one run through. Updates and deletes are weighed apart, against the records the zone holds (octoDNS's
 * `MAX_SAFE_UPDATE_PCENT`, `MAX_SAFE_DELETE_PCENT`, `MIN_EXISTING_RECORDS`).
 *
 * And a stack-wide count: with `ops:maxDeletes` set, the records the run's resources delete (a set's removed keys,
 * type changes and authoritative removals, as their diffs plan them; a DnsRecord or set deleted at up) may not pass
 * it. The engine asks a provider nothing at preview about a resource removed from the program, so those deletes are
 * counted at up, before the first one that would pass the limit is sent.
 */
import { GENERAL_SETTINGS, read, readNumber } from "../../config";
import { onForget } from "../../forgetting";
import { ValidationError } from "../../http/errors";
import { currentOwner } from "../../owner";

export const DEFAULT_MAX_CHANGE_PERCENT = 30;
/** A zone of fewer records is never weighed: a change of 3 in 5 is no mistake to stop. */
export const MIN_ZONE_RECORDS = 10;

/** Whether a plan of `updates` and `deletes` could pass the limit in any zone holding at least `atLeast` records. */
export const mayBeLarge = (updates: number, deletes: number, atLeast: number, percent = DEFAULT_MAX_CHANGE_PERCENT) =>
  Math.max(updates, deletes) * 100 > percent * Math.max(atLeast, MIN_ZONE_RECORDS);

/** The set's plan weighed against the zone's `total` records: the failure to throw, when it is too large. */
export function largeChange(
  zoneName: string,
  total: number,
  updates: number,
  deletes: number,
  given: { maxChangePercent?: number; allowLargeChange?: boolean },
): ValidationError | undefined {
  if (given.allowLargeChange === true || total < MIN_ZONE_RECORDS) return undefined;
  const percent = given.maxChangePercent ?? DEFAULT_MAX_CHANGE_PERCENT;
  const over = (
    [
      ["update", updates],
      ["delete", deletes],
    ] as const
  ).filter(([, n]) => n * 100 > percent * total);
  if (!over.length) return undefined;
  const said = over.map(([what, n]) => `${what}s ${n} of the zone's ${total} records (${((n * 100) / total).toFixed(1)}%)`).join(" and ");
  return new ValidationError({
    service: "edge",
    message: `DnsRecordSet in zone ${zoneName}: this change ${said}, over maxChangePercent ${percent}%; nothing was sent`,
    remedy:
      "If the change is meant, set `allowLargeChange: true` on this DnsRecordSet for this run (and remove it after), or raise `maxChangePercent`; if not, check the program's records",
  });
}

/** Deletes planned or made in this run, by resource (its URN): a resource diffed twice is counted once. */
const deletes = new Map<string, number>();
onForget(() => deletes.clear());

/**
 * Notes that the current resource deletes `n` records in this run (its whole plan, not an increment); fails, naming
 * the setting, when the run's total passes ops:maxDeletes.
 */
export function countDeletes(n: number, what: string): void {
  const raw = read(GENERAL_SETTINGS.maxDeletes);
  if (raw === undefined || raw === "") return;
  const limit = readNumber(GENERAL_SETTINGS.maxDeletes);
  const owner = currentOwner();
  const key = owner ? `${owner.stack}/${owner.resource}` : what;
  const before = deletes.get(key) ?? 0;
  deletes.set(key, Math.max(before, n));
  const total = [...deletes.values()].reduce((a, b) => a + b, 0);
  if (total > limit) {
    deletes.set(key, before);
    throw new ValidationError({
      service: "edge",
      message: `${what} would delete ${n} record${n === 1 ? "" : "s"}, and this run ${total} in all, over ops:maxDeletes ${limit}; nothing of it was sent`,
      remedy: `If the deletes are meant, raise ops:maxDeletes for this run (\`pulumi config set ops:maxDeletes ${total}\`, then back), or remove it; if not, check the program`,
    });
  }
}

/** A record set's check: the known records checked, those unknown until apply kept as the check will make them. */
import { isUnknown, checkWith, plannedObject, withoutProvider } from "../../check";
import { type Bag } from "../../handler";
import { DnsRecordSetInputs, SetRecord } from "./schema";

/** The known records checked, the ones with values unknown until apply passed through as they are. */
export function checkSet(news: Bag) {
  const given = withoutProvider(news);
  const records = given.records;
  if (!records || typeof records !== "object" || Array.isArray(records)) return checkWith(DnsRecordSetInputs, news);
  if (isUnknown(given.zoneName) || isUnknown(given.zoneId)) {
    // The zone unknown until apply: each record as the check will make it (a saved plan holds the apply to it).
    const r = checkWith(DnsRecordSetInputs, news);
    if (r.failures.length) return r;
    const planned = Object.fromEntries(Object.entries(records as Bag).map(([k, v]) => [k, plannedRecordOf(v)]));
    return { inputs: { ...r.inputs, records: planned }, failures: [] };
  }
  const pending: Bag = {};
  const known: Bag = {};
  // A record with a value unknown until apply keeps it so, with the rest as check will make it (defaults included):
  // what a saved plan holds the apply to.
  for (const [key, r] of Object.entries(records as Bag)) {
    if (!isUnknown(r)) known[key] = r;
    else pending[key] = plannedRecordOf(r);
  }
  const checked = checkWith(DnsRecordSetInputs, { ...given, records: known });
  if (checked.failures.length) return { inputs: given, failures: checked.failures };
  return { inputs: { ...checked.inputs, records: { ...(checked.inputs.records as Bag), ...pending } }, failures: [] };
}

/** One record of a set as its check will make it: parsed when known, else its known fields (plannedObject). */
function plannedRecordOf(r: unknown): unknown {
  if (!r || typeof r !== "object" || Array.isArray(r)) return r;
  if (isUnknown(r)) return plannedObject(SetRecord, r as Bag);
  const parsed = SetRecord.safeParse(r);
  return parsed.success ? parsed.data : r;
}

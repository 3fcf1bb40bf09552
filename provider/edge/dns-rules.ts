/**
 * Which records of a DnsRecord or DnsRecordSet check go through the DNS rules of dns-preview.ts: all of them for
 * the program's own rule, and only the new ones (a new resource, a set's added records) against the service.
 */
import { isUnknown } from "../check";
import { onForget } from "../forgetting";
import { checkAgainstService, declareRecords, forgetDeclaredRecords } from "./dns-preview";
import { valueOf } from "./dns-record/normalize";
import { expanded } from "./dns-record-set/text";
import { adopting, resolveZone } from "./zones";
import { checkRecordPlan } from "./dns-record/plan-limits";

onForget(() => {
  forgetDeclaredRecords();
  replacing.clear();
});

type Rec = { type: string; name: string; content?: string; data?: Record<string, unknown>; priority?: number };
type Bag = Record<string, unknown>;

/**
 * Records of resources checked with their old inputs in this run. The engine checks a resource it replaces a
 * second time with no old inputs; a DnsRecord's replacement deletes the old record first, so that second check is
 * not a new record meeting its own predecessor on the service.
 */
const replacing = new Set<string>();

/** Whether a new record that is already on the service is taken over (zones.ts `adopting`), not refused. */
const adopts = (inputs: Bag) => inputs.adopt === true || isUnknown(inputs.adopt) || adopting({});

const known = (r: unknown): r is Rec =>
  !!r && typeof r === "object" && !isUnknown(r) && typeof (r as Rec).type === "string" && typeof (r as Rec).name === "string";
const identity = (r: Rec) => `${r.type} ${r.name.toLowerCase()} ${valueOf(r)}`;

export async function dnsRules(type: string, given: Bag, oldGiven: Bag, againstService: boolean): Promise<void> {
  // A set's records may come as its compact text (dns-record-set/text.ts): the rules read them as a map.
  // The same text as before (a set's no-op): nothing new meets the service, and the old records need no reading.
  const sameText = typeof given.records === "string" && given.records === oldGiven.records;
  const [inputs, olds] = type === "edge:DnsRecordSet" ? [expanded(given), sameText ? {} : expanded(oldGiven)] : [given, oldGiven];
  // A zone given by id is looked up (once a run) where the checks may read: its name is what the rules compare.
  const byId =
    typeof inputs.zoneId === "string" && !isUnknown(inputs.zoneId) && againstService
      ? (await resolveZone({ zoneId: inputs.zoneId })).name
      : undefined;
  const zone = typeof inputs.zoneName === "string" && !isUnknown(inputs.zoneName) ? inputs.zoneName : byId;
  if (!zone) return;
  if (type === "edge:DnsRecord") {
    if (!known(inputs)) return;
    const what = `the program's ${inputs.type} record ${inputs.name} (${valueOf(inputs)})`;
    declareRecords(zone, [[what, inputs]]);
    if (againstService) await checkRecordPlan(zone, [[what, inputs]]);
    if (olds.type) replacing.add(`${zone} ${identity(inputs)}`);
    else if (againstService && !replacing.has(`${zone} ${identity(inputs)}`))
      await checkAgainstService(zone, [[what, inputs]], [], { kind: "DnsRecord", adopts: adopts(inputs) });
    return;
  }
  const records: [string, Rec][] = [];
  const mine: [string, Rec][] = [];
  for (const [key, r] of Object.entries((inputs.records ?? {}) as Bag)) {
    if (!known(r)) continue;
    records.push([key, r]);
    mine.push([`records.${key} (${r.type} ${r.name} ${valueOf(r)})`, r]);
  }
  declareRecords(zone, mine);
  if (!againstService || sameText) return;
  await checkRecordPlan(zone, mine);
  // New in this run: not among the set's previous records. A record the set removes frees its name for them.
  const old = Object.values((olds.records ?? {}) as Bag).filter(known);
  const before = new Set(old.map(identity));
  const now = new Set(records.map(([, r]) => identity(r)));
  const fresh = mine.filter(([, r]) => !before.has(identity(r)));
  // Only a new set is held to 81057/81058: an existing one may hold records made by a run that failed part way, kept by
  // id in its state (outputs check is not given), which its up does not make again.
  await checkAgainstService(
    zone,
    fresh,
    old.filter((r) => !now.has(identity(r))),
    { kind: "DnsRecordSet", adopts: adopts(inputs), ownState: olds.records !== undefined },
  );
  // A new set: what it removes when authoritative (listed), the rails, and the zone's records beyond the stack (said).
  // A set in state is reviewed by its diff, which knows its records' ids.
  if (olds.records === undefined && !isUnknown(inputs.authoritative) && !isUnknown(inputs.ignore)) {
    const { newSetKey, reviewPlan } = await import("./dns-record-set/review");
    const found = await resolveZone({ zoneName: zone });
    await reviewPlan(
      found,
      { ...(inputs as object), records: Object.fromEntries(records) },
      {},
      { updates: 0, deletes: 0 },
      newSetKey(found.id),
    );
  }
}

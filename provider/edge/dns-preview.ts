/**
 * The DNS rule a preview can decide before up: a name with a CNAME holds nothing else (RFC 1034 3.6.2; the
 * service answers 81053 / 81054). Checked twice:
 * - in the program, with no request: every record a DnsRecord or a DnsRecordSet declares in this run is noted by
 *   zone and name, and a CNAME beside another record of the program fails the check naming both;
 * - on the service, for records that are new in this run (a new DnsRecord, a set's added keys) and only with the
 *   preview checks on: the zone's records (one listing per zone and run, whatever the number of records), so a
 *   CNAME that would meet a record made outside the program fails the preview as it would fail the up.
 * A record that replaces one of the program in this run (a type change deletes first) is not new here.
 */
import { aRecord, fullName, valueOf } from "./dns-record/normalize";
import { edge, edgeScope, resolveZone } from "./zones";
import { takeoverNotice } from "../log";
import { createResumed } from "../create-journal";
import { stackOfTags, standing } from "../owner";

interface Declared {
  type: string;
  value: string;
  what: string;
}
type Rec = {
  type: string;
  name: string;
  content?: string;
  data?: Record<string, unknown>;
  priority?: number;
  ttl?: number;
  proxied?: boolean;
  comment?: string;
};

/** Records declared in this run, by zone and full name. */
const declared = new Map<string, Declared[]>();
const listings = new Map<string, Promise<Map<string, OnService[]>>>();

/** Host names the program's WorkerDomains attach, by zone and name: what a custom domain's record stands for. */
const workerDomains = new Map<string, string>();

export function forgetDeclaredRecords(): void {
  declared.clear();
  workerDomains.clear();
  listings.clear();
}

const clash = (a: { type: string; value: string }, b: { type: string; value: string }) =>
  (a.type === "CNAME" || b.type === "CNAME") && !(a.type === b.type && a.value === b.value);

/** A rule of DNS broken by the program: no request failed, so it is told as what it is. */
export class DnsRuleError extends Error {
  override name = "DnsRuleError";
}

function conflict(zone: string, name: string, mine: Declared, other: { type: string; what: string }): DnsRuleError {
  const remedy = other.what.startsWith("the existing")
    ? "Give one of them another name, or remove the record that is in the way first"
    : "Give one of them another name, or remove one of them from the program";
  return new DnsRuleError(
    `edge: ${mine.what} and ${other.what} are both at ${name} in zone ${zone}, and a name with a CNAME holds nothing else (RFC 1034; the service refuses the second with 81053). ${remedy}`,
  );
}

/**
 * The types a custom domain's host holds itself: the service answers one of them beside its record with 81062 "A DNS
 * record managed by Workers already exists on that host" (another type, a TXT, is not known to be refused).
 */
const ADDRESS_TYPES = ["A", "AAAA", "CNAME"];

/** A custom domain's host: the service makes its DNS record and keeps it read-only, so no DNS resource may hold one. */
function domainRecord(zone: string, name: string, what: string, domain: string): DnsRuleError {
  return new DnsRuleError(
    `edge: ${what} is at ${name} in zone ${zone}, a Worker's custom domain (${domain}): the service makes that host's DNS record itself and keeps it read-only. Remove this record from the program (the custom domain answers for the name)`,
  );
}

/** Notes a WorkerDomain of the program, and fails when a DNS record of the program is at its host name. */
export function declareWorkerDomain(zone: string, hostname: string, what: string): void {
  const key = `${zoneKey(zone)} ${hostname.toLowerCase()}`;
  workerDomains.set(key, what);
  const here = declared.get(key)?.find((d) => ADDRESS_TYPES.includes(d.type));
  if (here) throw domainRecord(zone, hostname, here.what, what);
}

/** Whether a resource of this run declared the record (type, full name and value) in zone `zone`. */
export function declaredInRun(
  zone: string,
  rec: { type: string; name: string; content?: string; data?: Record<string, unknown> | null; priority?: number },
): boolean {
  const value = valueOf(rec as Rec).toLowerCase();
  return (declared.get(`${zoneKey(zone)} ${rec.name.toLowerCase()}`) ?? []).some(
    (d) => d.type === rec.type && d.value.toLowerCase() === value,
  );
}

/** A zone's name as the program's records are noted under it: lower case, no trailing dot. */
const zoneKey = (zone: string) => zone.toLowerCase().replace(/\.$/, "");

/** Notes the program's records, and fails when a CNAME shares its name with another record of the program. */
export function declareRecords(zone: string, records: [what: string, rec: Rec][]): void {
  for (const [what, rec] of records) {
    const name = fullName(rec.name, zone);
    const key = `${zoneKey(zone)} ${name}`;
    const domain = ADDRESS_TYPES.includes(rec.type) && workerDomains.get(key);
    if (domain) throw domainRecord(zone, name, what, domain);
    const mine = { type: rec.type, value: valueOf(rec), what };
    const here = declared.get(key);
    if (!here) {
      declared.set(key, [mine]);
      continue;
    }
    const other = here.find((d) => clash(d, mine));
    if (other) throw conflict(zone, name, mine, { type: other.type, what: other.what });
    if (!here.some((d) => d.type === mine.type && d.value === mine.value && d.what === mine.what)) here.push(mine);
  }
}

/**
 * Fails when a record new in this run would meet a CNAME conflict with a record already on the service, or — unless
 * the resource adopts (`adopt`, `ops:edgeAdoptExisting`) — the same record made outside the program (81057/81058 at up).
 * An adopting resource says instead what it will take over. `ownState`: a set already in state, whose new records
 * may be ones a failed run made and its state keeps, is neither refused nor said to adopt.
 */
export async function checkAgainstService(
  zoneName: string,
  records: [what: string, rec: Rec][],
  freed: Rec[] = [],
  adopt: { kind: string; adopts: boolean; ownState?: boolean } = { kind: "DnsRecord", adopts: true },
): Promise<void> {
  if (!records.length) return;
  const zone = await resolveZone({ zoneName });
  // Records this run removes (a set's dropped keys) are gone before its new ones are made.
  const gone = new Set(freed.map((r) => `${r.type} ${fullName(r.name, zone.name)} ${valueOf(r)}`));
  const key = `${edgeScope()} ${zone.id}`;
  let list = listings.get(key);
  if (!list) listings.set(key, (list = byName(zone.id)));
  const onService = await list;
  const adoptions: string[] = [];
  let writes = 0; // adoptions that change the record there (its target, ttl, proxy or comment)
  for (const [what, rec] of records) {
    const name = fullName(rec.name, zone.name);
    const here = (onService.get(name) ?? []).filter((x) => !gone.has(`${x.type} ${name} ${x.value}`));
    if (!here.length) continue;
    const mine = { type: rec.type, value: valueOf(rec), what };
    // A custom domain's record (an address the service keeps), not any read-only one (Email Routing's DKIM TXT).
    const made = ADDRESS_TYPES.includes(rec.type) && here.find((x) => x.readOnly && ADDRESS_TYPES.includes(x.type));
    if (made) throw domainRecord(zone.name, name, what, `the service's read-only record ${made.id} is there`);
    // An adopting CNAME takes the name's CNAME over whatever its target (one per name), as does one taking back this
    // stack's own (its tag): not a clash.
    const takes = (x: OnService) => adopt.adopts || (adopt.kind === "DnsRecord" && standing(x.owner) === "mine");
    const there = here.find((x) => clash(x, mine) && !(takes(x) && x.type === "CNAME" && mine.type === "CNAME"));
    if (there)
      throw conflict(zone.name, name, mine, {
        type: there.type,
        what: `the existing ${aRecord(there.type).replace(/^an? /, "")} ${there.content} (id ${there.id})`,
      });
    const same = here.find((x) => x.type === rec.type && (x.value === mine.value || (takes(x) && rec.type === "CNAME")));
    const whose = same ? standing(same.owner) : undefined;
    if (whose === "theirs") {
      throw new DnsRuleError(
        `edge: ${what} is in zone ${zone.name} already (id ${same!.id}) and belongs to stack ${same!.owner} (its tag pulumi-ops-stack), so up would refuse to take it. Remove it from stack ${same!.owner} first, or leave it out of this program; to take it over from that stack anyway, set ops:adoptFromStack to ${same!.owner} for one run (with adopt: true)`,
      );
    }
    const taken = same && ((whose === "mine" && !adopt.ownState) || (createResumed() && !adopt.ownState) || adopt.adopts);
    if (taken && (same.value !== mine.value || changesOf(rec, same) !== NOTHING)) writes++;
    if (same && whose === "mine" && !adopt.ownState)
      adoptions.push(
        `${what}: id ${same.id}, this stack's own (its tag), taken back${same.value === mine.value ? "" : `, target ${same.content} -> ${rec.content}`}${changesOf(rec, same)}`,
      );
    // Made by an earlier create of this resource that never reached the state (a killed run): create takes it.
    else if (same && createResumed() && !adopt.ownState)
      adoptions.push(
        `${what}: id ${same.id}, made by an earlier create of this resource that never reached the stack's state${changesOf(rec, same)}`,
      );
    else if (same && adopt.adopts)
      adoptions.push(
        `${what}: id ${same.id}${same.value === mine.value ? "" : `, target ${same.content} -> ${rec.content}`}${changesOf(rec, same)}`,
      );
    else if (same && !adopt.ownState) {
      throw new DnsRuleError(
        `edge: ${what} already exists in zone ${zone.name} (id ${same.id}), made outside this program, so up would be refused (81058). Set \`adopt: true\` on this ${adopt.kind} to take it over, or remove it from the program. After an interrupted up, run the recovery up with \`pulumi config set ops:edgeAdoptExisting true\` (docs/reliability.md)`,
      );
    }
  }
  // Said at preview, as info (the preview reads, it writes nothing): what up will take over instead of making.
  if (adoptions.length === 1 && adopt.kind === "DnsRecord")
    takeoverNotice(
      `edge: will adopt ${adoptions[0].replace(/^the program's /, "")} (already in zone ${zone.name}): nothing is made`,
      1,
      writes,
    );
  else if (adoptions.length)
    takeoverNotice(
      `edge: ${adopt.kind} will adopt ${adoptions.length} record${adoptions.length > 1 ? "s" : ""} already in zone ${zone.name}, making none of them: ${adoptions.slice(0, 5).join("; ")}${adoptions.length > 5 ? `; and ${adoptions.length - 5} more` : ""}`,
      adoptions.length,
      writes,
    );
}

/** What an adoption changes of the record there (as the takeover's PATCH would): ttl, proxy, comment. */
function changesOf(rec: Rec, x: OnService): string {
  const changes: string[] = [];
  if (rec.proxied !== undefined && rec.proxied !== (x.proxied ?? false)) changes.push(`proxied ${x.proxied ?? false} -> ${rec.proxied}`);
  if (rec.ttl !== undefined && !rec.proxied && rec.ttl !== x.ttl) changes.push(`ttl ${x.ttl} -> ${rec.ttl}`);
  if (rec.comment !== undefined && (rec.comment || null) !== (x.comment || null))
    changes.push(`comment ${JSON.stringify(x.comment ?? "")} -> ${JSON.stringify(rec.comment)}`);
  return changes.length ? `, changing ${changes.join(", ")}` : NOTHING;
}
const NOTHING = ", nothing to change";

/** What the rules need of a record on the service; kept for the run, so not the whole record the service answers. */
interface OnService {
  type: string;
  value: string;
  content: string;
  id: string;
  ttl?: number;
  proxied?: boolean;
  comment?: string | null;
  /** The stack its tags name as owner (./dns-record/owner.ts). */
  owner?: string;
  /** Made and kept by the service (a Worker's custom domain's record). */
  readOnly?: boolean;
}

/** The zone's records by full name (lower case), from one listing: a set of 10,000 new records looks each up once. */
async function byName(zoneId: string): Promise<Map<string, OnService[]>> {
  const index = new Map<string, OnService[]>();
  for await (const rec of edge().dnsRecordValues(zoneId)) {
    const name = rec.name.toLowerCase();
    const kept = {
      type: rec.type,
      value: valueOf(rec),
      content: rec.content,
      id: rec.id,
      ttl: rec.ttl,
      proxied: rec.proxied,
      comment: rec.comment,
      owner: stackOfTags(rec.tags),
      ...(rec.meta?.read_only ? { readOnly: true } : {}),
    };
    const here = index.get(name);
    if (here) here.push(kept);
    else index.set(name, [kept]);
  }
  return index;
}

/**
 * `ops.edge.DnsRecord`: check / diff / create / read / update / delete against the edge API.
 * id: the record id (`Resource.get` also takes `<zoneId>/<recordId>`).
 */
import { checkWith, withoutProvider } from "../../check";
import { changedKeys, createByKey, deleteUnlessGone, unlessGone, type Bag, type Handler } from "../../handler";
import { readRecord } from "./batch-read";
import { countDeletes } from "../dns-record-set/guard";
import { AlreadyExistsError, ValidationError } from "../../http/errors";
import { log, notice, warn } from "../../log";
import { leftToAnother, withStackTag } from "../../owner";
import { labelled, labels, ownerOf, recordClaim, recordOwnedBy, recordStanding } from "./owner";
import type * as wire from "../wire";
import { adoptedInRun, claim, isClaimed, markAdopted } from "../../claims";
import { createResumed, resumedLine } from "../../create-journal";
import { adopting, edge, holdEdge, locate, recordsTakeTags, resolveZone, type ZoneRef, zoneKnownAtPreview } from "../zones";
import { programZoneInputs, zoneChanged, zoneOutputs, zoneScopedId } from "../zone-ref";
import { isDataType } from "./data";
import { aRecord, fullName, sameValue } from "./normalize";
import { DnsRecordInputs, type DnsRecordOutputs } from "./schema";
import { dnsRules } from "../dns-rules";
import { body, contentOut, differing, FIELDS, recordAnswer, sameField, tagKey, userTags } from "./mapping";

type Inputs = DnsRecordInputs;

/** Outputs from the record as the service reports it: the fields a set's record has too (mapping.ts), and the record's own. */
function outputs(wanted: Bag, zone: ZoneRef, rec: wire.DnsRecord): DnsRecordOutputs {
  return {
    ...zoneOutputs(wanted, zone),
    ...recordAnswer(wanted, zone, rec),
    content: contentOut(wanted, rec), // the service's rendering of a structured type's data, too
    adopt: wanted.adopt ?? false,
    hostname: rec.name,
    proxiable: rec.proxiable ?? false,
    createdOn: rec.created_on,
    modifiedOn: rec.modified_on,
  };
}

/** The inputs a program would need to match the record: what a refresh reports as drift. */
function inputsFrom(outs: DnsRecordOutputs, before: Bag): Bag {
  const ttl = outs.proxied && typeof before.ttl === "number" ? before.ttl : outs.ttl;
  const { hostname: _h, proxiable: _p, createdOn: _c, modifiedOn: _m, ...inputs } = outs;
  if (isDataType(outs.type)) delete (inputs as Bag).content; // rendered by the service from data
  return programZoneInputs({ ...inputs, ttl });
}

async function findExisting(zone: ZoneRef, b: wire.DnsRecordBody): Promise<wire.DnsRecord[]> {
  return Array.fromAsync(edge().dnsRecords(zone.id, { type: b.type, name: b.name }));
}

/** Notes records a resource holds in state, so no adopting resource of the run takes them. */
export function holdFromState(zoneId: string | undefined, ids: string[]): void {
  if (zoneId)
    holdEdge(
      "dns",
      ids.filter(Boolean).map((id) => `${zoneId}/${id}`),
    );
}

/** Types of which a name holds one record at most: an existing one of another value is the same object, rewritten. */
const ONE_PER_NAME = ["CNAME"];

export const dnsRecord: Handler<DnsRecordInputs, DnsRecordOutputs> = {
  // A CNAME beside another record of the program (no request), or beside one on the service (a read).
  preview: (ctx) => dnsRules(ctx.type, ctx.inputs, ctx.olds, ctx.reads),
  async check(_olds, news) {
    return checkWith(DnsRecordInputs, news);
  },

  async knownAtPreview(inputs) {
    // The service names a record by its full name, in lower case: what `hostname` is once made.
    const hostname =
      typeof inputs.name === "string" && typeof inputs.zoneName === "string" ? { hostname: fullName(inputs.name, inputs.zoneName) } : {};
    return { ...hostname, ...(await zoneKnownAtPreview(inputs)) };
  },

  async diff(id, olds, news) {
    const wanted = withoutProvider(news);
    holdFromState(olds.zoneId, [id.split("/").pop()!]); // in state: never another's to adopt
    const replaces: string[] = [];
    if (zoneChanged(wanted, olds as DnsRecordOutputs)) replaces.push(wanted.zoneId ? "zoneId" : "zoneName");
    if (wanted.type !== olds.type) replaces.push("type");
    const changed = changedKeys([...FIELDS], olds, wanted, sameField(olds.zoneName, wanted));
    // A new type at the same name (A -> CNAME) conflicts with the old record: remove the old one first.
    return { changes: replaces.length + changed.length > 0, replaces, deleteBeforeReplace: replaces.includes("type") };
  },

  async create(raw) {
    const r = raw as Inputs;
    const zone = await resolveZone(r);
    const b = body(r, zone);
    const what = `${b.type} record ${b.name}`;
    // Adopting: the record of this type, name and value no other resource holds (adoptOne); none, this one is made.
    if (adopting(r)) {
      const rec = await adoptOne(zone, b, await findExisting(zone, b), true);
      if (rec) return { id: rec.id, outs: outputs(r, zone, rec) };
    }
    let rec: wire.DnsRecord;
    try {
      // A lost answer is settled by looking for the identical record: found, it is ours; absent, sent again.
      rec = await createByKey({
        what,
        adopt: false, // taking over is decided on the service's 81057/81058 below, which also covers an A/CNAME clash
        resumable: false, // and so is a create an earlier run left unrecorded (adopt below: labels weighed first)
        find: async () => (await findExisting(zone, b)).find((x) => sameValue(x, b)),
        create: () => edge().createDnsRecord(zone.id, labelled(b, zone)),
        update: async (x) => x,
      });
    } catch (e) {
      if (!(e instanceof AlreadyExistsError)) throw e;
      rec = await adopt(r, zone, b, e);
    }
    claim(recordClaim(zone.id, rec.id));
    return { id: rec.id, outs: outputs(r, zone, rec) };
  },

  async read(id, props) {
    const [zoneId, recordId] = await locate(id, props, "DNS record", (z, x) => unlessGone(() => edge().getDnsRecord(z, x)));
    const rec = await readRecord(zoneId, recordId);
    if (!rec) return {};
    const zone = props.zoneName ? { id: zoneId, name: props.zoneName } : await resolveZone({ zoneId });
    const outs = outputs(props, zone, rec);
    // Inputs go back to the engine only for drift (or a lookup by get), so an unchanged resource keeps the
    // program's own inputs and a refresh shows nothing for it.
    const drifted =
      FIELDS.some((k) =>
        k === "tags" ? tagKey(outs.tags) !== tagKey(props.tags as string[]) : JSON.stringify(outs[k]) !== JSON.stringify(props[k]),
      ) || outs.type !== props.type;
    return drifted ? { id, props: outs, inputs: inputsFrom(outs, props) } : { id, props: outs };
  },

  async update(id, olds, news) {
    const r = withoutProvider(news) as Inputs;
    const zone = { id: olds.zoneId, name: olds.zoneName };
    const changed = changedKeys([...FIELDS], olds, r, sameField(zone.name, r));
    // Leaving the proxy: the record's ttl becomes the program's again.
    if (changed.includes("proxied") && !r.proxied && !changed.includes("ttl")) changed.push("ttl");
    const patch = body(r, zone, changed);
    // Read, merge, write: restored tags keep the owner's label the record carries (state holds no plan to tell), and
    // the settings the program does not give keep the record's values.
    if (patch.tags || patch.settings) {
      const now = await edge().getDnsRecord(zone.id, id);
      if (patch.tags) patch.tags = [...patch.tags, ...(now.tags ?? []).filter((t) => !userTags([t]).length)];
      if (patch.settings) patch.settings = { ...(now.settings ?? {}), ...patch.settings };
    }
    const rec = changed.length ? await edge().patchDnsRecord(zone.id, id, patch) : await edge().getDnsRecord(zone.id, id);
    return { outs: outputs(r, zone, rec) };
  },

  async delete(id, props) {
    const [zoneId, recordId] = zoneScopedId(id, props);
    if (adoptedInRun(recordClaim(zoneId, recordId))) {
      notice(
        `edge: the ${props.type ?? "DNS"} record ${props.hostname ?? recordId} was taken over by another resource of this run: not deleted`,
      );
      return;
    }
    // Where records carry the owner's label: one another stack took over (ops:adoptFromStack) is left to it.
    const zone = await unlessGone(() => resolveZone({ zoneId }));
    if (zone && recordsTakeTags(zone)) {
      const owner = ownerOf((await readRecord(zoneId, recordId)) ?? {});
      if (leftToAnother(owner)) {
        warn(
          `edge: the ${props.type ?? "DNS"} record ${props.hostname ?? recordId} belongs to stack ${owner} now (its tag), so this destroy leaves it`,
        );
        return;
      }
    }
    countDeletes(1, `the ${props.type ?? "DNS"} record ${props.hostname ?? recordId}`); // ops:maxDeletes
    await deleteUnlessGone(() => edge().deleteDnsRecord(zoneId, recordId));
  },
};

/**
 * The service's conflict answer, told as it is: the same record already there (adopt it), or a CNAME beside other
 * records at the name, which no option fixes (a name with a CNAME holds nothing else, RFC 1034).
 */
async function adopt(r: Inputs, zone: ZoneRef, b: wire.DnsRecordBody, conflict: AlreadyExistsError): Promise<wire.DnsRecord> {
  const same = await findExisting(zone, b);
  if (!same.length) {
    const others = await Array.fromAsync(edge().dnsRecords(zone.id, { name: b.name }));
    throw cnameConflict(b, others, zone.name, conflict);
  }
  // Adopting, or this stack's own record (its tag) left behind by its destroy, or made by an earlier create of this
  // resource that never reached the state (create-journal.ts): taken over.
  const resumed = createResumed();
  const rec = await adoptOne(zone, b, same, adopting(r) || resumed !== undefined);
  if (rec) {
    if (resumed && !adopting(r)) warn(`edge: ${resumedLine(`the ${b.type} record ${b.name}`, resumed)}; it is kept (nothing made twice)`);
    return rec;
  }
  if (!adopting(r)) {
    throw new AlreadyExistsError({
      service: "edge",
      status: conflict.status,
      code: conflict.code,
      message: `${aRecord(b.type!)} named ${b.name} already exists in zone ${zone.name} (${conflict.apiMessage})`,
      remedy:
        'Set `adopt: true` on this DnsRecord to take it over and update it, or read it without managing it with DnsRecord.get(name, "<zoneId>/<recordId>"). After an interrupted up, run the recovery up with `pulumi config set ops:edgeAdoptExisting true` (docs/reliability.md)',
    });
  }
  // The identical record is held by another resource of this run: two resources cannot hold one record.
  throw new AlreadyExistsError({
    service: "edge",
    status: conflict.status,
    code: conflict.code,
    message: `${aRecord(b.type!)} named ${b.name} in zone ${zone.name} is already another resource's of this stack (${conflict.apiMessage})`,
    remedy: "Keep one resource for this record: remove the other from the program, or change this one's value",
  });
}

/** The error for a record refused because a CNAME and another record would share a name. */
export function cnameConflict(
  b: wire.DnsRecordBody,
  others: wire.DnsRecord[],
  zoneName: string,
  cause?: AlreadyExistsError,
): ValidationError {
  const there = others.filter((x) => x.type !== b.type || b.type === "CNAME").map((x) => `${x.type} ${x.content}`);
  return new ValidationError({
    service: "edge",
    status: cause?.status,
    code: cause?.code,
    message: `${aRecord(b.type!)} cannot be added at ${b.name} in zone ${zoneName}: ${b.type === "CNAME" ? "a CNAME cannot share its name with other records" : "the name has a CNAME, which cannot share its name with other records"}, and ${b.name} already has ${there.slice(0, 3).join(", ") || "a record"}${there.length > 3 ? ` and ${there.length - 3} more` : ""}`,
    remedy:
      b.type === "CNAME"
        ? "Give the CNAME another name, or remove the other records at this name (in the program, or on the service) first"
        : "Give this record another name, or remove the CNAME at this name first",
  });
}

/**
 * Takes over the record of this type and name that has the program's value (its ttl, proxy and comment are then
 * made the program's), and that no other resource of this run holds (claims.ts). Several records may share a type
 * and name (two MX, a round-robin A pair): one of another value is someone else's, so none is rewritten and the
 * caller makes its own. Only where a name holds one record of the type (a CNAME) is that record taken and rewritten.
 * Labels (./owner.ts): another stack's record is never taken (refused naming it); this stack's own is taken even
 * without `adopt`; one with no label only with it.
 */
async function adoptOne(zone: ZoneRef, b: wire.DnsRecordBody, same: wire.DnsRecord[], adopt: boolean): Promise<wire.DnsRecord | undefined> {
  const free = same.filter((x) => !isClaimed(recordClaim(zone.id, x.id)));
  const fits = (x: wire.DnsRecord) => sameValue(x, b) || (ONE_PER_NAME.includes(b.type!) && same.length === 1);
  const takes = (x: wire.DnsRecord) => (adopt ? recordStanding(x) !== "theirs" : recordStanding(x) === "mine");
  const pick = free.find((x) => sameValue(x, b) && takes(x)) ?? free.find((x) => fits(x) && takes(x));
  if (!pick) {
    const theirs = free.find((x) => fits(x) && recordStanding(x) === "theirs");
    if (theirs) throw recordOwnedBy(`the ${b.type} record ${b.name}`, zone.name, theirs.id, ownerOf(theirs)!);
    if (adopt && same.length)
      log(
        `edge: ${same.length} ${b.type} record${same.length > 1 ? "s" : ""} named ${b.name} already there, none with this value free to adopt; making this one`,
      );
    return undefined;
  }
  claim(recordClaim(zone.id, pick.id)); // free a moment ago, with no await between: this resource's now
  markAdopted(recordClaim(zone.id, pick.id));
  return takeOver(zone, b, pick, `${b.type} record ${b.name}`);
}

/**
 * A takeover sends only what the existing record lacks, and nothing at all when it already is what the program
 * says: adopting a zone that matches the program writes nothing. A takeover that writes anyway labels the record as
 * this stack's (where the zone takes tags, other tags kept), and one from another stack (ops:adoptFromStack) always
 * does, so that stack's destroy leaves it.
 */
export async function takeOver(zone: ZoneRef, b: wire.DnsRecordBody, existing: wire.DnsRecord, what: string): Promise<wire.DnsRecord> {
  const patch = differing(existing, b);
  const fields = Object.keys(patch);
  const whose = recordStanding(existing);
  if (whose === "mine") notice(`edge: the ${what} (id ${existing.id}) is this stack's own (its tag): taken back`);
  const relabel = labels(zone) && whose !== "mine" && (fields.length > 0 || whose === "forced");
  if (!fields.length && !relabel) {
    notice(`edge: adopting the existing ${what} (id ${existing.id}): already as the program says, nothing sent`);
    return existing;
  }
  const was = (f: string) => (f === "content" || f === "data" ? existing.content : (existing as Bag)[f]);
  const now = (f: string) => (f === "data" ? JSON.stringify(patch.data) : (patch as Bag)[f]);
  const from = whose === "forced" ? `, from stack ${ownerOf(existing)} (ops:adoptFromStack)` : "";
  notice(`edge: adopting the existing ${what} (id ${existing.id}${fields.map((f) => `, ${f} ${was(f)} -> ${now(f)}`).join("")}${from})`);
  return edge().patchDnsRecord(zone.id, existing.id, relabel ? { ...patch, tags: withStackTag(patch.tags ?? existing.tags) } : patch);
}

/**
 * `ops.edge.WorkerDomain`. id: `<accountId>/<domainId>`. Natural key: the host name (one custom domain per host).
 * The service's PUT attaches a host name to a script whatever served it before, so a host attached already is
 * taken only with `adopt: true` (refused at preview naming its script otherwise). The DNS record the service makes
 * for it is the service's: DNS resources of the same name are refused at preview (dns-preview.ts), and a destroy
 * removes the record with the domain.
 */
import { checkWith, isUnknown, withoutProvider } from "../../check";
import { adoptedInRun } from "../../claims";
import { createResumed } from "../../create-journal";
import { changedKeys, createByKey, deleteUnlessGone, unlessGone, type Bag, type Handler } from "../../handler";
import { AlreadyExistsError, ValidationError } from "../../http/errors";
import { notice, takeoverNotice } from "../../log";
import type * as wire from "../wire";
import { declareWorkerDomain } from "../dns-preview";
import { adopting, edge, edgeClaim, holdEdge, resolveZone, type ZoneRef, zoneKnownAtPreview } from "../zones";
import { programZoneInputs, zoneChanged, zoneOutputs } from "../zone-ref";
import { WorkerDomainInputs, type WorkerDomainOutputs } from "./schema";

const same = (_k: string, a: unknown, b: unknown) => (a ?? "") === (b ?? "");
/** The environment is compared only where the program declares one (else it is the service's to keep). */
const fieldsOf = (r: Bag) => (r.environment === undefined ? ["script"] : ["script", "environment"]);

function outputs(wanted: Bag, zone: ZoneRef, d: wire.WorkerDomain): WorkerDomainOutputs {
  return {
    accountId: wanted.accountId,
    ...zoneOutputs(wanted, zone),
    hostname: d.hostname,
    script: d.service,
    ...(d.environment ? { environment: d.environment } : {}),
    adopt: wanted.adopt ?? false,
    domainId: d.id,
    ...(d.cert_id ? { certId: d.cert_id } : {}),
  };
}

/** `[accountId, domainId]`: the domain state holds (a re-attach may answer another id), else the id's. */
function domainOf(id: string, props: Bag): [string, string] {
  const [accountId, idDomain] = id.split("/", 2);
  return [accountId, (props.domainId as string | undefined) ?? idDomain];
}

const findDomain = async (accountId: string, hostname: string) =>
  (await edge().listWorkerDomains(accountId, { hostname })).find((d) => d.hostname === hostname);
const body = (r: Bag, zone: ZoneRef) => ({
  hostname: r.hostname,
  service: r.script,
  zone_id: zone.id,
  ...(r.environment ? { environment: r.environment } : {}),
});

export function domainTaken(hostname: string, script: string): AlreadyExistsError {
  return new AlreadyExistsError({
    service: "edge",
    message: `the host name ${hostname} is a custom domain already, served by the script ${script} (attached by another tool or stack)`,
    remedy:
      "Set `adopt: true` on this WorkerDomain to take it over (the host then serves this resource's script), or choose another host name",
  });
}

/** At preview (reads only): a host attached already is refused naming its script unless adopted; a move is said. */
async function previewDomain(r: Bag, olds: Bag): Promise<void> {
  if (["hostname", "script", "adopt", "zoneId", "zoneName", "accountId"].some((k) => isUnknown(r[k]))) return;
  const zone = await resolveZone(r);
  declareWorkerDomain(zone.name, r.hostname, `the WorkerDomain ${r.hostname} (script ${r.script})`);
  const inState = Object.keys(olds).length > 0 && olds.hostname === r.hostname && !zoneChanged(r, olds as WorkerDomainOutputs);
  if (inState) {
    if (olds.script !== r.script) notice(`edge: the custom domain ${r.hostname} moves from the script ${olds.script} to ${r.script}`);
    return;
  }
  const there = await findDomain(r.accountId, r.hostname);
  // Records of the host's own (not the service's): the attach is refused with 100117, whatever the program does later
  // in the same run (deletes run last), so they must go first.
  if (!there) {
    const own = (await Array.fromAsync(edge().dnsRecords(zone.id, { name: r.hostname }))).filter(
      (x) => !x.meta?.read_only && ["A", "AAAA", "CNAME"].includes(x.type),
    );
    if (own.length) {
      throw new ValidationError({
        service: "edge",
        code: 100117,
        message: `the host name ${r.hostname} has DNS records of its own (${own.map((x) => `${x.type} ${x.content}, id ${x.id}`).join("; ")}), and the service refuses to attach a custom domain there (100117)`,
        remedy:
          "Remove those records first: delete them, or take the DnsRecord resources that hold them out of the program and run up, then add this WorkerDomain",
      });
    }
  }
  if (!there || createResumed()) return;
  if (!adopting(r)) throw domainTaken(r.hostname, there.service);
  takeoverNotice(
    `edge: WorkerDomain ${r.hostname} will adopt the custom domain (id ${there.id}): ${there.service === r.script ? "it is served by this script already, nothing to change" : `it moves from the script ${there.service} to ${r.script}`}`,
    1,
    there.service === r.script ? 0 : 1,
  );
}

export const workerDomain: Handler<WorkerDomainInputs, WorkerDomainOutputs> = {
  preview: async (ctx) => {
    if (ctx.reads) await previewDomain(ctx.inputs, ctx.olds);
  },
  knownAtPreview: zoneKnownAtPreview,
  async check(_olds, news) {
    return checkWith(WorkerDomainInputs, news);
  },

  async diff(_id, olds, news) {
    holdEdge("domain", [olds.domainId]);
    const wanted = withoutProvider(news);
    const replaces = changedKeys(["accountId", "hostname"], olds, wanted, same);
    if (zoneChanged(wanted, olds as WorkerDomainOutputs)) replaces.push(wanted.zoneId ? "zoneId" : "zoneName");
    const changed = changedKeys(fieldsOf(wanted), olds, wanted, same);
    return { changes: replaces.length + changed.length > 0, replaces };
  },

  async create(r) {
    const zone = await resolveZone(r);
    const d = await createByKey({
      what: `custom domain ${r.hostname}`,
      adopt: adopting(r),
      find: () => findDomain(r.accountId, r.hostname),
      // The PUT attaches whatever was there: a host attached already is another's unless adopted (or resumed).
      create: async () => {
        const there = await findDomain(r.accountId, r.hostname);
        if (there) throw domainTaken(r.hostname, there.service);
        return edge().attachWorkerDomain(r.accountId, body(r, zone));
      },
      update: () => edge().attachWorkerDomain(r.accountId, body(r, zone)),
      unchanged: (x) => x.service === r.script && (r.environment === undefined || x.environment === r.environment),
      claimKey: (x) => edgeClaim("domain", x.id),
    });
    return { id: `${r.accountId}/${d.id}`, outs: outputs(r, zone, d) };
  },

  async read(id, props) {
    const [accountId, domainId] = domainOf(id, props);
    const d = await unlessGone(() => edge().getWorkerDomain(accountId, domainId));
    if (!d) return {};
    const zone = props.zoneName ? { id: d.zone_id, name: props.zoneName as string } : await resolveZone({ zoneId: d.zone_id });
    const outs = outputs({ ...props, accountId }, zone, d);
    if (!changedKeys(fieldsOf(props), props, outs, same).length) return { id, props: outs };
    const { domainId: _d, certId: _c, ...all } = outs;
    return { id, props: outs, inputs: programZoneInputs(props.environment === undefined ? { ...all, environment: undefined } : all) };
  },

  async update(_id, olds, news) {
    const r = withoutProvider(news);
    const zone = { id: olds.zoneId as string, name: olds.zoneName as string };
    return { outs: outputs(r, zone, await edge().attachWorkerDomain(r.accountId, body(r, zone))) };
  },

  async delete(id, props) {
    const [accountId, domainId] = domainOf(id, props);
    if (adoptedInRun(edgeClaim("domain", domainId)))
      return void notice(`edge: the custom domain ${props.hostname} was taken over by another resource of this run: not detached`);
    await deleteUnlessGone(() => edge().detachWorkerDomain(accountId, domainId));
  },
};

/**
 * `ops.edge.WorkerRoute`. id: `<zoneId>/<routeId>`. Natural key: the pattern (the service keeps one route per pattern
 * of a zone). A pattern routed already — to another script or to this one, by another tool or stack — is refused at
 * preview naming the script, unless `adopt: true`; then the route is taken over and pointed at this script. Only
 * this resource's route is ever written or deleted: the zone's other routes are left as they are.
 */
import { checkWith, isUnknown, withoutProvider } from "../../check";
import { adoptedInRun } from "../../claims";
import { createResumed } from "../../create-journal";
import { changedKeys, createByKey, deleteUnlessGone, unlessGone, type Bag, type Handler } from "../../handler";
import { AlreadyExistsError } from "../../http/errors";
import { notice, takeoverNotice } from "../../log";
import type * as wire from "../wire";
import { adopting, edge, edgeClaim, holdEdge, resolveZone, type ZoneRef, zoneKnownAtPreview } from "../zones";
import { programZoneInputs, zoneChanged, zoneOutputs } from "../zone-ref";
import { WorkerRouteInputs, type WorkerRouteOutputs } from "./schema";

const FIELDS = ["pattern", "script"];
const same = (_k: string, a: unknown, b: unknown) => (a ?? "") === (b ?? "");
const scriptOf = (x: { script?: string | null }) => x.script || undefined;
const body = (r: Bag) => ({ pattern: r.pattern, ...(r.script ? { script: r.script } : {}) });
const says = (script: string | undefined) => (script ? `the script ${script}` : "no script");

function outputs(wanted: Bag, zone: ZoneRef, route: wire.WorkerRoute): WorkerRouteOutputs {
  const script = scriptOf(route);
  return {
    ...zoneOutputs(wanted, zone),
    pattern: route.pattern,
    ...(script ? { script } : {}),
    adopt: wanted.adopt ?? false,
    routeId: route.id,
  };
}

/** `[zoneId, routeId]`: the route state holds (another one where an update took one over), else the id's. */
function routeOf(id: string, props: Bag): [string, string] {
  const [zoneId, idRoute] = id.includes("/") ? id.split("/", 2) : [props.zoneId as string, id];
  return [zoneId, (props.routeId as string | undefined) ?? idRoute];
}

/** The zone's route with this pattern (the service's key), if any. */
const findRoute = async (zone: ZoneRef, pattern: string) => (await edge().listWorkerRoutes(zone.id)).find((x) => x.pattern === pattern);

/** A pattern the zone routes already, which a create or a move onto it would take. */
export function routeTaken(pattern: string, zone: string, script: string | undefined): AlreadyExistsError {
  return new AlreadyExistsError({
    service: "edge",
    message: `the pattern ${pattern} of zone ${zone} is routed already, to ${says(script)} (by another tool or stack)`,
    remedy: "Set `adopt: true` on this WorkerRoute to take the route over (it then runs this resource's script), or choose another pattern",
  });
}

/**
 * At preview (reads only): a new route whose pattern the zone routes already is refused naming the script it runs
 * (unless adopted, then the takeover is said); a route that moves from one script to another, or onto a pattern
 * routed elsewhere, is said or refused the same way.
 */
async function previewRoute(r: Bag, olds: Bag): Promise<void> {
  if (["pattern", "script", "adopt", "zoneId", "zoneName"].some((k) => isUnknown(r[k]))) return;
  const zone = await resolveZone(r);
  const inState = Object.keys(olds).length > 0 && !zoneChanged(r, olds as WorkerRouteOutputs);
  if (inState && olds.script !== r.script)
    notice(`edge: the route ${r.pattern} of ${zone.name} moves from ${says(olds.script)} to ${says(r.script)}`);
  if (inState && olds.pattern === r.pattern) return;
  const there = await findRoute(zone, r.pattern);
  if (!there || there.id === olds.routeId) return;
  if (!inState && createResumed()) return; // an earlier create of this very route, never recorded: taken back
  if (!adopting(r)) throw routeTaken(r.pattern, zone.name, scriptOf(there));
  takeoverNotice(
    `edge: WorkerRoute ${r.pattern} will adopt the zone's route (id ${there.id}): ${scriptOf(there) === r.script ? "it runs this script already, nothing to change" : `it moves from ${says(scriptOf(there))} to ${says(r.script)}`}`,
    1,
    scriptOf(there) === r.script ? 0 : 1,
  );
}

export const workerRoute: Handler<WorkerRouteInputs, WorkerRouteOutputs> = {
  preview: async (ctx) => {
    if (ctx.reads) await previewRoute(ctx.inputs, ctx.olds);
  },
  knownAtPreview: zoneKnownAtPreview,
  async check(_olds, news) {
    return checkWith(WorkerRouteInputs, news);
  },

  async diff(_id, olds, news) {
    holdEdge("route", [olds.routeId]);
    const wanted = withoutProvider(news);
    const replaces = zoneChanged(wanted, olds as WorkerRouteOutputs) ? [wanted.zoneId ? "zoneId" : "zoneName"] : [];
    const changed = changedKeys(FIELDS, olds, wanted, same);
    return { changes: replaces.length + changed.length > 0, replaces };
  },

  async create(r) {
    const zone = await resolveZone(r);
    const route = await createByKey({
      what: `route ${r.pattern} in ${zone.name}`,
      adopt: adopting(r),
      find: () => findRoute(zone, r.pattern),
      create: () => edge().createWorkerRoute(zone.id, body(r)),
      update: (existing) => edge().updateWorkerRoute(zone.id, existing.id, body(r)),
      unchanged: (existing) => scriptOf(existing) === r.script,
      claimKey: (x) => edgeClaim("route", x.id),
    });
    return { id: `${zone.id}/${route.id}`, outs: outputs(r, zone, route) };
  },

  async read(id, props) {
    const [zoneId, routeId] = routeOf(id, props);
    const route = await unlessGone(() => edge().getWorkerRoute(zoneId, routeId));
    if (!route) return {};
    const zone = props.zoneName ? { id: zoneId, name: props.zoneName as string } : await resolveZone({ zoneId });
    const outs = outputs(props, zone, route);
    if (!changedKeys(FIELDS, props, outs, same).length) return { id, props: outs };
    const { routeId: _r, ...all } = outs;
    return { id, props: outs, inputs: programZoneInputs(all) };
  },

  async update(_id, olds, news) {
    const r = withoutProvider(news);
    const zone = { id: olds.zoneId as string, name: olds.zoneName as string };
    // Moved onto a pattern another route holds (the service keeps one route a pattern): with adopt, that route is
    // taken and this one removed; without, refused as the preview refuses it.
    if (olds.pattern !== r.pattern) {
      const there = await findRoute(zone, r.pattern);
      if (there && there.id !== olds.routeId) {
        if (!adopting(r)) throw routeTaken(r.pattern, zone.name, scriptOf(there));
        notice(
          `edge: the route ${olds.pattern} moves onto ${r.pattern}, taking over the zone's route there (id ${there.id}); the old route is removed`,
        );
        const taken = scriptOf(there) === r.script ? there : await edge().updateWorkerRoute(zone.id, there.id, body(r));
        await deleteUnlessGone(() => edge().deleteWorkerRoute(zone.id, olds.routeId as string));
        return { outs: outputs(r, zone, taken) };
      }
    }
    return { outs: outputs(r, zone, await edge().updateWorkerRoute(zone.id, olds.routeId as string, body(r))) };
  },

  async delete(id, props) {
    const [zoneId, routeId] = routeOf(id, props);
    // Taken over by another resource's create in this run (renamed without an alias): left to it.
    if (adoptedInRun(edgeClaim("route", routeId)))
      return void notice(`edge: the route ${props.pattern} was taken over by another resource of this run: not deleted`);
    await deleteUnlessGone(() => edge().deleteWorkerRoute(zoneId, routeId));
  },
};

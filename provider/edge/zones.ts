/**
 * Zone resolution shared by every zone-scoped edge resource: `zoneId`, or `zoneName` looked up through
 * `GET /zones?name=`. Cached for the life of the provider process (one `pulumi` command), never across runs.
 */
import { edgeConfig, GENERAL_SETTINGS, readFlag } from "../config";
import { NotFoundError, ValidationError } from "../http/errors";
import { zoneScopedId } from "./zone-ref";
import { EdgeClient } from "./client";
import { hold } from "../claims";

const clients = new Map<string, EdgeClient>();

/** The edge client of the current configuration (one per named account), kept for the whole run. */
export function edge(): EdgeClient {
  const config = edgeConfig();
  const key = JSON.stringify(config);
  let client = clients.get(key);
  if (!client) clients.set(key, (client = EdgeClient.fromConfig(config)));
  return client;
}

/** The claim key of an edge object (claims.ts): per account, as two accounts may hold objects of one id. */
export const edgeClaim = (kind: string, id: string) => `${edgeScope()} ${kind} ${id}`;

/** Notes objects a resource holds in state (a diff's ids), so that no adopting resource of the run takes them. */
export function holdEdge(kind: string, ids: (string | undefined)[]): void {
  try {
    hold(...ids.filter((id): id is string => !!id).map((id) => edgeClaim(kind, id)));
  } catch {
    // No edge configuration (a diff needs none): nothing will be created in this process either.
  }
}

export interface ZoneRef {
  id: string;
  name: string;
  /** The zone's plan (`free`, `pro`, `business`, `enterprise`) where it was looked up; unset when taken from state. */
  plan?: string;
}

/** Whether the zone's records take tags (the owner's label): a paid plan's (Free's quota is 0, code 9300). */
export const recordsTakeTags = (zone: ZoneRef) => zone.plan !== undefined && zone.plan !== "free";

const scopes = new WeakMap<EdgeClient, string>();

/**
 * The current edge client as a key prefix: what a run caches per zone (listings, batches) is kept per account,
 * as two accounts can each have a zone of one id (emulators, or tokens of different scope on one account).
 */
export function edgeScope(): string {
  const client = edge();
  let scope = scopes.get(client);
  if (!scope) scopes.set(client, (scope = `client${clients.size}`));
  return scope;
}

/** Zones found so far, per client: two accounts may see different zones under one name. */
const found = new WeakMap<EdgeClient, { byName: Map<string, Promise<ZoneRef>>; byId: Map<string, Promise<ZoneRef>> }>();

/** Forgets the zones found (a test that changes a zone's plan between two runs of one process). */
export function forgetZones(): void {
  for (const client of clients.values()) found.delete(client);
}

export function resolveZone(args: { zoneId?: string; zoneName?: string }): Promise<ZoneRef> {
  const client = edge();
  let seen = found.get(client);
  if (!seen) found.set(client, (seen = { byName: new Map(), byId: new Map() }));
  const { byName, byId } = seen;
  if (args.zoneName) {
    const name = args.zoneName.toLowerCase().replace(/\.$/, "");
    let p = byName.get(name);
    if (!p) {
      p = client.listZones({ name }).then((zones) => {
        const matches = zones.filter((z) => z.name.toLowerCase() === name);
        if (matches.length !== 1) {
          throw new ValidationError({
            service: "edge",
            message: matches.length ? `${matches.length} zones are named "${name}"` : `no zone named "${name}" is visible to this token`,
            remedy: matches.length ? "Set zoneId instead of zoneName" : "Check the zone name, or give the token Zone read permission on it",
          });
        }
        return { id: matches[0].id, name: matches[0].name, plan: matches[0].plan?.legacy_id };
      });
      p.catch(() => byName.delete(name));
      byName.set(name, p);
    }
    return p;
  }
  const id = args.zoneId!;
  let p = byId.get(id);
  if (!p) {
    p = client.getZone(id).then((z) => ({ id: z.id, name: z.name, plan: z.plan?.legacy_id }));
    p.catch(() => byId.delete(id));
    byId.set(id, p);
  }
  return p;
}

/** Whether a create takes over an object that already has its natural key: `adopt` on the resource, or
 * `ops:edgeAdoptExisting` for a whole recovery run (after an interrupted up; docs/reliability.md). */
export function adopting(r: { adopt?: boolean }): boolean {
  return r.adopt === true || edgeConfig().adoptExisting;
}

/**
 * `[zoneId, objectId]` for a read: `<zoneId>/<id>` as given, the zone from state, or — for `X.get(name, id)` with
 * the bare id the resource's `.id` output holds — the zone of the account where `exists` finds it (the API needs
 * the zone in every path). Found nowhere: one error naming what to pass instead.
 */
export async function locate(
  id: string,
  props: { zoneId?: string },
  what: string,
  exists: (zoneId: string, objectId: string) => Promise<unknown>,
): Promise<[string, string]> {
  if (id.includes("/") || props.zoneId) return zoneScopedId(id, props);
  for (const z of await edge().listZones()) if (await exists(z.id, id)) return [z.id, id];
  throw new NotFoundError({
    service: "edge",
    message: `no ${what} has id ${id} in the zones this token can read`,
    remedy: `Pass get() the id the resource's .id output holds, or "<zoneId>/<id>", with a token that can read that zone`,
  });
}

/**
 * A zone-scoped resource's zone id, known at preview when the program names its zone (the id a preview check looked
 * up, one read a run): what the handlers' knownAtPreview answers, so a text built from it shows in the preview.
 */
export async function zoneKnownAtPreview(inputs: { zoneId?: unknown; zoneName?: unknown }): Promise<{ zoneId?: string }> {
  if (typeof inputs.zoneName !== "string" || inputs.zoneId !== undefined || !readFlag(GENERAL_SETTINGS.previewChecks)) return {};
  return { zoneId: (await resolveZone({ zoneName: inputs.zoneName })).id };
}

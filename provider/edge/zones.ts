/**
 * Zone resolution shared by every zone-scoped edge resource: `zoneId`, or `zoneName` looked up through
 * `GET /zones?name=`. Cached for the life of the provider process (one `pulumi` command), never across runs.
 */
import { edgeConfig } from "../config";
import { NotFoundError, ValidationError } from "../http/errors";
import { zoneScopedId } from "./zone-ref";
import { EdgeClient } from "./client";

let cached: { key: string; client: EdgeClient } | undefined;

/** The process's edge client, rebuilt only when the configuration changes. */
export function edge(): EdgeClient {
  const config = edgeConfig();
  const key = JSON.stringify(config);
  if (!cached || cached.key !== key) cached = { key, client: EdgeClient.fromConfig(config) };
  return cached.client;
}

export interface ZoneRef {
  id: string;
  name: string;
}

const byName = new Map<string, Promise<ZoneRef>>();
const byId = new Map<string, Promise<ZoneRef>>();

export function resolveZone(args: { zoneId?: string; zoneName?: string }): Promise<ZoneRef> {
  if (args.zoneName) {
    const name = args.zoneName.toLowerCase().replace(/\.$/, "");
    let p = byName.get(name);
    if (!p) {
      p = edge().listZones({ name }).then((zones) => {
        const matches = zones.filter((z) => z.name.toLowerCase() === name);
        if (matches.length !== 1) {
          throw new ValidationError({
            service: "edge",
            message: matches.length ? `${matches.length} zones are named "${name}"` : `no zone named "${name}" is visible to this token`,
            remedy: matches.length ? "Set zoneId instead of zoneName" : "Check the zone name, or give the token Zone read permission on it",
          });
        }
        return { id: matches[0].id, name: matches[0].name };
      });
      p.catch(() => byName.delete(name));
      byName.set(name, p);
    }
    return p;
  }
  const id = args.zoneId!;
  let p = byId.get(id);
  if (!p) {
    p = edge().getZone(id).then((z) => ({ id: z.id, name: z.name }));
    p.catch(() => byId.delete(id));
    byId.set(id, p);
  }
  return p;
}

/** Whether a create takes over an object that already has its natural key: `adopt` on the resource, or
 * `edge:adoptExisting` for a whole recovery run (after an interrupted up; docs/reliability.md). */
export function adopting(r: { adopt?: boolean }): boolean {
  return r.adopt === true || edgeConfig().adoptExisting;
}

/**
 * `[zoneId, objectId]` for a read: `<zoneId>/<id>` as given, the zone from state, or — for `X.get(name, id)` with
 * the bare id the resource's `.id` output holds — the zone of the account where `exists` finds it (the API needs
 * the zone in every path). Found nowhere: one error naming what to pass instead.
 */
export async function locate(id: string, props: { zoneId?: string }, what: string, exists: (zoneId: string, objectId: string) => Promise<unknown>): Promise<[string, string]> {
  if (id.includes("/") || props.zoneId) return zoneScopedId(id, props);
  for (const z of await edge().listZones()) if (await exists(z.id, id)) return [z.id, id];
  throw new NotFoundError({ service: "edge", message: `no ${what} has id ${id} in the zones this token can read`, remedy: `Pass get() the id the resource's .id output holds, or "<zoneId>/<id>", with a token that can read that zone` });
}

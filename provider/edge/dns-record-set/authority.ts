/**
 * A zone's records beyond the program: which ones no resource of the stack holds (getUnmanagedRecords, and the count
 * a DnsRecordSet's preview says), and which ones an `authoritative` set removes. Never any of:
 * - the service's own records: read-only (`meta.read_only`: a Worker's custom domain, Email Routing, ...), those a
 *   Worker is their origin of (`meta.origin_worker_id`), and those an app or a tunnel manages (`meta.managed_by_*`):
 *   listed apart, as the service refuses their change or makes them again;
 * - a record a pulumi-ops resource labelled (its `pulumi-ops-stack:` tag, where the zone's records take tags), of this
 *   stack or another;
 * - a record another resource of this run holds (claims.ts: in its state as its diff named it, or made or taken over
 *   by its create);
 * - a record whose name an `ignore` pattern matches.
 * The same rules serve the function and the set, so what the function lists is what the set would remove.
 */
import { z } from "zod";
import { isClaimed } from "../../claims";
import { onForget } from "../../forgetting";
import { stackOfTags } from "../../owner";
import type * as wire from "../wire";
import { fullName, valueOf } from "../dns-record/normalize";
import { recordClaim } from "../dns-record/owner";
import { declaredInRun } from "../dns-preview";
import { edge, edgeScope } from "../zones";

/** Why a record is the service's and not the program's. */
export type Apart = "read-only" | "worker" | "system";

/**
 * Why the service keeps a record itself, if it does. The API's schema promises none of these flags (its `meta` was
 * untyped until 2026-05); they are what the service is seen to send (docs/service-today.md): `meta.read_only` on the
 * records it made (a custom domain's `AAAA 100::`, Email Routing's DKIM), `meta.origin_worker_id` on a custom
 * domain's, `meta.email_routing` and a top-level `locked` on Email Routing's MX and SPF, `meta.managed_by_apps` /
 * `managed_by_argo_tunnel` on an app's or a tunnel's. A plain proxied `AAAA 100::` a user made for a route is theirs.
 */
export function serviceKept(rec: Pick<wire.DnsRecord, "meta" | "type" | "content" | "locked">): Apart | undefined {
  const meta = (rec.meta ?? {}) as Record<string, unknown>;
  if (meta.origin_worker_id || (meta.read_only && rec.type === "AAAA" && rec.content === "100::")) return "worker";
  if (meta.read_only || meta.email_routing || rec.locked) return "read-only";
  if (meta.managed_by_apps || meta.managed_by_argo_tunnel) return "system";
  return undefined;
}

/**
 * `ignore`: a record's name relative to the zone (`@` the apex, `*` any characters within the name, so `*.dev` is
 * every name under dev), optionally followed by the types it applies to (`_acme-challenge* TXT`, `@ MX,TXT`).
 */
export const IGNORE = /^(\S+)(?:\s+([A-Za-z0-9]+(?:,[A-Za-z0-9]+)*))?$/;
export const IgnorePattern = z
  .string()
  .trim()
  .regex(
    IGNORE,
    "an ignore pattern is a record name relative to the zone (`@` the apex, `*` any characters), optionally followed by types: `_acme-challenge* TXT`",
  );

export type Matcher = (rec: { type: string; name: string }) => boolean;

/** The pattern as a test of a record (its full name, lower case, under `zoneName`). */
export function matcher(pattern: string, zoneName: string): Matcher {
  const [, name, types] = IGNORE.exec(pattern.trim()) ?? [];
  // `*` alone is every name, the apex too; any other pattern is a name relative to the zone, or full (a dot ending it).
  const full = name === "*" ? "*" : fullName(name, zoneName);
  const re = new RegExp(`^${full.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*")}$`);
  const only = types ? new Set(types.toUpperCase().split(",")) : undefined;
  return (rec) => re.test(rec.name.toLowerCase()) && (!only || only.has(rec.type.toUpperCase()));
}

/** One record beyond the program, as the function and the preview tell it. */
export interface Stray {
  id: string;
  type: string;
  /** Relative to the zone, `@` for the apex (as a set's records take it). */
  name: string;
  content: string;
  ttl: number;
  proxied: boolean;
  priority?: number;
  comment?: string;
}

/** A full name relative to its zone, `@` for the apex. */
export function relativeName(name: string, zoneName: string): string {
  const full = fullName(name, zoneName);
  const zone = fullName("@", zoneName);
  return full === zone ? "@" : full.slice(0, -zone.length - 1);
}

export function strayOf(rec: wire.DnsRecord, zoneName: string): Stray {
  return {
    id: rec.id,
    type: rec.type,
    name: relativeName(rec.name, zoneName),
    content: rec.content,
    ttl: rec.ttl,
    proxied: rec.proxied ?? false,
    ...(rec.priority !== undefined && rec.priority !== null ? { priority: rec.priority } : {}),
    ...(rec.comment ? { comment: rec.comment } : {}),
  };
}

/** `TYPE name content`, for a line that names a record. */
export const describe = (s: Pick<Stray, "type" | "name" | "content">) => `${s.type} ${s.name} ${s.content}`;

/** The zone's records, listed once a run (the preview's and the up's counts read the same listing). */
const listings = new Map<string, Promise<wire.DnsRecord[]>>();
export function zoneListing(zoneId: string): Promise<wire.DnsRecord[]> {
  const key = `${edgeScope()} ${zoneId}`;
  let p = listings.get(key);
  if (!p) {
    p = Array.fromAsync(edge().dnsRecords(zoneId, {}, 5000));
    p.catch(() => listings.delete(key));
    listings.set(key, p);
  }
  return p;
}
export function forgetZoneListings(): void {
  listings.clear();
}
onForget(forgetZoneListings);

/** The zone's records sorted into the service's own (apart) and those no resource holds (unmanaged). */
export function sortRecords(
  records: wire.DnsRecord[],
  zone: { id: string; name: string },
  managed: Set<string>,
): { unmanaged: wire.DnsRecord[]; apart: [wire.DnsRecord, Apart][]; labelled: wire.DnsRecord[] } {
  const unmanaged: wire.DnsRecord[] = [];
  const apart: [wire.DnsRecord, Apart][] = [];
  const labelled: wire.DnsRecord[] = [];
  for (const rec of records) {
    const kept = serviceKept(rec);
    if (kept) apart.push([rec, kept]);
    else if (managed.has(rec.id) || isClaimed(recordClaim(zone.id, rec.id))) continue;
    else if (stackOfTags(rec.tags)) labelled.push(rec);
    else unmanaged.push(rec);
  }
  return { unmanaged, apart, labelled };
}

type Declared = { type: string; name: string; content?: string; data?: Record<string, unknown>; priority?: number };

/** Whether an authoritative set holds the whole zone: it declares the apex and gives `ignore` (even `[]`). */
export function wholeZone(zone: { name: string }, set: { records: Record<string, Declared>; ignore?: string[] }): boolean {
  return set.ignore !== undefined && Object.values(set.records).some((r) => fullName(r.name, zone.name) === fullName("@", zone.name));
}

/**
 * What an authoritative set removes: the records of the names it declares (of the whole zone when it declares the
 * apex and gives `ignore`), that are not its own (`ids`), not identical to one it declares (that one is taken over or
 * refused, as without authority), and that no rule above keeps.
 */
export function strays(
  records: wire.DnsRecord[],
  zone: { id: string; name: string },
  set: { records: Record<string, Declared>; ids: Record<string, string>; ignore?: string[] },
): wire.DnsRecord[] {
  const declared = Object.values(set.records);
  const names = new Set(declared.map((r) => fullName(r.name, zone.name)));
  const whole = wholeZone(zone, set);
  const same = new Set(declared.map((r) => `${r.type} ${fullName(r.name, zone.name)} ${valueOf(r).toLowerCase()}`));
  const ignored = (set.ignore ?? []).map((p) => matcher(p, zone.name));
  const { unmanaged } = sortRecords(records, zone, new Set(Object.values(set.ids ?? {})));
  return unmanaged.filter((rec) => {
    const name = rec.name.toLowerCase();
    if (!whole && !names.has(name)) return false;
    if (ignored.some((m) => m(rec))) return false;
    // Declared by another resource of this run (its check ran first: declared before the set in the program).
    if (declaredInRun(zone.name, rec as never)) return false;
    return !same.has(`${rec.type} ${name} ${valueOf(rec as never).toLowerCase()}`);
  });
}

/**
 * The edge network's read-only functions. They run in the program's process (a program awaits them or turns
 * them into outputs), with the same configuration as the resources: stack config first, then the environment.
 */
import { z } from "zod";
import { requireArgs } from "../check";
import { ValidationError } from "../http/errors";
import { isHostname } from "./dns-record/normalize";
import { RECORD_TYPES } from "./dns-record/normalize";
import { parseZoneFile as readZoneFile, toZoneFile as writeZoneFile } from "./zone-file";
import { cacheByLocation, securityEvents, zoneTotals } from "./analytics";
import { edge, resolveZone } from "./zones";
import { sortRecords, strayOf } from "./dns-record-set/authority";
import { stackOfTags } from "../owner";

const ZoneId = z
  .string()
  .regex(/^[0-9a-f]{32}$/, "zoneId must be the zone's 32-character hexadecimal id")
  .describe("The zone's id (`getZone` gives it).");
/** `since`: a negative offset in minutes or an RFC 3339 time. `until`: `now` or an RFC 3339 time. */
const Time = z.string().refine((t) => !Number.isNaN(Date.parse(t)) && /^\d{4}-\d{2}-\d{2}T/.test(t), {
  error: "must be an RFC 3339 time such as 2026-11-01T00:00:00Z",
});

/** A zone and a window of time, as the analytics functions take them: `since` before `until`. */
function windowArgs(defaultSince: number, sinceDescription: string) {
  return z
    .object({
      zoneId: ZoneId,
      since: z
        .union([z.number().int().max(-1, "since as a number is a negative offset in minutes, e.g. -1440"), Time])
        .default(defaultSince)
        .describe(sinceDescription),
      until: z
        .union([z.literal("now"), Time])
        .default("now")
        .describe("`now` or an RFC 3339 time."),
    })
    .refine((a) => typeof a.since === "number" || a.until === "now" || Date.parse(a.since) < Date.parse(a.until), {
      error: "since must be before until",
      path: ["since"],
    });
}

export const functionArgs = {
  getZone: z.object({ name: z.string().min(1).describe("The zone's domain name.") }),
  verifyToken: z.object({}),
  getZoneAnalytics: windowArgs(-10080, "A negative offset in minutes (e.g. -1440) or an RFC 3339 time; whole days are counted."),
  getSecurityEvents: windowArgs(
    -1440,
    "A negative offset in minutes (e.g. -60) or an RFC 3339 time; the dataset's limits for the zone's plan apply (a day wide on the Free plan).",
  ),
  getCacheStats: windowArgs(
    -1440,
    "A negative offset in minutes (e.g. -60) or an RFC 3339 time; the dataset's limits for the zone's plan apply (a day wide on the Free plan).",
  ),
  parseZoneFile: z.object({
    text: z
      .string()
      .min(1, "text must not be empty: give the zone file's contents")
      .describe("The zone file's contents (RFC 1035 master file, as BIND writes it)."),
    origin: z
      .string()
      .min(1)
      .refine((o) => isHostname(o), { error: "origin must be the zone's name, such as example.com" })
      .describe("The zone's name: relative names in the file are under it, and every record must be inside it."),
    skipUnsupported: z
      .boolean()
      .default(false)
      .describe(
        "Leave out whole records of known types the service does not manage (HINFO, RP, ...; each listed in `skipped`) instead of failing. A line that is not a valid record is always an error.",
      ),
  }),
  toZoneFile: z.object({
    origin: z
      .string()
      .min(1)
      .refine((o) => isHostname(o), { error: "origin must be the zone's name, such as example.com" })
      .describe("The zone's name, written as `$ORIGIN`."),
    records: z
      .union([
        z.record(z.string(), z.looseObject({ type: z.enum(RECORD_TYPES), name: z.string() })),
        z.array(z.looseObject({ type: z.enum(RECORD_TYPES), name: z.string() })),
      ])
      .describe(
        "The records: a DnsRecordSet's `records` output, or a map or list of records (type, name, content or data, ttl, proxied, priority).",
      ),
  }),
  getUnmanagedRecords: z
    .object({
      zoneId: ZoneId.optional(),
      zoneName: z.string().min(1).optional().describe("The zone's name (give it or zoneId)."),
      managedIds: z
        .array(z.string().min(1))
        .optional()
        .describe(
          "Ids of records the stack's resources hold, to leave out: a DnsRecordSet's `ids` values, a DnsRecord's `id`'s last part. Without them, a TypeScript program leaves out the records of the sets and records it declared before the call; in the other languages, this stack's own records are listed as unmanaged on a Free zone (only paid zones' records carry a stack's label). From a set whose records change in the same preview, the ids are not known until the up (the engine knows a changed resource's outputs only then), and the result is unknown at that preview.",
        ),
    })
    .refine((a) => (a.zoneId === undefined) !== (a.zoneName === undefined), {
      error: "give zoneId or zoneName (one of them)",
      path: ["zoneId"],
    }),
  listWorkerScripts: z.object({
    accountId: z
      .string()
      .regex(/^[0-9a-f]{32}$/)
      .optional()
      .describe("The account; unset, `ops:edgeAccountId`."),
  }),
};

type Args<K extends keyof typeof functionArgs> = z.input<(typeof functionArgs)[K]>;

const parse = <K extends keyof typeof functionArgs>(name: K, args: unknown): z.output<(typeof functionArgs)[K]> =>
  requireArgs("edge", name, functionArgs[name], args) as z.output<(typeof functionArgs)[K]>;

export async function getZone(args: Args<"getZone">) {
  const { name } = parse("getZone", args);
  const zones = (await edge().listZones({ name })).filter((z) => z.name.toLowerCase() === name.toLowerCase());
  if (zones.length !== 1) {
    throw new ValidationError({
      service: "edge",
      message: zones.length
        ? `getZone: ${zones.length} zones are named "${name}"`
        : `getZone: no zone named "${name}" is visible to this token`,
      remedy: zones.length ? "Use the zone's id" : "Check the name, or give the token Zone read permission",
    });
  }
  const z = zones[0];
  return { id: z.id, name: z.name, status: z.status ?? "active" };
}

/** The configured token's id and status, and which kind it is: a user token or an account-owned one (and whose). */
export async function verifyToken() {
  const t = await edge().verifyToken();
  return {
    id: t.id,
    status: t.status,
    kind: t.kind,
    ...(t.accountId ? { accountId: t.accountId } : {}),
    ...(t.expires_on ? { expiresOn: t.expires_on } : {}),
  };
}

/** A zone's traffic totals over whole days, from the GraphQL Analytics API's daily dataset (analytics.ts). */
export async function getZoneAnalytics(args: Args<"getZoneAnalytics">) {
  const a = parse("getZoneAnalytics", args);
  return zoneTotals(a.zoneId, a.since, a.until);
}

/** The zone's security events in the window (the GraphQL Analytics API's firewall events dataset). */
export async function getSecurityEvents(args: Args<"getSecurityEvents">) {
  const a = parse("getSecurityEvents", args);
  return securityEvents(a.zoneId, a.since, a.until);
}

/** Cache statistics per location in the window (the GraphQL Analytics API's adaptive requests dataset). */
export async function getCacheStats(args: Args<"getCacheStats">) {
  const a = parse("getCacheStats", args);
  return cacheByLocation(a.zoneId, a.since, a.until);
}

/**
 * The zone's records not among `managedIds` and not labelled by a pulumi-ops stack (labels exist on paid zones only); the service's own
 * (read-only, Worker-made, app- or tunnel-managed) listed apart (dns-record-set/authority.ts: what an authoritative
 * set would never delete). One listing of the zone; nothing is sent.
 */
export async function getUnmanagedRecords(args: Args<"getUnmanagedRecords">) {
  const a = parse("getUnmanagedRecords", args);
  const zone = await resolveZone(a.zoneId ? { zoneId: a.zoneId } : { zoneName: a.zoneName! });
  const all = await Array.fromAsync(edge().dnsRecords(zone.id, {}, 5000));
  const managed = new Set((a.managedIds ?? []).map((id) => id.split("/").pop()!));
  const { unmanaged, apart, labelled } = sortRecords(all, zone, managed);
  return {
    zoneId: zone.id,
    zoneName: zone.name,
    total: all.length,
    unmanaged: unmanaged.map((r) => strayOf(r, zone.name)),
    apart: apart.map(([r, reason]) => ({ ...strayOf(r, zone.name), reason })),
    labelled: labelled.map((r) => ({ ...strayOf(r, zone.name), stack: stackOfTags(r.tags)! })),
  };
}

export async function listWorkerScripts(args: Args<"listWorkerScripts"> = {}) {
  const { accountId } = parse("listWorkerScripts", args);
  const account = accountId ?? edge().accountId;
  if (!account)
    throw new ValidationError({
      service: "edge",
      message: "listWorkerScripts: no account",
      remedy: "Pass accountId, or set ops:edgeAccountId (EDGE_ACCOUNT_ID)",
    });
  return (await edge().listWorkerScripts(account)).map((s) => ({ name: s.id, etag: s.etag, size: s.size, modifiedOn: s.modified_on }));
}

/** Records as a zone file (provider/edge/zone-file/write.ts). Nothing is sent. */
export function toZoneFile(args: Args<"toZoneFile">): string {
  const { origin, records } = parse("toZoneFile", args);
  return writeZoneFile(records as never, origin);
}

/** A zone file's records, keyed for an `ops.edge.DnsRecordSet` (provider/edge/zone-file/). Nothing is sent. */
export async function parseZoneFile(args: Args<"parseZoneFile">) {
  const { text, origin, skipUnsupported } = parse("parseZoneFile", args);
  return readZoneFile(text, { origin, skipUnsupported });
}

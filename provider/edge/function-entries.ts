/**
 * The read-only functions of the edge the provider plugin serves as invokes, with their arguments and results
 * (function-registry.ts gathers every service's into one flat table).
 */
import { z } from "zod";
import type { FunctionEntry } from "../function-entry";
import * as edge from "./functions";
import { RECORD_TYPES } from "./dns-record/normalize";

/** A record as parseZoneFile gives it and toZoneFile takes it. */
const ZoneRecord = z.object({
  type: z.enum(RECORD_TYPES),
  name: z.string().describe("The record's name, relative to the origin (`@` for the apex)."),
  content: z.string().optional().describe("Its value, for the types that take `content`."),
  data: z
    .record(z.string(), z.union([z.number(), z.string()]))
    .optional()
    .describe("Its fields, for the types that take `data`."),
  ttl: z.number().describe("Its TTL in seconds."),
  priority: z.number().optional().describe("Its priority (MX, URI)."),
  proxied: z.boolean().optional().describe("Whether the service proxies it (the `cf_tags=cf-proxied:true` marker)."),
});

/** A record as getUnmanagedRecords tells it. */
const UnmanagedRecord = z.object({
  id: z.string().describe("The record's id."),
  type: z.string().describe("Its type."),
  name: z.string().describe("Its name relative to the zone (`@` the apex), as a DnsRecordSet's records take it."),
  content: z.string().describe("Its value as the service writes it."),
  ttl: z.number().describe("Its TTL in seconds (1: automatic)."),
  proxied: z.boolean().describe("Whether the service proxies it."),
  priority: z.number().optional().describe("Its priority (MX, URI)."),
  comment: z.string().optional().describe("Its comment."),
});

/** Counts by kind: `all`, and of those `cached`, `uncached` where the dataset splits them. */
const TOTAL_ABOUT: Record<string, string> = {
  all: "All of them.",
  cached: "Those served from the edge's cache.",
  uncached: "Those fetched from the origin.",
};
const Totals = (...keys: string[]) => z.object(Object.fromEntries(keys.map((k) => [k, z.number().describe(TOTAL_ABOUT[k])])));

export const edgeFunctions: Record<string, FunctionEntry> = {
  "edge:getCacheStats": {
    description:
      "Cache statistics per location of a zone in a window (the last day unless given), with each location's hit ratio, from the GraphQL Analytics API (`httpRequestsAdaptiveGroups`); a window outside the dataset's limits for the zone's plan is refused naming them.",
    args: edge.functionArgs.getCacheStats,
    result: z.object({
      colos: z
        .array(
          z.object({
            colo: z.string().describe("The location's code (an airport code, `FRA`)."),
            requests: Totals("all", "cached", "uncached").describe("Requests the location answered."),
            bandwidth: Totals("all", "cached").describe("Bytes it sent."),
            hitRatio: z.number().describe("Cached requests over all, from 0 to 1."),
          }),
        )
        .describe("One entry per location that served the zone in the window."),
    }),
    run: async (a) => ({ colos: await edge.getCacheStats(a) }),
  },
  "edge:getSecurityEvents": {
    description:
      "The security events of a zone in a window (the last day unless given), newest first, from the GraphQL Analytics API (`firewallEventsAdaptive`); a window outside the dataset's limits for the zone's plan is refused naming them.",
    args: edge.functionArgs.getSecurityEvents,
    result: z.object({
      events: z
        .array(
          z.object({
            rayId: z.string().describe("The request's id (Ray ID)."),
            action: z.string().describe("What was done: `block`, `challenge`, `log`, ..."),
            source: z.string().describe("What acted: `firewallCustom`, `ratelimit`, `waf`, ..."),
            clientIp: z.string().describe("The client's address."),
            country: z.string().describe("The client's country (ISO 3166-1 alpha-2)."),
            host: z.string().describe("The host asked for."),
            path: z.string().describe("The path asked for."),
            occurredAt: z.string().describe("When (RFC 3339)."),
          }),
        )
        .describe("The events, newest first."),
    }),
    run: async (a) => ({ events: await edge.getSecurityEvents(a) }),
  },
  "edge:getZone": {
    description: "The zone with this name; fails clearly when none or several match.",
    args: edge.functionArgs.getZone,
    result: z.object({
      id: z.string().describe("The zone's id, which resources and functions take as `zoneId`."),
      name: z.string().describe("The zone's domain name."),
      status: z.string().describe("`active`, `pending` (name servers not yet moved), `initializing`, `moved` or `deactivated`."),
    }),
    run: (a) => edge.getZone(a),
  },
  "edge:getZoneAnalytics": {
    description:
      "A zone's traffic totals over whole days (UTC) of a window: `since` a negative offset in minutes or a time, `until` `now` or a time; from the GraphQL Analytics API (`httpRequests1dGroups`), the window held to the dataset's limits for the zone's plan.",
    args: edge.functionArgs.getZoneAnalytics,
    result: z.object({
      since: z.string().describe("The window's first day counted (UTC), as `YYYY-MM-DD`: the same all day for the same window."),
      until: z.string().describe("The window's last day counted (UTC), as `YYYY-MM-DD`."),
      requests: Totals("all", "cached", "uncached").describe("Requests."),
      bandwidth: Totals("all", "cached", "uncached").describe("Bytes sent."),
      threats: Totals("all").describe("Requests the service counted as threats."),
      pageviews: Totals("all").describe("Requests for HTML pages."),
      uniques: Totals("all").describe(
        "Each day's unique visitors (distinct client addresses of that day), added up over the days counted: a visitor seen on two days counts twice, as the daily dataset has no count across days.",
      ),
    }),
    run: (a) => edge.getZoneAnalytics(a),
  },
  "edge:getUnmanagedRecords": {
    description:
      "The zone's records that are not among `managedIds` and carry no pulumi-ops stack's label, with the service's own records — read-only, Worker-made, app- or tunnel-managed — listed apart, as an authoritative DnsRecordSet never deletes them. What it checks is only that: labels exist where the zone's plan takes tags (paid plans), so on a Free zone a record of this stack or another is listed unless `managedIds` names it — pass the ids of this stack's sets and records (a DnsRecordSet's `ids` values, a DnsRecord's `id`); a TypeScript program that leaves `managedIds` out has the ids of the sets and records it declared before the call left out. One listing of the zone; sends nothing.",
    args: edge.functionArgs.getUnmanagedRecords,
    result: z.object({
      zoneId: z.string().describe("The zone's id."),
      zoneName: z.string().describe("The zone's name."),
      total: z.number().describe("Every record the zone holds."),
      unmanaged: z
        .array(UnmanagedRecord)
        .describe(
          "Records neither among `managedIds` nor labelled by a pulumi-ops stack: what an authoritative set at their names would delete.",
        ),
      apart: z
        .array(
          UnmanagedRecord.extend({
            reason: z
              .enum(["read-only", "worker", "system"])
              .describe(
                "`read-only` (the service keeps it: a custom domain's, Email Routing's, ...), `worker` (a Worker is its origin), `system` (an app or a tunnel manages it).",
              ),
          }),
        )
        .describe("The service's own records, never deleted by pulumi-ops."),
      labelled: z
        .array(UnmanagedRecord.extend({ stack: z.string().describe("The stack its `pulumi-ops-stack:` tag names.") }))
        .describe("Records a pulumi-ops stack labelled as its own (its tag) and not among `managedIds`."),
    }),
    run: (a) => edge.getUnmanagedRecords(a),
  },
  "edge:listWorkerScripts": {
    description: "The account's edge scripts (the account of ops:edgeAccountId unless given).",
    args: edge.functionArgs.listWorkerScripts,
    result: z.object({
      scripts: z
        .array(
          z.object({
            name: z.string().describe("The script's name."),
            etag: z.string().optional().describe("Its content's tag."),
            size: z.number().optional().describe("Its size in bytes."),
            modifiedOn: z.string().optional().describe("When it last changed (RFC 3339)."),
          }),
        )
        .describe("Every script of the account."),
    }),
    run: async (a) => ({ scripts: await edge.listWorkerScripts(a) }),
  },
  "edge:parseZoneFile": {
    description:
      "A standard zone file (BIND format) read into the records of an `ops.edge.DnsRecordSet`, every type the service manages, keyed `<type>:<name>` (`<type>:<name>:<value>` when several share a type and name, so a key follows its record's value, not its line). The SOA and apex NS records are the service's own and are listed in `skipped`; a bad line is refused with its number and fix. Sends nothing.",
    args: edge.functionArgs.parseZoneFile,
    result: z.object({
      records: z.record(z.string(), ZoneRecord).describe("The records, by key: a DnsRecordSet's `records` input."),
      skipped: z
        .array(
          z.object({
            line: z.number().describe("Its line."),
            type: z.string().describe("Its type."),
            name: z.string().describe("Its name."),
            reason: z.string().describe("Why it was left out."),
          }),
        )
        .describe("Records left out (SOA, apex NS), with why."),
      lines: z.record(z.string(), z.number()).describe("The line each record was read from, by key."),
    }),
    run: (a) => edge.parseZoneFile(a),
  },
  "edge:toZoneFile": {
    description:
      "Records (a DnsRecordSet's `records` output, or any map or list of records) written as a BIND zone file that `parseZoneFile` reads back unchanged; a proxied record carries the service's `cf_tags=cf-proxied:true` marker. Sends nothing.",
    args: edge.functionArgs.toZoneFile,
    result: z.object({ text: z.string().describe("The zone file.") }),
    run: async (a) => ({ text: edge.toZoneFile(a) }),
  },
  "edge:verifyToken": {
    description:
      "Whether the configured API token is valid: its id, status and kind. A user token verifies at `/user/tokens/verify`, an account-owned token (the kind the service recommends) at `/accounts/{account_id}/tokens/verify`; both are tried.",
    args: edge.functionArgs.verifyToken,
    result: z.object({
      id: z.string().describe("The token's id."),
      status: z.string().describe("`active`, `disabled` or `expired`."),
      kind: z.enum(["user", "account"]).describe("`user` for a user API token, `account` for an account-owned API token."),
      accountId: z.string().optional().describe("The account an account-owned token belongs to."),
      expiresOn: z.string().optional().describe("When the token expires, if it does."),
    }),
    run: () => edge.verifyToken(),
  },
};

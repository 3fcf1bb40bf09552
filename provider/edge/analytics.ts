/**
 * The edge network's analytics as the service offers them today: its GraphQL Analytics API (`POST /graphql`), the
 * zone analytics REST endpoints having been sunset in 2021 (they answer 1015 "Zone Analytics API is sunset and
 * replaced by GraphQL API"), and security events never having had one. Each dataset has its own limits per plan
 * (how far back, how wide a window), which the API's `settings` node tells: a window outside them is refused before
 * the data is asked for, naming the allowed range.
 */
import { z } from "zod";
import { ValidationError } from "../http/errors";
import { edge } from "./zones";

export const DATASETS = {
  totals: "httpRequests1dGroups",
  perLocation: "httpRequestsAdaptiveGroups",
  security: "firewallEventsAdaptive",
} as const;
type Dataset = (typeof DATASETS)[keyof typeof DATASETS];

const Limits = z.looseObject({ enabled: z.boolean(), maxDuration: z.number(), notOlderThan: z.number() });
const SettingsAnswer = z.object({ viewer: z.object({ zones: z.array(z.object({ settings: z.record(z.string(), Limits.nullable()) })) }) });

/** A dataset's limits for this zone, read once per zone and run. */
const limits = new Map<string, Promise<z.infer<typeof Limits> | null>>();
function limitsOf(zoneTag: string, dataset: Dataset) {
  const key = `${zoneTag} ${dataset}`;
  let p = limits.get(key);
  if (!p) {
    const query = `query Limits($zoneTag: string) { viewer { zones(filter: { zoneTag: $zoneTag }) { settings { ${dataset} { enabled maxDuration notOlderThan } } } } }`;
    p = edge()
      .graphql(query, { zoneTag }, SettingsAnswer)
      .then((d) => d.viewer.zones[0]?.settings[dataset] ?? null);
    p.catch(() => limits.delete(key));
    limits.set(key, p);
  }
  return p;
}

const days = (s: number) => (s % 86_400 === 0 ? `${s / 86_400} day${s === 86_400 ? "" : "s"}` : `${Math.round(s / 3600)} hours`);

/** The window [from, to] checked against the dataset's limits for the zone: refused naming the allowed range. */
async function checkWindow(zoneTag: string, dataset: Dataset, from: number, to: number, now: number): Promise<void> {
  const l = await limitsOf(zoneTag, dataset);
  const fn = { [DATASETS.totals]: "getZoneAnalytics", [DATASETS.perLocation]: "getCacheStats", [DATASETS.security]: "getSecurityEvents" }[
    dataset
  ];
  if (!l || !l.enabled) {
    throw new ValidationError({
      service: "edge",
      message: `${fn}: the zone's plan does not offer the ${dataset} dataset`,
      remedy: "Use a zone whose plan offers it",
    });
  }
  const oldest = now - l.notOlderThan * 1000;
  if (to <= from)
    throw new ValidationError({ service: "edge", message: `${fn}: since must be before until`, remedy: "Give an earlier since" });
  if (from < oldest || to - from > l.maxDuration * 1000) {
    throw new ValidationError({
      service: "edge",
      message: `${fn}: the window ${new Date(from).toISOString()} .. ${new Date(to).toISOString()} is outside what ${dataset} offers for this zone: at most ${days(l.maxDuration)} wide, and no earlier than ${new Date(oldest).toISOString()} (${days(l.notOlderThan)} back)`,
      remedy: `Ask for a window of at most ${days(l.maxDuration)} within the last ${days(l.notOlderThan)}`,
    });
  }
}

/** `since` (a negative offset in minutes or a time) and `until` (`now` or a time) as milliseconds. */
export function timeWindow(since: number | string, until: string, now = Date.now()): [number, number] {
  const from = typeof since === "number" ? now + since * 60_000 : Date.parse(since);
  const to = until === "now" ? now : Date.parse(until);
  return [from, to];
}

const TotalsAnswer = z.object({
  viewer: z.object({
    zones: z.array(
      z.object({
        httpRequests1dGroups: z.array(
          z.object({
            sum: z.looseObject({
              requests: z.number(),
              cachedRequests: z.number(),
              bytes: z.number(),
              cachedBytes: z.number(),
              threats: z.number(),
              pageViews: z.number(),
            }),
            uniq: z.looseObject({ uniques: z.number() }),
          }),
        ),
      }),
    ),
  }),
});

/** A zone's traffic totals between two days (the daily dataset: whole days, in UTC). */
export async function zoneTotals(zoneTag: string, since: number | string, until: string) {
  const now = Date.now();
  const [from, to] = timeWindow(since, until, now);
  await checkWindow(zoneTag, DATASETS.totals, from, to, now);
  const day = (t: number) => new Date(t).toISOString().slice(0, 10);
  const query = `query Totals($zoneTag: string, $since: Date, $until: Date) { viewer { zones(filter: { zoneTag: $zoneTag }) { httpRequests1dGroups(limit: 10000, filter: { date_geq: $since, date_leq: $until }) { sum { requests cachedRequests bytes cachedBytes threats pageViews } uniq { uniques } } } } }`;
  const data = await edge().graphql(query, { zoneTag, since: day(from), until: day(to) }, TotalsAnswer);
  const groups = data.viewer.zones[0]?.httpRequests1dGroups ?? [];
  const sum = (f: (g: (typeof groups)[number]) => number) => groups.reduce((n, g) => n + f(g), 0);
  const requests = sum((g) => g.sum.requests);
  const cached = sum((g) => g.sum.cachedRequests);
  const bytes = sum((g) => g.sum.bytes);
  const cachedBytes = sum((g) => g.sum.cachedBytes);
  // The days counted, not the instants asked: the same window gives the same outputs all day (no diff every run).
  return {
    since: day(from),
    until: day(to),
    requests: { all: requests, cached, uncached: requests - cached },
    bandwidth: { all: bytes, cached: cachedBytes, uncached: bytes - cachedBytes },
    threats: { all: sum((g) => g.sum.threats) },
    pageviews: { all: sum((g) => g.sum.pageViews) },
    // A day's unique visitors; a visitor of two days counts twice (the dataset has no unique count across days).
    uniques: { all: sum((g) => g.uniq.uniques) },
  };
}

const PerLocationAnswer = z.object({
  viewer: z.object({
    zones: z.array(
      z.object({
        httpRequestsAdaptiveGroups: z.array(
          z.object({
            count: z.number(),
            sum: z.looseObject({ edgeResponseBytes: z.number() }),
            dimensions: z.looseObject({ coloCode: z.string(), cacheStatus: z.string() }),
          }),
        ),
      }),
    ),
  }),
});

/** Cache statuses that the edge served from its cache (the dataset's `cacheStatus`). */
const CACHED = new Set(["hit", "stale", "updating", "revalidated"]);

/** Requests and bytes per location, served from cache or not, with each location's hit ratio. */
export async function cacheByLocation(zoneTag: string, since: number | string, until: string) {
  const now = Date.now();
  const [from, to] = timeWindow(since, until, now);
  await checkWindow(zoneTag, DATASETS.perLocation, from, to, now);
  const query = `query PerLocation($zoneTag: string, $since: Time, $until: Time) { viewer { zones(filter: { zoneTag: $zoneTag }) { httpRequestsAdaptiveGroups(limit: 10000, filter: { datetime_geq: $since, datetime_leq: $until }) { count sum { edgeResponseBytes } dimensions { coloCode cacheStatus } } } } }`;
  const data = await edge().graphql(
    query,
    { zoneTag, since: new Date(from).toISOString(), until: new Date(to).toISOString() },
    PerLocationAnswer,
  );
  const colos = new Map<string, { all: number; cached: number; bytes: number; cachedBytes: number }>();
  for (const g of data.viewer.zones[0]?.httpRequestsAdaptiveGroups ?? []) {
    const c = colos.get(g.dimensions.coloCode) ?? { all: 0, cached: 0, bytes: 0, cachedBytes: 0 };
    const hit = CACHED.has(g.dimensions.cacheStatus);
    c.all += g.count;
    c.bytes += g.sum.edgeResponseBytes;
    if (hit) {
      c.cached += g.count;
      c.cachedBytes += g.sum.edgeResponseBytes;
    }
    colos.set(g.dimensions.coloCode, c);
  }
  return [...colos.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([colo, c]) => ({
      colo,
      requests: { all: c.all, cached: c.cached, uncached: c.all - c.cached },
      bandwidth: { all: c.bytes, cached: c.cachedBytes },
      hitRatio: c.all ? c.cached / c.all : 0,
    }));
}

const EventsAnswer = z.object({
  viewer: z.object({
    zones: z.array(
      z.object({
        firewallEventsAdaptive: z.array(
          z.looseObject({
            action: z.string(),
            source: z.string(),
            clientIP: z.string(),
            clientCountryName: z.string(),
            clientRequestHTTPHost: z.string(),
            clientRequestPath: z.string(),
            rayName: z.string(),
            datetime: z.string(),
          }),
        ),
      }),
    ),
  }),
});

/** The zone's security events in the window, newest first (at most 1,000). */
export async function securityEvents(zoneTag: string, since: number | string, until: string) {
  const now = Date.now();
  const [from, to] = timeWindow(since, until, now);
  await checkWindow(zoneTag, DATASETS.security, from, to, now);
  const query = `query Events($zoneTag: string, $since: Time, $until: Time) { viewer { zones(filter: { zoneTag: $zoneTag }) { firewallEventsAdaptive(limit: 1000, filter: { datetime_geq: $since, datetime_leq: $until }, orderBy: [datetime_DESC]) { action source clientIP clientCountryName clientRequestHTTPHost clientRequestPath rayName datetime } } } }`;
  const data = await edge().graphql(
    query,
    { zoneTag, since: new Date(from).toISOString(), until: new Date(to).toISOString() },
    EventsAnswer,
  );
  return (data.viewer.zones[0]?.firewallEventsAdaptive ?? []).map((e) => ({
    rayId: e.rayName,
    action: e.action,
    source: e.source,
    clientIp: e.clientIP,
    country: e.clientCountryName,
    host: e.clientRequestHTTPHost,
    path: e.clientRequestPath,
    occurredAt: e.datetime,
  }));
}

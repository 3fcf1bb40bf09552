/**
 * The edge service's GraphQL Analytics API (`POST /client/v4/graphql`), for the three zone datasets pulumi-ops reads
 * and the `settings` node that tells each dataset's limits. Not a GraphQL engine: a query is read for its zone tag
 * (a variable), the datasets it names and their time filter (variables), as the service's answers are shaped
 * (`{data, errors}`, HTTP 200 even for a refused query). The numbers are deterministic and plausible.
 */
import { createHash } from "node:crypto";
import { parseJson, type Reply, type Request } from "../kit";
import type { Plan } from "./rulesets";
import type { EdgeEmulator } from "./server";

const DAY = 86_400;
/** Each dataset's limits by plan: how far back (notOlderThan) and how wide (maxDuration), in seconds. */
const LIMITS: Record<string, Record<Plan, { maxDuration: number; notOlderThan: number }>> = {
  httpRequests1dGroups: {
    free: { maxDuration: 31 * DAY, notOlderThan: 31 * DAY },
    pro: { maxDuration: 92 * DAY, notOlderThan: 92 * DAY },
    business: { maxDuration: 366 * DAY, notOlderThan: 366 * DAY },
    enterprise: { maxDuration: 366 * DAY, notOlderThan: 366 * DAY },
  },
  httpRequestsAdaptiveGroups: {
    free: { maxDuration: DAY, notOlderThan: 8 * DAY },
    pro: { maxDuration: DAY, notOlderThan: 8 * DAY },
    business: { maxDuration: 3 * DAY, notOlderThan: 31 * DAY },
    enterprise: { maxDuration: 31 * DAY, notOlderThan: 92 * DAY },
  },
  firewallEventsAdaptive: {
    free: { maxDuration: DAY, notOlderThan: 8 * DAY },
    pro: { maxDuration: DAY, notOlderThan: 8 * DAY },
    business: { maxDuration: 3 * DAY, notOlderThan: 31 * DAY },
    enterprise: { maxDuration: 31 * DAY, notOlderThan: 92 * DAY },
  },
};

/** A deterministic number in [lo, hi) from a key, so answers are stable across runs. */
function stable(key: string, lo: number, hi: number): number {
  const n = createHash("md5").update(key).digest().readUInt32BE(0);
  return lo + (n % (hi - lo));
}

const graphqlError = (message: string, path: string[], code = "bad_request"): Reply => ({
  status: 200,
  body: { data: null, errors: [{ message, path, extensions: { code, timestamp: new Date().toISOString() } }] },
});

export function graphqlRoute(emu: EdgeEmulator) {
  return (req: Request): Reply => {
    const body = parseJson(req);
    const query = typeof body?.query === "string" ? body.query : "";
    const vars = (body?.variables ?? {}) as Record<string, unknown>;
    if (!query) return graphqlError("a query is required", []);
    const zoneTag = String(vars.zoneTag ?? /zoneTag:\s*"([^"]+)"/.exec(query)?.[1] ?? "");
    const zone = emu.zones.get(zoneTag);
    if (!zone) return graphqlError("zone not found or not authorized for this token", ["viewer", "zones"], "authz");
    const plan = emu.plans.get(zone.id) ?? "free";
    const datasets = Object.keys(LIMITS).filter((d) => new RegExp(`\\b${d}\\b`).test(query));

    if (/\bsettings\s*\{/.test(query)) {
      const settings = Object.fromEntries(datasets.map((d) => [d, { enabled: true, maxPageSize: 10_000, ...LIMITS[d][plan] }]));
      return { status: 200, body: { data: { viewer: { zones: [{ settings }] } }, errors: null } };
    }
    const node: Record<string, unknown> = {};
    for (const d of datasets) {
      const daily = d === "httpRequests1dGroups";
      const since = Date.parse(String(vars.since ?? ""));
      const until = Date.parse(String(vars.until ?? ""));
      if (!Number.isFinite(since) || !Number.isFinite(until))
        return graphqlError(`${d}: the filter needs ${daily ? "date_geq and date_leq" : "datetime_geq and datetime_leq"}`, [
          "viewer",
          "zones",
          "0",
          d,
        ]);
      const { maxDuration, notOlderThan } = LIMITS[d][plan];
      const now = emu.now();
      const width = (until - since) / 1000 + (daily ? DAY : 0); // a day range includes its last day
      if (width > maxDuration)
        return graphqlError(
          `${d}: time range is too large, it must be less than or equal to ${maxDuration}s`,
          ["viewer", "zones", "0", d],
          "quota",
        );
      if (since < now - notOlderThan * 1000 - (daily ? DAY * 1000 : 0))
        return graphqlError(`${d}: cannot request data older than ${notOlderThan}s`, ["viewer", "zones", "0", d], "quota");
      node[d] = rows(d, zone.id, zone.name, since, until);
    }
    return { status: 200, body: { data: { viewer: { zones: [node] } }, errors: null } };
  };
}

function rows(dataset: string, zoneId: string, host: string, since: number, until: number): unknown[] {
  if (dataset === "httpRequests1dGroups") {
    const out = [];
    for (let t = since; t <= until; t += DAY * 1000) {
      const date = new Date(t).toISOString().slice(0, 10);
      const k = `${zoneId}:${date}`;
      const requests = stable(`${k}:req`, 10_000, 90_000);
      const cachedRequests = Math.floor((requests * stable(`${k}:hit`, 40, 90)) / 100);
      out.push({
        dimensions: { date },
        sum: {
          requests,
          cachedRequests,
          bytes: requests * 18_000,
          cachedBytes: cachedRequests * 18_000,
          threats: stable(`${k}:thr`, 0, 500),
          pageViews: Math.floor(requests / 3),
        },
        uniq: { uniques: stable(`${k}:uniq`, 500, 5000) },
      });
    }
    return out;
  }
  const hour = Math.floor(since / 3_600_000);
  if (dataset === "httpRequestsAdaptiveGroups") {
    return ["AMS", "FRA", "IAD", "NRT", "SIN"].flatMap((colo) =>
      ["hit", "miss", "dynamic"].map((cacheStatus) => {
        const count = stable(`${zoneId}:${hour}:${colo}:${cacheStatus}`, 100, 9000);
        return { count, sum: { edgeResponseBytes: count * 20_000 }, dimensions: { coloCode: colo, cacheStatus } };
      }),
    );
  }
  const actions = ["block", "managed_challenge", "log"];
  return Array.from({ length: 5 }, (_, i) => ({
    action: actions[i % 3],
    source: i % 2 ? "firewallCustom" : "ratelimit",
    clientIP: `198.51.100.${stable(`${zoneId}:${i}`, 1, 254)}`,
    clientCountryName: ["US", "DE", "JP", "BR", "IN"][i],
    clientRequestHTTPHost: host,
    clientRequestPath: ["/login", "/wp-admin", "/api", "/", "/login"][i],
    rayName: createHash("md5").update(`${zoneId}:event:${hour}:${i}`).digest("hex").slice(0, 16),
    datetime: new Date(until - (i + 1) * 600_000).toISOString(),
  })).filter((e) => Date.parse(e.datetime) >= since);
}

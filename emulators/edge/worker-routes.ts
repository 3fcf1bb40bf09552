/**
 * How a script is reached, as the service has it: routes of a zone (`/zones/{id}/workers/routes`: a pattern and the
 * script it runs, one route per pattern), custom domains of the account (`/accounts/{id}/workers/domains`: a host
 * name served by a script, with the DNS record the service makes for it and keeps read-only), and a script's
 * workers.dev subdomain (`/accounts/{id}/workers/scripts/{name}/subdomain`: `enabled`, `previews_enabled`).
 * `servedBy` answers which script a request reaches (the test hook `serves`): what a deploy is for.
 */
import { type Request } from "../kit";
import { fail } from "./dns";
import type { EdgeRoute } from "./access";
import type { EdgeEmulator } from "./server";

export interface StoredRoute {
  id: string;
  pattern: string;
  /** Absent: requests on the pattern run no script (the service's way to exclude a path from a wider route). */
  script?: string;
}

export interface StoredDomain {
  id: string;
  hostname: string;
  service: string;
  environment: string;
  zone_id: string;
  zone_name: string;
  cert_id: string;
  /** The DNS record the service made for the host name (read-only in the zone). */
  record_id: string;
}

/** Query strings and infix wildcards are not route patterns (the service's routes documentation). */
function patternProblem(pattern: unknown): string | undefined {
  if (typeof pattern !== "string" || !pattern) return "pattern is required";
  if (pattern.includes("?")) return "Route patterns may not contain query parameters";
  const slash = pattern.indexOf("/");
  const host = slash < 0 ? pattern : pattern.slice(0, slash);
  const path = slash < 0 ? "" : pattern.slice(slash);
  if (/^[a-z]+:\/\//i.test(pattern)) return undefined;
  if (host.slice(host.startsWith("*") ? 1 : 0).includes("*") || path.slice(0, -1).includes("*"))
    return "Route patterns may not contain infix wildcards";
  if (!host) return "pattern must start with a host name";
  return undefined;
}

/** The host part of a pattern, without a scheme or a leading wildcard. */
const hostOf = (pattern: string) =>
  pattern
    .replace(/^[a-z]+:\/\//i, "")
    .split("/")[0]
    .replace(/^\*\.?/, "")
    .toLowerCase();

/** A route pattern as a regular expression over `host/path` (`*` matches anything). */
const matcher = (pattern: string) =>
  new RegExp(
    `^${pattern
      .replace(/^[a-z]+:\/\//i, "")
      .toLowerCase()
      .split("*")
      .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
      .join(".*")}$`,
  );

export function registerWorkerReachRoutes(emu: EdgeEmulator, r: EdgeRoute): void {
  const account = (req: Request) => emu.account(req);
  const routesOf = (zoneId: string) => {
    let m = emu.workerRoutes.get(zoneId);
    if (!m) emu.workerRoutes.set(zoneId, (m = new Map()));
    return m;
  };
  const routeBody = (req: Request, zoneName: string): { pattern: string; script?: string } => {
    const body = JSON.parse(req.rawBody || "{}");
    const problem = patternProblem(body.pattern);
    if (problem) fail(400, 10022, problem);
    const host = hostOf(body.pattern);
    if (host && host !== zoneName && !host.endsWith(`.${zoneName}`)) fail(400, 10022, `Route pattern must include zone name: ${zoneName}`);
    if (body.script !== undefined && body.script !== null && body.script !== "" && !emu.scripts.has(body.script))
      fail(400, 10019, "Cannot configure a route for a Worker which does not exist. Please ensure this Worker exists and try again.");
    return { pattern: body.pattern, ...(body.script ? { script: body.script } : {}) };
  };
  const view = (x: StoredRoute) => ({ id: x.id, pattern: x.pattern, script: x.script ?? null });

  r("GET", "/zones/:zone/workers/routes", "workers_routes:edit", (req) => emu.ok([...routesOf(emu.zone(req).id).values()].map(view)));
  r("POST", "/zones/:zone/workers/routes", "workers_routes:edit", (req) => {
    const zone = emu.zone(req);
    const body = routeBody(req, zone.name);
    const routes = routesOf(zone.id);
    if ([...routes.values()].some((x) => x.pattern === body.pattern)) fail(409, 10020, "A route with the same pattern already exists.");
    const route = { id: emu.nextId(), ...body };
    routes.set(route.id, route);
    return emu.ok(view(route));
  });
  const route = (req: Request) => routesOf(emu.zone(req).id).get(req.params.id) ?? fail(404, 10009, "workers.api.error.route_not_found");
  r("GET", "/zones/:zone/workers/routes/:id", "workers_routes:edit", (req) => emu.ok(view(route(req))));
  r("PUT", "/zones/:zone/workers/routes/:id", "workers_routes:edit", (req) => {
    const zone = emu.zone(req);
    const was = route(req);
    const body = routeBody(req, zone.name);
    if ([...routesOf(zone.id).values()].some((x) => x.pattern === body.pattern && x.id !== was.id))
      fail(409, 10020, "A route with the same pattern already exists.");
    const now = { id: was.id, ...body };
    routesOf(zone.id).set(was.id, now);
    return emu.ok(view(now));
  });
  r("DELETE", "/zones/:zone/workers/routes/:id", "workers_routes:edit", (req) => {
    const x = route(req);
    routesOf(emu.zone(req).id).delete(x.id);
    return emu.ok({ id: x.id });
  });

  // Custom domains: PUT attaches (or re-attaches) a host name to a script, making the DNS record it needs.
  const domainView = (d: StoredDomain) => ({
    id: d.id,
    hostname: d.hostname,
    service: d.service,
    environment: d.environment,
    zone_id: d.zone_id,
    zone_name: d.zone_name,
    cert_id: d.cert_id,
  });
  r("GET", "/accounts/:account/workers/domains", "workers:edit", (req) => {
    account(req);
    const q = (k: string) => req.query.get(k) ?? undefined;
    const list = [...emu.domains.values()].filter(
      (d) =>
        (!q("hostname") || d.hostname === q("hostname")) &&
        (!q("service") || d.service === q("service")) &&
        (!q("zone_id") || d.zone_id === q("zone_id")) &&
        (!q("zone_name") || d.zone_name === q("zone_name")) &&
        (!q("environment") || d.environment === q("environment")),
    );
    return emu.ok(list.map(domainView));
  });
  r("PUT", "/accounts/:account/workers/domains", "workers:edit", (req) => {
    account(req);
    const body = JSON.parse(req.rawBody || "{}");
    if (typeof body.hostname !== "string" || !body.hostname) fail(400, 100116, "hostname is required");
    if (typeof body.service !== "string" || !body.service) fail(400, 100116, "service is required");
    const hostname = body.hostname.toLowerCase();
    const zone = [...emu.zones.values()].find((z) =>
      body.zone_id
        ? z.id === body.zone_id
        : body.zone_name
          ? z.name === body.zone_name
          : hostname === z.name || hostname.endsWith(`.${z.name}`),
    );
    if (!zone || (hostname !== zone.name && !hostname.endsWith(`.${zone.name}`)))
      fail(400, 100119, `Hostname '${hostname}' is not in a zone of this account`);
    if (!emu.scripts.has(body.service)) fail(404, 10007, "workers.api.error.script_not_found");
    const was = [...emu.domains.values()].find((d) => d.hostname === hostname);
    // A host name with records of its own (not this custom domain's) cannot be attached: the service will not
    // overwrite them (`override_existing_dns_record` is the dashboard's choice, not this endpoint's).
    const own = [...zone.records.named(hostname)].filter((x) => x.id !== was?.record_id);
    if (own.length)
      fail(
        409,
        100117,
        `Hostname '${hostname}' already has externally managed DNS records (A, CNAME, etc). Either delete them, try a different hostname, or use the option 'override_existing_dns_record' to override.`,
      );
    const d: StoredDomain = was ?? {
      id: emu.nextId(),
      hostname,
      service: "",
      environment: "production",
      zone_id: zone.id,
      zone_name: zone.name,
      cert_id: emu.nextId(),
      record_id: "",
    };
    d.service = body.service;
    d.environment = typeof body.environment === "string" && body.environment ? body.environment : "production";
    if (!d.record_id || !zone.records.has(d.record_id)) d.record_id = emu.addWorkerRecord(zone.id, hostname);
    emu.domains.set(d.id, d);
    return emu.ok(domainView(d));
  });
  const domain = (req: Request) => {
    account(req);
    return emu.domains.get(req.params.id) ?? fail(404, 100114, "Domain not found");
  };
  r("GET", "/accounts/:account/workers/domains/:id", "workers:edit", (req) => emu.ok(domainView(domain(req))));
  r("DELETE", "/accounts/:account/workers/domains/:id", "workers:edit", (req) => {
    const d = domain(req);
    emu.domains.delete(d.id);
    emu.zones.get(d.zone_id)?.records.delete(d.record_id);
    // The envelope without a result (the official SDK types it so, and casts it to nothing).
    return { status: 200, body: { success: true, errors: [], messages: [] } };
  });

  // A script's workers.dev subdomain and its preview URLs.
  const script = (req: Request) => {
    account(req);
    return emu.scripts.get(req.params.name) ?? fail(404, 10007, "workers.api.error.script_not_found");
  };
  r("GET", "/accounts/:account/workers/scripts/:name/subdomain", "workers:edit", (req) => {
    const s = script(req);
    return emu.ok({ enabled: s.subdomain.enabled, previews_enabled: s.subdomain.previews_enabled });
  });
  r("POST", "/accounts/:account/workers/scripts/:name/subdomain", "workers:edit", (req) => {
    const s = script(req);
    const body = JSON.parse(req.rawBody || "{}");
    if (typeof body.enabled !== "boolean") fail(400, 10021, "enabled must be true or false");
    if (body.previews_enabled !== undefined && typeof body.previews_enabled !== "boolean")
      fail(400, 10021, "previews_enabled must be true or false");
    s.subdomain = { enabled: body.enabled, previews_enabled: body.previews_enabled ?? body.enabled };
    return emu.ok({ ...s.subdomain });
  });
  r("DELETE", "/accounts/:account/workers/scripts/:name/subdomain", "workers:edit", (req) => {
    const s = script(req);
    s.subdomain = { enabled: false, previews_enabled: false };
    return emu.ok({ ...s.subdomain });
  });
}

/**
 * The script a request to `url` reaches, and how: a custom domain of its host, else the most specific route of
 * its zone (the longest pattern that matches; a route with no script serves none), else nothing. A
 * `<script>.<subdomain>.workers.dev` host reaches its script when the script's subdomain is enabled.
 */
export function servedBy(emu: EdgeEmulator, url: string): { script?: string; via?: string } {
  const u = new URL(url.includes("://") ? url : `https://${url}`);
  const host = u.hostname.toLowerCase();
  const dev = /^([a-z0-9_-]+)\.[a-z0-9-]+\.workers\.dev$/.exec(host);
  if (dev) {
    const s = emu.scripts.get(dev[1]);
    return s?.subdomain.enabled ? { script: dev[1], via: "workers.dev" } : {};
  }
  const d = [...emu.domains.values()].find((x) => x.hostname === host);
  if (d && emu.scripts.has(d.service)) return { script: d.service, via: `custom domain ${d.hostname}` };
  const zone = [...emu.zones.values()].find((z) => host === z.name || host.endsWith(`.${z.name}`));
  if (!zone) return {};
  const target = `${host}${u.pathname}`;
  const matching = [...(emu.workerRoutes.get(zone.id)?.values() ?? [])]
    .filter((x) => matcher(x.pattern).test(target))
    .sort((a, b) => b.pattern.length - a.pattern.length);
  const best = matching[0];
  return best?.script && emu.scripts.has(best.script) ? { script: best.script, via: `route ${best.pattern}` } : {};
}

/**
 * `ops.edge.WorkerRoute`: a URL pattern of a zone and the edge script its requests run. A script serves nothing on a
 * zone until a route (or a custom domain) points at it.
 */
import { z } from "zod";
import { ruleFailure } from "../../check";
import { zoneInputs, zoneRule } from "../zone-ref";
import { type Example, ref } from "../../doc-example";

export const token = "edge:WorkerRoute";

/**
 * Why `pattern` is not a route pattern, by the service's documented rules: `[*.]host[/path][*]`, a wildcard only at
 * the start of the host or the end of the path, no query string; the host in the zone when the zone is known.
 */
export function routePatternProblem(pattern: string, zone?: string): string | undefined {
  if (/[\s\u0000-\u001f\u007f]/.test(pattern)) return "a route pattern must not contain spaces or control characters";
  if (pattern.includes("?")) return "a route pattern must not contain a query string (the service matches host and path only)";
  const bare = pattern.replace(/^https?:\/\//i, "");
  const slash = bare.indexOf("/");
  const host = slash < 0 ? bare : bare.slice(0, slash);
  const path = slash < 0 ? "" : bare.slice(slash);
  if (!host) return `"${pattern}" has no host: write host/path, e.g. example.com/*`;
  if (host.slice(1).includes("*") || path.slice(0, -1).includes("*"))
    return `"${pattern}" has a wildcard inside it: the service takes * only at the start of the host (*.example.com, *example.com) and the end of the path (/api/*)`;
  const name = host.replace(/^\*\.?/, "").toLowerCase();
  if (zone && name && name !== zone && !name.endsWith(`.${zone}`))
    return `"${pattern}" is outside the zone ${zone}: its host must be ${zone} or a subdomain of it`;
  return undefined;
}

export const WorkerRouteInputs = z
  .object({
    ...zoneInputs,
    pattern: z
      .string()
      .min(1, "pattern must not be empty: write host/path, e.g. example.com/*")
      .describe(
        "The requests the route takes: `host/path`, with `*` at the start of the host (`*.example.com`) or the end of the path (`example.com/api/*`). Changing it updates the route in place.",
      ),
    script: z
      .string()
      .regex(/^[a-z0-9][a-z0-9_-]{0,62}$/, "script must be an edge script's name (lowercase letters, digits, - and _)")
      .optional()
      .describe(
        "The edge script the requests run (a WorkerScript's `name` output, so the script is deployed first). Unset: requests on this pattern run no script (an exception carved out of a wider route).",
      ),
    adopt: z
      .boolean()
      .default(false)
      .describe(
        "Take over the zone's route with this pattern, whatever script it runs now, instead of failing (the preview names the script it takes the route from). Other routes of the zone are never touched.",
      ),
  })
  .superRefine((r, ctx) => {
    zoneRule(r, ctx);
    const problem = routePatternProblem(r.pattern, r.zoneName?.toLowerCase().replace(/\.$/, ""));
    if (problem) ruleFailure(ctx, "pattern", problem);
  });
export type WorkerRouteInputs = z.output<typeof WorkerRouteInputs>;

export const WorkerRouteOutputs = z.object({
  zoneId: z.string().describe("The zone's id."),
  zoneName: z.string().describe("The zone's name."),
  pattern: z.string().describe("The route's pattern."),
  script: z.string().optional().describe("The script it runs (unset: none)."),
  adopt: z.boolean(),
  routeId: z.string().describe("The route's id on the service."),
});
export type WorkerRouteOutputs = z.infer<typeof WorkerRouteOutputs>;

/**
 * The class's doc comment in the TypeScript SDK (scripts/gen-sdk-classes.ts writes it, whitespace folded, above the
 * example below): what the resource is for and how it behaves.
 */
export const classDoc = `
  A route of a zone: the requests matching \`pattern\` run the edge script \`script\`. Without a route (or a custom
  domain) a deployed script serves nothing on the zone. A pattern routed already elsewhere is refused at preview,
  naming the script it runs, unless \`adopt: true\`.`;

/**
 * The example of the reference and of the class's doc comment, in every language (scripts/example-render.ts), run
 * by the tests against the emulators' seeds.
 */
export const example: Example = {
  before: [{ token: "ops:edge:WorkerScript", name: "routedScript", args: { name: "hello-routed", source: "worker.js" } }],
  step: { name: "helloRoute", args: { zoneName: "example.com", pattern: "example.com/hello/*", script: ref("routedScript.name") } },
};

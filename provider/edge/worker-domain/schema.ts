/**
 * `ops.edge.WorkerDomain`: a host name an edge script serves as its origin (a custom domain). The service makes the
 * host's DNS record and certificate itself and keeps the record read-only: no DNS resource declares it.
 */
import { z } from "zod";
import { accountIdInput, accountOf } from "../account";
import { ruleFailure } from "../../check";
import { isHostname } from "../dns-record/normalize";
import { zoneInputs, zoneRule } from "../zone-ref";
import { type Example, ref } from "../../doc-example";

export const token = "edge:WorkerDomain";

export const WorkerDomainInputs = z
  .object({
    accountId: accountIdInput("domain"),
    ...zoneInputs,
    hostname: z
      .string()
      .refine((h) => isHostname(h) && !h.includes("*"), {
        error: "hostname must be a full host name such as api.example.com (no wildcard)",
      })
      .describe("The host name the script serves, in the zone (the apex or a subdomain). Changing it replaces the domain.")
      .meta({ replaceOnChanges: true }),
    script: z
      .string()
      .regex(/^[a-z0-9][a-z0-9_-]{0,62}$/, "script must be an edge script's name (lowercase letters, digits, - and _)")
      .describe(
        "The edge script that serves it (a WorkerScript's `name` output, so the script is deployed first). Changing it moves the domain to the other script in place.",
      ),
    environment: z
      .string()
      .min(1)
      .optional()
      .describe("The script's environment, where the account has environments; the service's default (`production`) when unset."),
    adopt: z
      .boolean()
      .default(false)
      .describe(
        "Take over the custom domain of this host name, whatever script serves it now, instead of failing (the preview names that script).",
      ),
  })
  .superRefine((r, ctx) => {
    zoneRule(r, ctx);
    const zone = r.zoneName?.toLowerCase().replace(/\.$/, "");
    const host = r.hostname.toLowerCase().replace(/\.$/, "");
    if (zone && host !== zone && !host.endsWith(`.${zone}`))
      ruleFailure(
        ctx,
        "hostname",
        `${r.hostname} is outside the zone ${r.zoneName}: a custom domain is the zone's apex or one of its subdomains`,
        ["zoneName"],
      );
  })
  .transform((r, ctx) => {
    const accountId = accountOf(r, ctx);
    return { ...r, accountId, hostname: r.hostname.toLowerCase().replace(/\.$/, "") };
  });
export type WorkerDomainInputs = z.output<typeof WorkerDomainInputs>;

export const WorkerDomainOutputs = z.object({
  accountId: z.string(),
  zoneId: z.string().describe("The zone's id."),
  zoneName: z.string().describe("The zone's name."),
  hostname: z.string().describe("The host name served."),
  script: z.string().describe("The script that serves it."),
  environment: z.string().optional().describe("The script's environment."),
  adopt: z.boolean(),
  domainId: z.string().describe("The custom domain's id on the service."),
  certId: z.string().optional().describe("The id of the certificate the service issued for the host name."),
});
export type WorkerDomainOutputs = z.infer<typeof WorkerDomainOutputs>;

/**
 * The class's doc comment in the TypeScript SDK (scripts/gen-sdk-classes.ts writes it, whitespace folded, above the
 * example below): what the resource is for and how it behaves.
 */
export const classDoc = `
  A custom domain: the host name \`hostname\` is served by the edge script \`script\` as its origin. The service makes
  the host's DNS record and certificate and keeps the record read-only, so no DnsRecord or DnsRecordSet may declare
  that name (refused at preview). A host attached already elsewhere is refused at preview unless \`adopt: true\`.`;

/**
 * The example of the reference and of the class's doc comment, in every language (scripts/example-render.ts), run
 * by the tests against the emulators' seeds.
 */
export const example: Example = {
  before: [{ token: "ops:edge:WorkerScript", name: "apiScript", args: { name: "hello-api", source: "worker.js" } }],
  step: { name: "helloDomain", args: { zoneName: "example.com", hostname: "hello.example.com", script: ref("apiScript.name") } },
};

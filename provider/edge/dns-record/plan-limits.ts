/**
 * The zone plan's limits on a record, known before anything is sent (the service's plans table): tags only on paid
 * plans, 20 a record (the owner's label among them where the stack writes it); a comment of 100 characters on Free
 * (500 paid); a TTL under 60 seconds only on Enterprise; per-record CNAME flattening only on paid plans. Checked at
 * preview, with the zone's plan read once (the zone lookup the preview makes anyway), naming the record and the plan.
 */
import { ValidationError } from "../../http/errors";
import { currentOwner } from "../../owner";
import { resolveZone } from "../zones";

type Rec = { tags?: unknown; comment?: unknown; ttl?: unknown; proxied?: unknown; settings?: { flattenCname?: unknown } };
const PLAN_NAMES: Record<string, string> = { free: "Free", pro: "Pro", business: "Business", enterprise: "Enterprise" };

/** Why this record does not fit the plan, if it does not. */
function problem(r: Rec, plan: string, labelled: boolean): string | undefined {
  const name = PLAN_NAMES[plan] ?? plan;
  const tags = Array.isArray(r.tags) ? r.tags.length : 0;
  if (plan === "free" && tags)
    return `tags need a paid plan (the Free plan's quota is 0 tags a record): remove them, or move the zone to a paid plan`;
  if (labelled && tags > 19) return `a record takes 20 tags, and one is the stack's owner label (pulumi-ops-stack): give at most 19`;
  if (plan === "free" && typeof r.comment === "string" && r.comment.length > 100)
    return `comment is ${r.comment.length} characters, and the Free plan allows 100 (paid plans 500): shorten it`;
  if (typeof r.ttl === "number" && r.ttl !== 1 && r.ttl < 60 && r.proxied !== true && plan !== "enterprise")
    return `ttl ${r.ttl} is under 60 seconds, which only Enterprise zones allow (this zone is on the ${name} plan): use 60 or more`;
  if (plan === "free" && r.settings?.flattenCname === true)
    return `flattening a single CNAME (settings.flattenCname) needs a paid plan: remove it (the zone's apex CNAME is flattened on every plan)`;
  return undefined;
}

/** Fails the preview when a record of the resource does not fit its zone's plan; reads nothing when none could not. */
export async function checkRecordPlan(zoneName: string, given: [what: string, rec: object][]): Promise<void> {
  const records = given as [string, Rec][];
  const limited = records.filter(
    ([, r]) =>
      (Array.isArray(r.tags) && r.tags.length) ||
      (typeof r.comment === "string" && r.comment.length > 100) ||
      (typeof r.ttl === "number" && r.ttl > 1 && r.ttl < 60) ||
      r.settings?.flattenCname === true,
  );
  if (!limited.length) return;
  const zone = await resolveZone({ zoneName });
  if (!zone.plan) return; // a plan the zone's answer does not tell: the service decides
  const plan = zone.plan;
  const labelled = plan !== "free" && currentOwner() !== undefined;
  for (const [what, r] of limited) {
    const why = problem(r, plan, labelled);
    if (why)
      throw new ValidationError({
        service: "edge",
        message: `${what} in zone ${zone.name} (${PLAN_NAMES[plan] ?? plan} plan): ${why.split(": ")[0]}`,
        remedy: why
          .split(": ")
          .slice(1)
          .join(": ")
          .replace(/^./, (c) => c.toUpperCase()),
      });
  }
}

/**
 * One rule per resource in a zone's entry point ruleset of a phase (the rulesets engine, which replaced the firewall
 * rules and rate-limit APIs): the ruleset is made when the zone has none, and rules are added, patched and deleted one
 * by one with the rule endpoints. The whole ruleset is never replaced, so rules made elsewhere (the dashboard, other
 * tools, the service's upgrade of legacy rules) are never touched.
 */
import type { Bag } from "../handler";
import { ApiError, NotFoundError } from "../http/errors";
import { log, notice, warn } from "../log";
import { adoptedInRun } from "../claims";
import { listedRule } from "./rule-listing";
import type * as wire from "./wire";
import { actualPosition, inPlace, placement, type RulePosition, type WirePosition } from "./rule-position";
import { edge, edgeClaim, edgeScope } from "./zones";

export const FIREWALL_PHASE = "http_request_firewall_custom";
export const RATE_LIMIT_PHASE = "http_ratelimit";

/** A rule and the ruleset it is in. */
export interface PlacedRule {
  rule: wire.RulesetRule;
  rulesetId: string;
}

/** The zone's rules of a phase, from one reading of its entry point per run (rule-listing.ts). */
export async function listedPhaseRule(zoneId: string, phase: string, ruleId: string): Promise<PlacedRule | undefined> {
  const found = await listedRule(edgeScope(), "rulesets", `${zoneId} ${phase}`, ruleId, async () => {
    const rs = await edge().entrypoint(zoneId, phase);
    return (rs?.rules ?? []).map((rule) => ({ id: rule.id, rule, rulesetId: rs!.id }));
  });
  return found as PlacedRule | undefined;
}

/**
 * Where the rule `ruleId` stands now when it is out of the place `position` gives it (refresh shows that as drift,
 * and up puts it back); undefined when it is in place or the program gives no position (nothing is read then).
 */
export async function movedFrom(
  zoneId: string,
  phase: string,
  ruleId: string,
  position: RulePosition | undefined,
): Promise<RulePosition | undefined> {
  if (!position) return undefined;
  const rules = (await phaseRules(zoneId, phase)).map((p) => p.rule);
  return inPlace(rules, ruleId, position) ? undefined : actualPosition(rules, ruleId);
}

/** The rules of the phase as they are now (no cached listing): for finding a rule to adopt or to recover. */
export async function phaseRules(zoneId: string, phase: string): Promise<PlacedRule[]> {
  const rs = await edge().entrypoint(zoneId, phase);
  return (rs?.rules ?? []).map((rule) => ({ rule, rulesetId: rs!.id }));
}

/** Adds of one zone and phase, one at a time in this process: two first rules must not both make the ruleset. */
const queues = new Map<string, Promise<unknown>>();
function oneAtATime<T>(key: string, f: () => Promise<T>): Promise<T> {
  const turn = (queues.get(key) ?? Promise.resolve()).then(f, f);
  queues.set(
    key,
    turn.catch(() => undefined),
  );
  return turn;
}

/**
 * Adds `body` to the zone's entry point ruleset of `phase` (where `place` puts it among the rules there, else at the
 * end), making the ruleset when the zone has none, and answers the rule the service made: found by its `ref` when
 * one is sent, else as the rule with the same expression and action that was not there before.
 */
export function addPhaseRule(
  zoneId: string,
  phase: string,
  body: wire.RuleBody,
  place?: (rules: wire.RulesetRule[]) => { wire?: WirePosition; said: string },
): Promise<PlacedRule> {
  return oneAtATime(`${zoneId} ${phase}`, async () => {
    const current = await edge().entrypoint(zoneId, phase);
    const before = new Set((current?.rules ?? []).map((r) => r.id)); // the rule made is the one not among these
    let after: wire.Ruleset;
    // Where it goes among the rules there now (rule-position.ts): said, and sent as the add's position.
    const where = current && place ? place(current.rules) : undefined;
    if (where && where.wire) log(`edge: adding the ${phase} rule ${body.ref ?? body.description ?? body.expression} ${where.said}`);
    if (current) after = await edge().addRule(zoneId, current.id, where?.wire ? { ...body, position: where.wire } : body);
    else {
      try {
        after = await edge().createEntrypoint(zoneId, phase, [body]);
      } catch (e) {
        // Another tool made the zone's ruleset for this phase a moment ago (20217): add to it instead.
        if (!(e instanceof ApiError) || e.code !== 20217) throw e;
        const made = await edge().entrypoint(zoneId, phase);
        if (!made) throw e;
        const there = place?.(made.rules).wire;
        for (const r of made.rules) before.add(r.id);
        after = await edge().addRule(zoneId, made.id, there ? { ...body, position: there } : body);
      }
    }
    const rule = body.ref
      ? after.rules.find((r) => r.ref === body.ref)
      : (after.rules.find((r) => !before.has(r.id) && r.expression === body.expression && r.action === body.action) ??
        after.rules.findLast((r) => r.expression === body.expression && r.action === body.action));
    if (!rule)
      throw new ApiError({
        service: "edge",
        message: `the ${phase} ruleset did not hold the rule it was just given`,
        remedy: "Run the command again; refresh first if the ruleset was changed meanwhile",
      });
    return { rule, rulesetId: after.id };
  });
}

/** What the service sets on a rule, never sent back. */
const SERVICE_FIELDS = new Set(["id", "version", "last_updated", "categories"]);

/**
 * The definition a rule's PATCH sends: a PATCH replaces the whole definition (update-rule), so the rule as the
 * service has it now is sent back with the program's fields over it, and what the program does not manage — logging,
 * a block's custom response, a rate limit's counting expression, requests to origin, score — is kept, never wiped.
 * Action parameters are merged key by key while the action stays the same (a new action's parameters are its own),
 * except `dropped`: keys the program gave before and gives no more, which go; a rate limit's key by key.
 */
export function mergedRule(current: wire.RulesetRule | undefined, body: wire.RuleBody, dropped: string[] = []): wire.RuleBody {
  if (!current) return body;
  const kept = Object.fromEntries(Object.entries(current).filter(([k, v]) => !SERVICE_FIELDS.has(k) && v !== undefined && v !== null));
  const merged: wire.RuleBody = { ...kept, ...body } as wire.RuleBody;
  const sameAction = current.action === body.action;
  const theirs = Object.entries((sameAction ? current.action_parameters : undefined) ?? {}).filter(([k]) => !dropped.includes(k));
  const params = { ...Object.fromEntries(theirs), ...body.action_parameters };
  if (Object.keys(params).length) merged.action_parameters = params;
  else delete merged.action_parameters;
  if (body.ratelimit) merged.ratelimit = { ...(current.ratelimit ?? {}), ...body.ratelimit } as wire.RuleRatelimit;
  return merged;
}

/**
 * At preview (reads only): where a new rule of `phase` will be added (rule-position.ts), said as info. A position
 * naming a rule the phase does not have yet (one the program makes in the same run) is said as such.
 */
export async function previewPlacement(
  zone: { id: string; name: string },
  phase: string,
  what: string,
  position: RulePosition | undefined,
  skipLike: boolean,
): Promise<void> {
  const rules = (await phaseRules(zone.id, phase)).map((p) => p.rule);
  let said: string;
  try {
    said = placement(rules, position, skipLike).said;
  } catch {
    said = `${position?.before !== undefined ? "before" : "after"} rule ${position?.before ?? position?.after}, which the zone does not have yet (the up fails if nothing makes it first)`;
  }
  notice(`edge: ${what} will be added ${said} among the ${rules.length} ${phase} rule${rules.length === 1 ? "" : "s"} of ${zone.name}`);
}

/**
 * Patches one rule (read first, merged: mergedRule), answering it as the service now has it; with `position` (the
 * program's), a rule out of that place is moved back by the same PATCH.
 */
export async function patchPhaseRule(
  zoneId: string,
  placed: { rulesetId: string; ruleId: string },
  body: wire.RuleBody,
  position?: RulePosition,
  dropped: string[] = [],
): Promise<PlacedRule> {
  const rules = (await edge().ruleset(zoneId, placed.rulesetId)).rules;
  const current = rules.find((r) => r.id === placed.ruleId);
  if (!current) throw new NotFoundError({ service: "edge", message: `rule ${placed.ruleId} is not in its ruleset any more` });
  const move =
    position && !inPlace(rules, placed.ruleId, position)
      ? placement(
          rules.filter((r) => r.id !== placed.ruleId),
          position,
          false,
        )
      : undefined;
  if (move?.wire) log(`edge: moving rule ${current.ref ?? current.id} back ${move.said}`);
  const after = await edge().patchRule(zoneId, placed.rulesetId, placed.ruleId, {
    ...mergedRule(current, body, dropped),
    ...(move?.wire ? { position: move.wire } : {}),
  });
  const rule = after.rules.find((r) => r.id === placed.ruleId);
  if (!rule) throw new NotFoundError({ service: "edge", message: `rule ${placed.ruleId} is not in its ruleset after the update` });
  return { rule, rulesetId: after.id };
}

/** Deletes one rule; one already gone (404) is fine. */
export async function deletePhaseRule(zoneId: string, rulesetId: string, ruleId: string): Promise<void> {
  try {
    await edge().deleteRule(zoneId, rulesetId, ruleId);
  } catch (e) {
    if (!(e instanceof NotFoundError)) throw e;
  }
}

/**
 * A rule written by pulumi-ops 0.3.0 (a legacy firewall rule or rate limit, `id` its legacy id): the rule the
 * service's upgrade made of it, found by a `ref` or id equal to the legacy id, else by `same`.
 */
export async function convertedRule(
  zoneId: string,
  phase: string,
  legacyId: string,
  same: (r: wire.RulesetRule) => boolean,
): Promise<PlacedRule | undefined> {
  const rules = await phaseRules(zoneId, phase);
  return rules.find((p) => p.rule.ref === legacyId || p.rule.id === legacyId) ?? rules.find((p) => same(p.rule));
}

/**
 * The update of a resource's rule (FirewallRule, RateLimit): its own rule patched; for 0.3.0 state (no `ruleId` yet)
 * the rule the service converted the legacy one into, patched only where it differs from `body`, or added when the
 * service has none.
 */
export async function updateResourceRule(
  zoneId: string,
  phase: string,
  olds: Bag,
  body: wire.RuleBody,
  o: {
    converted: () => Promise<PlacedRule | undefined>;
    same: (rule: wire.RulesetRule, body: wire.RuleBody) => boolean;
    what: string;
    position?: RulePosition;
    dropped?: string[];
  },
): Promise<PlacedRule> {
  if (olds.ruleId)
    return patchPhaseRule(
      zoneId,
      { rulesetId: olds.rulesetId, ruleId: olds.ruleId },
      { ...body, ref: body.ref ?? olds.ref },
      o.position,
      o.dropped,
    );
  const found = await o.converted();
  if (!found) {
    warn(`${o.what} (0.3.0) has no converted rule in the zone's ${phase} ruleset: adding it`);
    return addPhaseRule(zoneId, phase, body);
  }
  if (o.same(found.rule, body)) return found;
  return patchPhaseRule(zoneId, { rulesetId: found.rulesetId, ruleId: found.rule.id }, { ...body, ref: body.ref ?? found.rule.ref });
}

/** The delete of a resource's rule: by the ids in state, or for 0.3.0 state the converted rule; none is gone. */
export async function deleteResourceRule(zoneId: string, props: Bag, converted: () => Promise<PlacedRule | undefined>): Promise<void> {
  const placed =
    props.ruleId && props.rulesetId
      ? { rulesetId: props.rulesetId as string, ruleId: props.ruleId as string }
      : await converted().then((p) => p && { rulesetId: p.rulesetId, ruleId: p.rule.id });
  if (!placed) return;
  // Taken over by another resource's create in this run (a resource renamed without an alias): left to it.
  if (adoptedInRun(edgeClaim("rule", placed.ruleId))) {
    notice(`edge: the rule ${props.ref ?? placed.ruleId} was taken over by another resource of this run: not deleted`);
    return;
  }
  await deletePhaseRule(zoneId, placed.rulesetId, placed.ruleId);
}

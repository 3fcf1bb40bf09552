/** The `zoneId` / `zoneName` pair every zone-scoped edge resource takes. */
import { z } from "zod";
import { ruleFailure } from "../check";
import { isHostname } from "./dns-record/normalize";

export const zoneInputs = {
  // The spec types the id as a string: any form the service issues is taken (the usual one is 32 hex digits), but
  // not one that would change the request's path.
  zoneId: z
    .string()
    .min(1, "zoneId must not be empty: give the zone's id, or zoneName instead")
    .max(64, "zoneId must be at most 64 characters")
    .regex(/^[A-Za-z0-9_-]+$/, "zoneId must be the zone's id as the service gives it: letters, digits, _ and - (no / or spaces)")
    .optional()
    .describe("The zone's id. Give this or zoneName. Changing the zone replaces the resource.")
    .meta({ replaceOnChanges: true }),
  zoneName: z
    .string()
    .refine(isHostname, { error: "zoneName must be a domain name such as example.com" })
    .optional()
    .describe("The zone's name, looked up with GET /zones?name=. Give this or zoneId.")
    .meta({ replaceOnChanges: true }),
};

export function zoneRule(r: { zoneId?: string; zoneName?: string }, ctx: z.RefinementCtx): void {
  if (!r.zoneId === !r.zoneName) {
    ruleFailure(ctx, r.zoneId ? "zoneName" : "zoneId", "set exactly one of zoneId and zoneName", ["zoneId", "zoneName"]);
  }
}

/** True when the desired zone is not the one the resource lives in (outputs carry both id and name). */
export function zoneChanged(desired: { zoneId?: string; zoneName?: string }, current: { zoneId: string; zoneName: string }): boolean {
  if (desired.zoneId) return desired.zoneId !== current.zoneId;
  return (desired.zoneName ?? "").toLowerCase().replace(/\.$/, "") !== current.zoneName.toLowerCase();
}

/** `[zoneId, objectId]` from a resource id: the object id with the zone from state, or `<zoneId>/<id>` from get(). */
export function zoneScopedId(id: string, props: { zoneId?: string }): [string, string] {
  return id.includes("/") ? (id.split("/", 2) as [string, string]) : [props.zoneId!, id];
}

/**
 * The zone outputs of a zone-scoped resource: its id and name, and which of the two the program gave
 * (`zoneGivenAs`, bookkeeping outside the typed outputs) so that the inputs a refresh reports carry only that one:
 * a drift diff never shows a property the program did not set.
 */
export function zoneOutputs(wanted: { zoneId?: string; zoneName?: string; zoneGivenAs?: string }, zone: { id: string; name: string }) {
  // From a program's inputs (one of the two), or carried over from state; state written before it had both: unknown.
  const givenAs = wanted.zoneGivenAs ?? (wanted.zoneId && wanted.zoneName ? undefined : wanted.zoneId ? "zoneId" : "zoneName");
  return { zoneId: zone.id, zoneName: zone.name, ...(givenAs ? { zoneGivenAs: givenAs } : {}) };
}

/** The inputs a refresh reports, with only the zone key the program gave (both, for state written before). */
export function programZoneInputs<T extends { zoneId?: string; zoneName?: string; zoneGivenAs?: string }>(
  inputs: T,
): Omit<T, "zoneGivenAs"> {
  const { zoneGivenAs, ...rest } = inputs;
  if (zoneGivenAs === "zoneId") delete rest.zoneName;
  if (zoneGivenAs === "zoneName") delete rest.zoneId;
  return rest;
}

/** The `zoneId` / `zoneName` pair every zone-scoped edge resource takes. */
import { z } from "zod";
import { ruleFailure } from "../check";
import { isHostname } from "./dns-record/normalize";

export const zoneInputs = {
  zoneId: z
    .string()
    .regex(/^[0-9a-f]{32}$/, "zoneId must be the zone's 32-character hexadecimal id")
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

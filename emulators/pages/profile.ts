/**
 * A page's own profile, as the Graph API's Page node keeps it: `about`, `description`, `website`, `phone`, `emails`
 * and `hours`, read with `GET /{page-id}?fields=...` and changed with `POST /{page-id}` by a page token with
 * pages_manage_metadata on a page where its user has the MANAGE task; the answer is `{"success": true}`.
 */
import type { Request } from "../kit";
import { graphError, listParam, ok, params } from "../graph";
import { needPage } from "./access";
import type { Page, PagesEmulator } from "./server";

/** What a page's profile holds, by the field names the service answers. */
export interface Profile {
  description: string;
  website: string;
  phone: string;
  emails: string[];
  hours: Record<string, string>;
}

export const PROFILE_FIELDS = ["about", "description", "website", "phone", "emails", "hours"] as const;

/** `mon_1_open` to `sun_2_close`: two spans a day, each opened and closed at `HH:MM`. */
const HOURS_KEY = /^(mon|tue|wed|thu|fri|sat|sun)_[12]_(open|close)$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

/**
 * The fields of a page's node that belong to its profile, as GET answers them: a field the page has no value for is
 * left out of the answer ("If a field is not returned in the response, the Page does not have this value set").
 */
export function profileView(page: Page): Record<string, unknown> {
  const set = (v: string | string[] | Record<string, string>) =>
    (typeof v === "string" ? v : Array.isArray(v) ? v.length : Object.keys(v).length) ? v : undefined;
  return {
    about: set(page.about),
    description: set(page.profile.description),
    website: set(page.profile.website),
    phone: set(page.profile.phone),
    emails: set(page.profile.emails),
    hours: set(page.profile.hours),
  };
}

/** `POST /{page-id}`: the profile's fields given, checked as the service checks them; the rest of the page kept. */
export function updateProfile(emu: PagesEmulator, req: Request, pageId: string) {
  const page = needPage(emu, req, pageId, "pages_manage_metadata", "MANAGE");
  const p = params(req);
  const given = Object.keys(p).filter((k) => !["access_token", "appsecret_proof", "method", "format"].includes(k));
  const unknown = given.find((k) => !(PROFILE_FIELDS as readonly string[]).includes(k));
  if (unknown) graphError(400, 100, `(#100) Param ${unknown} is not a field this endpoint updates`);
  if (p.about !== undefined) {
    // The Page reference gives `about` a limit of 100 characters.
    if (p.about.length > 100) graphError(400, 100, "(#100) Param about must be at most 100 characters long");
    page.about = p.about;
  }
  if (p.description !== undefined) page.profile.description = p.description;
  if (p.website !== undefined) {
    if (p.website && !/^(https?:\/\/)?[^\s/.]+\.[^\s]+$/i.test(p.website)) graphError(400, 100, "(#100) Param website must be a valid URL");
    page.profile.website = p.website;
  }
  if (p.phone !== undefined) page.profile.phone = p.phone;
  if (p.emails !== undefined) {
    const emails = listParam(p.emails);
    const bad = emails.find((e) => !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(e));
    if (bad) graphError(400, 100, `(#100) Param emails[0] must be a valid email address: ${bad}`);
    page.profile.emails = emails;
  }
  if (p.hours !== undefined) {
    let hours: Record<string, unknown>;
    try {
      hours = p.hours ? (JSON.parse(p.hours) as Record<string, unknown>) : {};
    } catch {
      graphError(400, 100, "(#100) Param hours must be a JSON object");
    }
    for (const [k, v] of Object.entries(hours!)) {
      if (!HOURS_KEY.test(k)) graphError(400, 100, `(#100) Param hours has an invalid key ${k}: use mon_1_open ... sun_2_close`);
      if (typeof v !== "string" || !TIME.test(v)) graphError(400, 100, `(#100) Param hours[${k}] must be a time as HH:MM`);
    }
    page.profile.hours = Object.fromEntries(Object.entries(hours!).map(([k, v]) => [k, String(v)]));
  }
  return ok({ success: true });
}

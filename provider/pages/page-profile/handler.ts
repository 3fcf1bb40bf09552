/**
 * `ops.pages.PageProfile`. id: `<pageId>/profile`. The page always has a profile, so a create takes it over as a
 * ZoneSetting takes a zone's setting: the fields the program gives are written where the page holds another value
 * (nothing is sent when it holds the program's), the rest of the page is kept. Read compares those fields as the
 * service means them (emails as a set, hours by key); destroy leaves the page as it is, since the Graph API has no
 * unset for these fields.
 */
import { checkWith, withoutProvider } from "../../check";
import { changedKeys, sameField, sameSet, type Bag, type Handler } from "../../handler";
import { log, notice, warn } from "../../log";
import { pages } from "../client";
import { previewPageAccess } from "../page-access";
import { PageProfileInputs, PROFILE_KEYS, type PageProfileOutputs } from "./schema";

type Profile = Partial<Record<(typeof PROFILE_KEYS)[number], unknown>>;

/** A web address as the program may write it and the page may keep it: no scheme, no trailing slash, any case. */
const siteOf = (v: unknown) =>
  String(v ?? "")
    .replace(/^https?:\/\//i, "")
    .replace(/\/+$/, "")
    .toLowerCase();

/** Two values of a profile field, as the service means them. */
const same = (k: string, a: unknown, b: unknown) =>
  k === "emails"
    ? sameSet(a as unknown[], b as unknown[])
    : k === "website"
      ? siteOf(a) === siteOf(b)
      : sameField(k, a ?? undefined, b ?? undefined);

const managedOf = (r: Bag): string[] => PROFILE_KEYS.filter((k) => r[k] !== undefined);

async function current(pageId: string): Promise<Profile> {
  const page = await pages().read<Bag>(pageId, `/${pageId}`, { fields: PROFILE_KEYS.join(",") });
  return {
    about: page.about ?? "",
    description: page.description ?? "",
    website: page.website ?? "",
    phone: page.phone ?? "",
    emails: page.emails ?? [],
    hours: page.hours ?? {},
  };
}

const outputs = (pageId: string, there: Profile, managed: string[]): PageProfileOutputs => ({
  pageId,
  about: there.about as string,
  description: there.description as string,
  website: there.website as string,
  phone: there.phone as string,
  emails: there.emails as string[],
  hours: there.hours as Record<string, string>,
  managed,
});

/** Writes the managed fields the page holds otherwise; answers what the page holds after. */
async function apply(r: Bag, there: Profile): Promise<Profile> {
  const changed = managedOf(r).filter((k) => !same(k, r[k], there[k as keyof Profile]));
  if (!changed.length) {
    log(`pages: page ${r.pageId}'s profile holds the program's ${managedOf(r).join(", ")} already; nothing sent`);
    return there;
  }
  await pages().setOnPage(r.pageId, `/${r.pageId}`, Object.fromEntries(changed.map((k) => [k, r[k]])));
  return current(r.pageId);
}

const quoted = (v: unknown) => (typeof v === "string" ? JSON.stringify(v.length > 60 ? `${v.slice(0, 57)}...` : v) : JSON.stringify(v));

export const pageProfile: Handler<PageProfileInputs, PageProfileOutputs> = {
  async preview(ctx) {
    await previewPageAccess(ctx, {
      permission: "pages_manage_metadata",
      task: { task: "MANAGE", what: "changing the page's profile", roles: "admin role (the MANAGE task)" },
    });
    if (ctx.reads && !ctx.ownedByStack() && typeof ctx.inputs.pageId === "string")
      notice(
        `pages: destroying PageProfile leaves page ${ctx.inputs.pageId}'s profile as it is (the Graph API has no unset for these fields)`,
      );
  },
  async check(_olds, news) {
    return checkWith(PageProfileInputs, news);
  },
  async diff(_id, olds, news) {
    const wanted = withoutProvider(news);
    const replaces = changedKeys(["pageId"], olds, wanted, (_k, a, b) => a === b);
    const changed = changedKeys(managedOf(wanted), olds, wanted, same);
    return { changes: replaces.length + changed.length > 0, replaces };
  },
  async create(r) {
    const there = await current(r.pageId);
    return { id: `${r.pageId}/profile`, outs: outputs(r.pageId, await apply(r, there), managedOf(r)) };
  },
  async read(id, props) {
    const pageId = id.split("/")[0];
    const there = await current(pageId);
    const managed = (props.managed as string[] | undefined) ?? [...PROFILE_KEYS];
    const outs = outputs(pageId, there, managed);
    const drifted = managed.filter((k) => props[k] !== undefined && !same(k, props[k], there[k as keyof Profile]));
    if (drifted.length)
      warn(
        `pages: page ${pageId}'s profile was changed on the page: ${drifted.map((k) => `${k} ${quoted(props[k])} → ${quoted(there[k as keyof Profile])}`).join("; ")}; the next up writes the program's again`,
      );
    // A lookup (nothing kept) or drift: the inputs are the page's own values of the managed fields.
    return { id, props: outs, inputs: { pageId, ...Object.fromEntries(managed.map((k) => [k, there[k as keyof Profile]])) } };
  },
  async update(_id, _olds, news) {
    const r = withoutProvider(news);
    return { outs: outputs(r.pageId, await apply(r, await current(r.pageId)), managedOf(r)) };
  },
  async delete(id) {
    log(`pages: page ${id.split("/")[0]}'s profile is left as it is (the Graph API has no unset for its fields)`);
  },
};

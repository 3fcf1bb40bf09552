/**
 * `ops.pages.PageRole`. id: `<pageId>/<user>`. Access is granted, changed and removed with the page's
 * `/assigned_users` and tasks, read back with the page's business (`business` of the page unless given).
 * `POST`/`DELETE /{page}/roles` are not offered any more; `/roles` still lists the people outside a business, so a
 * 0.3.0 role found there is read as it is (no change when it is what the program says), and moves to the business
 * with the first change.
 */
import { checkWith, withoutProvider } from "../../check";
import { changedKeys, type Bag, type Handler } from "../../handler";
import { PAGES_SETTINGS, readFlag } from "../../config";
import { AlreadyExistsError, ValidationError } from "../../http/errors";
import { log, notice, warn } from "../../log";
import { pages } from "../client";
import { previewPageAccess, previewPageTakeover } from "../page-access";
import { canonicalTasks, PageRoleInputs, ROLE_TASKS, roleOf, type PageRoleOutputs } from "./schema";

type Access = { tasks: string[]; name?: string; outside?: boolean };
/** The business the page's access goes through: the program's, else the page's own (read once per run and client). */
async function businessOf(pageId: string, given?: string): Promise<string> {
  if (given) return given;
  const id = await pages().businessOf(pageId);
  if (!id)
    throw new ValidationError({
      service: "pages",
      message: `page ${pageId} belongs to no business, and access is granted through one`,
      remedy: "Add the page to a business (Meta Business Suite), or set `business` to the business that manages it",
    });
  return id;
}

/** What `user` may do on the page: through the business, else (0.3.0) a role outside it; undefined: nothing. */
async function accessOf(pageId: string, user: string, business: string): Promise<Access | undefined> {
  const assigned = await pages().read<{ data: { id: string; name?: string; tasks?: string[] }[] }>(pageId, `/${pageId}/assigned_users`, {
    business,
    fields: "id,name,tasks",
  });
  const mine = assigned.data.find((u) => u.id === user);
  if (mine) return { tasks: canonicalTasks(mine.tasks ?? []), name: mine.name };
  const roles = await pages().read<{ data: { id: string; name?: string; role?: string; tasks?: string[] }[] }>(pageId, `/${pageId}/roles`);
  const old = roles.data.find((u) => u.id === user);
  if (!old) return undefined;
  const tasks = old.tasks ?? (old.role && old.role in ROLE_TASKS ? ROLE_TASKS[old.role as keyof typeof ROLE_TASKS] : []);
  return { tasks: canonicalTasks(tasks), name: old.name, outside: true };
}

const wantedTasks = (r: Bag): string[] => canonicalTasks(r.tasks ?? ROLE_TASKS[r.role as keyof typeof ROLE_TASKS] ?? []);

function outputs(pageId: string, user: string, business: string, a: Access): PageRoleOutputs {
  const role = roleOf(a.tasks);
  return { pageId, user, ...(role ? { role } : {}), tasks: a.tasks, business, ...(a.name ? { userName: a.name } : {}) };
}

async function grant(r: Bag): Promise<PageRoleOutputs> {
  const business = await businessOf(r.pageId, r.business);
  await pages().setOnPage(r.pageId, `/${r.pageId}/assigned_users`, { user: r.user, tasks: JSON.stringify(wantedTasks(r)) });
  const a = (await accessOf(r.pageId, r.user, business)) ?? { tasks: wantedTasks(r) };
  return outputs(r.pageId, r.user, business, a);
}

/** Whether a create takes over access the person already has: `adopt`, or ops:pagesAdoptExisting for a recovery run. */
const adopting = (r: Bag) => r.adopt === true || readFlag(PAGES_SETTINGS.adoptExisting);

function accessTaken(r: Bag, a: Access): AlreadyExistsError {
  return new AlreadyExistsError({
    service: "pages",
    message: `${a.name ?? r.user} already has access to page ${r.pageId} (${a.tasks.join(", ") || "no tasks"}), granted by someone else`,
    remedy:
      "Set `adopt: true` on this PageRole to take that access over (destroy then gives back those tasks), or leave the person out of the program",
  });
}

/**
 * At preview (reads only): a person who already has access is refused unless the resource adopts, and an adopting
 * one says what it will take over and change.
 */
async function previewAccess(r: Bag): Promise<void> {
  const business = await businessOf(r.pageId, r.business);
  const a = await accessOf(r.pageId, r.user, business);
  if (!a) return;
  if (!adopting(r)) throw accessTaken(r, a);
  const to = wantedTasks(r);
  notice(
    `pages: PageRole will take over ${a.name ?? r.user}'s access to page ${r.pageId}${a.tasks.join() === to.join() ? " (already as the program says)" : ` (${a.tasks.join(", ")} -> ${to.join(", ")})`}; destroy gives it back`,
  );
}

export const pageRole: Handler<PageRoleInputs, PageRoleOutputs> = {
  async preview(ctx) {
    await previewPageAccess(ctx, {
      permission: "pages_manage_metadata",
      task: { task: "MANAGE", what: "managing roles", roles: "admin role" },
    });
    await previewPageTakeover(ctx, previewAccess);
  },
  async check(_olds, news) {
    return checkWith(PageRoleInputs, news);
  },
  async diff(_id, olds, news) {
    const wanted = withoutProvider(news);
    const replaces = changedKeys(["pageId", "user"], olds, wanted, (_k, a, b) => a === b);
    // A role and the same tasks are the same access; state of 0.3.0 holds only a role.
    const had = canonicalTasks(olds.tasks ?? ROLE_TASKS[olds.role as keyof typeof ROLE_TASKS] ?? []);
    const access = had.join() !== wantedTasks(wanted).join();
    const business = wanted.business !== undefined && wanted.business !== olds.business;
    return { changes: replaces.length > 0 || access || business, replaces };
  },
  async create(r) {
    // Access someone else granted is taken only when the program says so, and what it was is kept for destroy.
    const had = await accessOf(r.pageId, r.user, await businessOf(r.pageId, r.business));
    if (had && !adopting(r)) throw accessTaken(r, had);
    const outs =
      had && had.tasks.join() === wantedTasks(r).join()
        ? outputs(r.pageId, r.user, await businessOf(r.pageId, r.business), had)
        : await grant(r);
    // What was there is given back at destroy when the program adopted it; a recovery run (ops:pagesAdoptExisting)
    // finds the access its own killed run granted, which destroy removes.
    // A role outside the business (0.3.0) stays where it is whatever this resource does: nothing to give back.
    const given = had && r.adopt === true && !had.outside ? had.tasks : undefined;
    if (had)
      notice(
        `pages: took over ${had.name ?? r.user}'s access to page ${r.pageId} (was ${had.tasks.join(", ")})${given ? "; destroy gives it back" : ""}`,
      );
    return { id: `${r.pageId}/${r.user}`, outs: { ...outs, adopt: r.adopt ?? false, ...(given ? { previousTasks: given } : {}) } };
  },
  async read(id, props) {
    const [pageId, user] = id.split("/", 2);
    const business = await businessOf(pageId, props.business);
    const a = await accessOf(pageId, user, business);
    if (!a) return {};
    const outs = {
      ...outputs(pageId, user, business, a),
      ...(props.adopt !== undefined ? { adopt: props.adopt } : {}),
      ...(props.previousTasks ? { previousTasks: props.previousTasks } : {}),
    };
    // Told as a role where the state had one and the tasks are still a role's, else as the tasks.
    const inputs: Bag = { pageId, user, ...(props.adopt ? { adopt: true } : {}) };
    if (props.role !== undefined && outs.role) inputs.role = outs.role;
    else inputs.tasks = a.tasks;
    return { id, props: outs, inputs };
  },
  async update(_id, olds, news) {
    const r = withoutProvider(news);
    return { outs: { ...(await grant(r)), adopt: r.adopt ?? false, ...(olds.previousTasks ? { previousTasks: olds.previousTasks } : {}) } };
  },
  async delete(id, props) {
    const [pageId, user] = id.split("/", 2);
    const business = await businessOf(pageId, props.business);
    const a = await accessOf(pageId, user, business);
    if (!a) return;
    if (a.outside) {
      warn(
        `pages: ${user}'s role on page ${pageId} is outside a business, which the service no longer lets an app remove: remove it in the page's settings`,
      );
      return;
    }
    // Taken over: the person gets back the tasks they had before, not nothing.
    const before = props.previousTasks as string[] | undefined;
    if (before?.length) {
      if (a.tasks.join() !== canonicalTasks(before).join())
        await pages().setOnPage(pageId, `/${pageId}/assigned_users`, { user, tasks: JSON.stringify(canonicalTasks(before)) });
      log(
        `pages: ${a.name ?? user} keeps the access to page ${pageId} they had before this stack took it over (${canonicalTasks(before).join(", ")})`,
      );
      return;
    }
    await pages().onPage(pageId, "DELETE", `/${pageId}/assigned_users`, { user });
  },
};

/**
 * `ops.pages.PageRole`. id: `<pageId>/<user>`. Access is granted, changed and removed with the page's
 * `/assigned_users` and tasks, read back with the page's business (`business` of the page unless given).
 * `POST`/`DELETE /{page}/roles` are not offered any more; `/roles` still lists the people outside a business, so a
 * 0.3.0 role found there is read as it is (no change when it is what the program says), and moves to the business
 * with the first change.
 */
import { checkWith, withoutProvider } from "../../check";
import { changedKeys, type Bag, type Handler } from "../../handler";
import { ValidationError } from "../../http/errors";
import { warn } from "../../log";
import { pages } from "../client";
import { canonicalTasks, PageRoleInputs, ROLE_TASKS, roleOf } from "./schema";

type Access = { tasks: string[]; name?: string; outside?: boolean };
/** The business the page's access goes through: the program's, else the page's own (read once per run and client). */
async function businessOf(pageId: string, given?: string): Promise<string> {
  if (given) return given;
  const id = await pages().businessOf(pageId);
  if (!id) throw new ValidationError({ service: "pages", message: `page ${pageId} belongs to no business, and access is granted through one`, remedy: "Add the page to a business (Meta Business Suite), or set `business` to the business that manages it" });
  return id;
}

/** What `user` may do on the page: through the business, else (0.3.0) a role outside it; undefined: nothing. */
async function accessOf(pageId: string, user: string, business: string): Promise<Access | undefined> {
  const assigned = await pages().read<{ data: { id: string; name?: string; tasks?: string[] }[] }>(pageId, `/${pageId}/assigned_users`, { business, fields: "id,name,tasks" });
  const mine = assigned.data.find((u) => u.id === user);
  if (mine) return { tasks: canonicalTasks(mine.tasks ?? []), name: mine.name };
  const roles = await pages().read<{ data: { id: string; name?: string; role?: string; tasks?: string[] }[] }>(pageId, `/${pageId}/roles`);
  const old = roles.data.find((u) => u.id === user);
  if (!old) return undefined;
  const tasks = old.tasks ?? (old.role && old.role in ROLE_TASKS ? ROLE_TASKS[old.role as keyof typeof ROLE_TASKS] : []);
  return { tasks: canonicalTasks(tasks), name: old.name, outside: true };
}

const wantedTasks = (r: Bag): string[] => canonicalTasks(r.tasks ?? ROLE_TASKS[r.role as keyof typeof ROLE_TASKS] ?? []);

function outputs(pageId: string, user: string, business: string, a: Access) {
  const role = roleOf(a.tasks);
  return { pageId, user, ...(role ? { role } : {}), tasks: a.tasks, business, ...(a.name ? { userName: a.name } : {}) };
}

async function grant(r: Bag): Promise<Bag> {
  const business = await businessOf(r.pageId, r.business);
  await pages().setOnPage(r.pageId, `/${r.pageId}/assigned_users`, { user: r.user, tasks: JSON.stringify(wantedTasks(r)) });
  const a = (await accessOf(r.pageId, r.user, business)) ?? { tasks: wantedTasks(r) };
  return outputs(r.pageId, r.user, business, a);
}

export const pageRole: Handler = {
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
    return { id: `${r.pageId}/${r.user}`, outs: await grant(r) };
  },
  async read(id, props) {
    const [pageId, user] = id.split("/", 2);
    const business = await businessOf(pageId, props.business);
    const a = await accessOf(pageId, user, business);
    if (!a) return {};
    const outs = outputs(pageId, user, business, a);
    // Told as a role where the state had one and the tasks are still a role's, else as the tasks.
    const inputs: Bag = { pageId, user };
    if (props.role !== undefined && outs.role) inputs.role = outs.role;
    else inputs.tasks = a.tasks;
    return { id, props: outs, inputs };
  },
  async update(_id, _olds, news) {
    return { outs: await grant(withoutProvider(news)) };
  },
  async delete(id, props) {
    const [pageId, user] = id.split("/", 2);
    const business = await businessOf(pageId, props.business);
    const a = await accessOf(pageId, user, business);
    if (!a) return;
    if (a.outside) {
      warn(`pages: ${user}'s role on page ${pageId} is outside a business, which the service no longer lets an app remove: remove it in the page's settings`);
      return;
    }
    await pages().onPage(pageId, "DELETE", `/${pageId}/assigned_users`, { user });
  },
};

/**
 * `ops.pages.PageRole`. id: `<pageId>/<user>`. Roles are set with the document's `POST /{page_id}/roles`;
 * removing one uses `DELETE /{page_id}/roles` with `user`, as the service historically offered.
 */
import { checkWith, withoutProvider } from "../../check";
import { changedKeys, type Handler } from "../../handler";
import { pages } from "../client";
import { PageRoleInputs } from "./schema";

async function roleOf(pageId: string, user: string) {
  const roles = await pages().read<{ data: { id: string; name?: string; role: string }[] }>(pageId, `/${pageId}/roles`);
  return roles.data.find((r) => r.id === user);
}

export const pageRole: Handler = {
  async check(_olds, news) {
    return checkWith(PageRoleInputs, news);
  },
  async diff(_id, olds, news) {
    const wanted = withoutProvider(news);
    const replaces = changedKeys(["pageId", "user"], olds, wanted, (_k, a, b) => a === b);
    const changed = changedKeys(["role"], olds, wanted, (_k, a, b) => a === b);
    return { changes: replaces.length + changed.length > 0, replaces };
  },
  async create(r) {
    await pages().setOnPage(r.pageId, `/${r.pageId}/roles`, { user: r.user, role: r.role });
    const found = await roleOf(r.pageId, r.user);
    return { id: `${r.pageId}/${r.user}`, outs: { pageId: r.pageId, user: r.user, role: found?.role ?? r.role, ...(found?.name ? { userName: found.name } : {}) } };
  },
  async read(id) {
    const [pageId, user] = id.split("/", 2);
    const found = await roleOf(pageId, user);
    if (!found) return {};
    const outs = { pageId, user, role: found.role, ...(found.name ? { userName: found.name } : {}) };
    return { id, props: outs, inputs: { pageId, user, role: found.role } };
  },
  async update(_id, _olds, news) {
    const r = withoutProvider(news);
    await pages().setOnPage(r.pageId, `/${r.pageId}/roles`, { user: r.user, role: r.role });
    const found = await roleOf(r.pageId, r.user);
    return { outs: { pageId: r.pageId, user: r.user, role: found?.role ?? r.role, ...(found?.name ? { userName: found.name } : {}) } };
  },
  async delete(id) {
    const [pageId, user] = id.split("/", 2);
    if (await roleOf(pageId, user)) await pages().onPage(pageId, "DELETE", `/${pageId}/roles`, { user });
  },
};

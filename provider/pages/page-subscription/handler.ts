/**
 * `ops.pages.PageSubscription`. id: `<pageId>/subscribed_apps`. POST replaces the field set; DELETE removes the app.
 * The page may be subscribed by other apps too: only this app's subscription (ops:pagesAppId, else the app of the
 * token, `GET /app`) is read, changed or removed.
 */
import { checkWith, withoutProvider } from "../../check";
import { changedKeys, type Handler } from "../../handler";
import { pages } from "../client";
import { PageSubscriptionInputs } from "./schema";

async function current(pageId: string) {
  const [apps, appId] = await Promise.all([pages().read<{ data: { id: string; subscribed_fields: string[] }[] }>(pageId, `/${pageId}/subscribed_apps`), pages().appId()]);
  return apps.data.find((a) => a.id === appId);
}

const outs = (pageId: string, app?: { id: string; subscribed_fields: string[] }) => ({
  pageId,
  subscribedFields: [...(app?.subscribed_fields ?? [])].sort(),
  ...(app ? { appId: app.id } : {}),
});

async function apply(r: { pageId: string; subscribedFields: string[] }) {
  await pages().setOnPage(r.pageId, `/${r.pageId}/subscribed_apps`, { subscribed_fields: r.subscribedFields.join(",") });
  return outs(r.pageId, await current(r.pageId));
}

export const pageSubscription: Handler = {
  async check(_olds, news) {
    return checkWith(PageSubscriptionInputs, news);
  },
  async diff(_id, olds, news) {
    const wanted = withoutProvider(news);
    const replaces = changedKeys(["pageId"], olds, wanted, (_k, a, b) => a === b);
    const changed = changedKeys(["subscribedFields"], olds, wanted, (_k, a, b) => JSON.stringify(a) === JSON.stringify(b));
    return { changes: replaces.length + changed.length > 0, replaces };
  },
  async create(r) {
    return { id: `${r.pageId}/subscribed_apps`, outs: await apply(r as never) };
  },
  async read(id) {
    const pageId = id.split("/")[0];
    const app = await current(pageId);
    if (!app) return {};
    const o = outs(pageId, app);
    return { id, props: o, inputs: { pageId, subscribedFields: o.subscribedFields } };
  },
  async update(_id, _olds, news) {
    return { outs: await apply(withoutProvider(news) as never) };
  },
  async delete(id) {
    const pageId = id.split("/")[0];
    if (await current(pageId)) await pages().onPage(pageId, "DELETE", `/${pageId}/subscribed_apps`);
  },
};

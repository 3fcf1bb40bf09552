/**
 * `ops.pages.PageSubscription`. id: `<pageId>/subscribed_apps`. POST replaces the field set; DELETE removes the app.
 * The page may be subscribed by other apps too: only this app's subscription (ops:pagesAppId, else the app of the
 * token, `GET /app`) is read, changed or removed.
 */
import { checkWith, withoutProvider } from "../../check";
import { changedKeys, sameSet, type Bag, type Handler } from "../../handler";
import { PAGES_SETTINGS, readFlag } from "../../config";
import { AlreadyExistsError } from "../../http/errors";
import { log, notice } from "../../log";
import { pages } from "../client";
import { previewPageAccess, previewPageTakeover } from "../page-access";
import { PageSubscriptionInputs, type PageSubscriptionOutputs } from "./schema";

async function current(pageId: string) {
  const [apps, appId] = await Promise.all([
    pages().read<{ data: { id: string; subscribed_fields: string[] }[] }>(pageId, `/${pageId}/subscribed_apps`),
    pages().appId(),
  ]);
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

/** Whether a create takes over the app's subscription: `adopt`, or ops:pagesAdoptExisting for a recovery run. */
const adopting = (r: Bag) => r.adopt === true || readFlag(PAGES_SETTINGS.adoptExisting);

function subscriptionTaken(pageId: string, fields: string[]): AlreadyExistsError {
  return new AlreadyExistsError({
    service: "pages",
    message: `the app is already subscribed to page ${pageId} (${fields.join(", ")}), set up by someone else`,
    remedy:
      "Set `adopt: true` on this PageSubscription to take it over (destroy then subscribes the app to those fields again), or leave it out of the program",
  });
}

/** At preview (reads only): an existing subscription is refused unless adopted; an adopting one says what changes. */
async function previewSubscription(r: Bag): Promise<void> {
  const app = await current(r.pageId);
  if (!app) return;
  const had = [...app.subscribed_fields].sort();
  if (!adopting(r)) throw subscriptionTaken(r.pageId, had);
  const to = [...new Set(r.subscribedFields as string[])].sort();
  notice(
    `pages: PageSubscription will take over the app's subscription to page ${r.pageId}${had.join() === to.join() ? " (already as the program says)" : ` (${had.join(",")} -> ${to.join(",")})`}; destroy gives it back`,
  );
}

/** What a read keeps from state: whether it was taken over, and what it was before (for destroy). */
const kept = (props: Bag) => ({
  ...(props.adopt !== undefined ? { adopt: props.adopt } : {}),
  ...(props.previousFields ? { previousFields: props.previousFields } : {}),
});

export const pageSubscription: Handler<PageSubscriptionInputs, PageSubscriptionOutputs> = {
  async preview(ctx) {
    await previewPageAccess(ctx, { permission: "pages_manage_metadata" });
    await previewPageTakeover(ctx, previewSubscription);
  },
  async check(_olds, news) {
    return checkWith(PageSubscriptionInputs, news);
  },
  async diff(_id, olds, news) {
    const wanted = withoutProvider(news);
    const replaces = changedKeys(["pageId"], olds, wanted, (_k, a, b) => a === b);
    const changed = changedKeys(["subscribedFields"], olds, wanted, (_k, a, b) => sameSet(a, b));
    return { changes: replaces.length + changed.length > 0, replaces };
  },
  async create(r) {
    const app = await current(r.pageId);
    const had = app ? [...app.subscribed_fields].sort() : undefined;
    if (had && !adopting(r)) throw subscriptionTaken(r.pageId, had);
    const same = had?.join() === [...new Set(r.subscribedFields as string[])].sort().join();
    const o = same ? outs(r.pageId, app) : await apply(r as never);
    // Given back at destroy when the program adopted it; a recovery run finds its own killed run's subscription.
    const given = had && r.adopt === true ? had : undefined;
    if (had)
      notice(`pages: took over the app's subscription to page ${r.pageId} (was ${had.join(",")})${given ? "; destroy gives it back" : ""}`);
    return { id: `${r.pageId}/subscribed_apps`, outs: { ...o, adopt: r.adopt ?? false, ...(given ? { previousFields: given } : {}) } };
  },
  async read(id, props) {
    const pageId = id.split("/")[0];
    const app = await current(pageId);
    if (!app) return {};
    const o = { ...outs(pageId, app), ...kept(props) };
    return { id, props: o, inputs: { pageId, subscribedFields: o.subscribedFields, ...(props.adopt ? { adopt: true } : {}) } };
  },
  async update(_id, olds, news) {
    const r = withoutProvider(news);
    return {
      outs: {
        ...(await apply(r as never)),
        adopt: r.adopt ?? false,
        ...(olds.previousFields ? { previousFields: olds.previousFields } : {}),
      },
    };
  },
  async delete(id, props) {
    const pageId = id.split("/")[0];
    const app = await current(pageId);
    if (!app) return;
    // Taken over: the app is subscribed to what it had before, not removed.
    const before = props.previousFields as string[] | undefined;
    if (before?.length) {
      if ([...app.subscribed_fields].sort().join() !== [...before].sort().join())
        await pages().setOnPage(pageId, `/${pageId}/subscribed_apps`, { subscribed_fields: before.join(",") });
      log(`pages: the app stays subscribed to page ${pageId} as it was before this stack took it over (${before.join(",")})`);
      return;
    }
    await pages().onPage(pageId, "DELETE", `/${pageId}/subscribed_apps`);
  },
};

/** `ops.posts.WebhookSubscription`. id: `<appId>/<object>`. POST sets the subscription; DELETE removes it. */
import { checkWith, withoutProvider } from "../../check";
import { changedKeys, type Handler } from "../../handler";
import { posts } from "../client";
import { WebhookSubscriptionInputs } from "./schema";

async function current(appId: string, object: string) {
  return (await posts().subscriptions(appId)).data.find((s) => s.object === object);
}

async function apply(r: Record<string, any>) {
  await posts().subscribe(r.appId, { object: r.object, callback_url: r.callbackUrl, fields: r.fields.join(","), verify_token: r.verifyToken });
  const { __provider: _, ...outs } = r;
  return outs;
}

export const webhookSubscription: Handler = {
  async check(_olds, news) {
    return checkWith(WebhookSubscriptionInputs, news);
  },
  async diff(_id, olds, news) {
    const wanted = withoutProvider(news);
    const replaces = changedKeys(["appId", "object"], olds, wanted, (_k, a, b) => a === b);
    const changed = changedKeys(["callbackUrl", "fields", "verifyToken"], olds, wanted, (_k, a, b) => JSON.stringify(a) === JSON.stringify(b));
    return { changes: replaces.length + changed.length > 0, replaces };
  },
  async create(r) {
    return { id: `${r.appId}/${r.object}`, outs: await apply(r) };
  },
  async read(id, props) {
    const [appId, object] = id.split("/", 2);
    const s = await current(appId, object);
    if (!s) return {};
    // The service never shows the verify token again: what state holds is kept.
    const outs = { appId, object, callbackUrl: s.callback_url, fields: s.fields.map((f) => f.name).sort(), verifyToken: props.verifyToken };
    return { id, props: outs, inputs: outs };
  },
  async update(_id, _olds, news) {
    return { outs: await apply(withoutProvider(news)) };
  },
  async delete(id) {
    const [appId, object] = id.split("/", 2);
    if (await current(appId, object)) await posts().unsubscribe(appId, object);
  },
};

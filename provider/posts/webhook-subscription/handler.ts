/**
 * `ops.posts.WebhookSubscription`: the short-post service (the Threads API) has no API for webhook subscriptions —
 * they are set up in the app dashboard — so `check` refuses the resource with the steps, and a preview fails instead
 * of promising what `up` cannot do. A 0.3.0 stack that has one in state can drop it: refresh keeps what state holds
 * (there is nothing to read), and destroy removes it from state, saying the dashboard's subscription stays.
 */
import { withoutProvider } from "../../check";
import type { Handler } from "../../handler";
import { warn } from "../../log";
import { DASHBOARD_STEPS, type WebhookSubscriptionInputs, type WebhookSubscriptionOutputs } from "./schema";

export const webhookSubscription: Handler<WebhookSubscriptionInputs, WebhookSubscriptionOutputs> = {
  async check(_olds, news) {
    return { inputs: withoutProvider(news), failures: [{ property: "", reason: DASHBOARD_STEPS }] };
  },
  async diff() {
    return { changes: false, replaces: [] };
  },
  async create() {
    throw new Error(DASHBOARD_STEPS);
  },
  async read(id, props) {
    return { id, props: props as WebhookSubscriptionOutputs }; // the service has no API for it: state is all there is
  },
  async update() {
    throw new Error(DASHBOARD_STEPS);
  },
  async delete(id) {
    warn(
      `posts: WebhookSubscription ${id} leaves state only: the service has no API for webhooks, so the subscription set in the app dashboard (if any) stays there`,
    );
  },
};

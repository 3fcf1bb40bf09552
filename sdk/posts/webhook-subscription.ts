import * as pulumi from "@pulumi/pulumi";
import provider from "../../provider/providers/posts-WebhookSubscription";
import { outputSlots, secretsSlot, ownerSlot, refuseImport, CheckedResource } from "../types";
import { webhookSubscriptionOutputNames, type WebhookSubscriptionArgs, type WebhookSubscriptionOutputs as Out } from "./types";

export type { WebhookSubscriptionArgs };

/**
 * Retired: the short-post service (the Threads API) has no API for webhook subscriptions; they are set up in its app
 * dashboard (callback URL, verify token, topics `replies`, `delete`, `mentions`, `publish`). A program that declares
 * one fails at preview with those steps. The class stays so a 0.3.0 stack can remove it: destroy drops it from state
 * (sending nothing), and the dashboard's subscription stays.
 *
 * @deprecated The service has no API for webhook subscriptions: set them up in the app dashboard, and remove this resource.
 */
export class WebhookSubscription extends CheckedResource {
  declare readonly appId: pulumi.Output<Out["appId"]>;
  declare readonly object: pulumi.Output<Out["object"]>;
  declare readonly callbackUrl: pulumi.Output<Out["callbackUrl"]>;
  declare readonly fields: pulumi.Output<Out["fields"]>;
  declare readonly verifyToken: pulumi.Output<Out["verifyToken"]>;
  /** The named account (`ops:accounts`) that serves it; unset, the stack's own. */
  declare readonly account: pulumi.Output<Out["account"]>;

  constructor(name: string, args: WebhookSubscriptionArgs, opts?: pulumi.CustomResourceOptions) {
    refuseImport("posts.WebhookSubscription", name, opts, false);
    super(
      provider,
      name,
      {
        ...outputSlots(webhookSubscriptionOutputNames),
        ...args,
        verifyToken: args.verifyToken === undefined ? undefined : pulumi.secret(args.verifyToken),
        ...ownerSlot(name, opts),
        ...secretsSlot({ ...args, verifyToken: args.verifyToken === undefined ? undefined : pulumi.secret(args.verifyToken) }, opts),
      },
      opts,
      "posts",
      "WebhookSubscription",
    );
  }

  /** Reads an existing object without managing it. `id` is `<appId>/posts`. */
  static get(
    name: string,
    id: pulumi.Input<string>,
    state?: { account?: pulumi.Input<string> },
    opts?: pulumi.CustomResourceOptions,
  ): WebhookSubscription {
    return new WebhookSubscription(name, { ...state } as WebhookSubscriptionArgs, { ...opts, id });
  }
}

import * as pulumi from "@pulumi/pulumi";
import provider from "../../provider/providers/pages-PageSubscription";
import { outputSlots, secretsSlot, ownerSlot, refuseImport, setOutputs, CheckedResource } from "../types";
import { pageSubscriptionOutputNames, type PageSubscriptionArgs, type PageSubscriptionOutputs as Out } from "./types";

export type { PageSubscriptionArgs };

/**
 * The page events sent to this app's webhook (the app of ops:pagesAppId, else the one the token was issued to); the
 * set replaces this app's set, destroy unsubscribes this app. Other apps' subscriptions on the page are left alone.
 *
 *     new ops.pages.PageSubscription("events", { pageId: "200000000000001", subscribedFields: ["feed", "messages"] });
 */
export class PageSubscription extends CheckedResource {
  declare readonly pageId: pulumi.Output<Out["pageId"]>;
  declare readonly subscribedFields: pulumi.Output<Out["subscribedFields"]>;
  declare readonly appId: pulumi.Output<Out["appId"]>;
  declare readonly adopt: pulumi.Output<Out["adopt"]>;
  declare readonly previousFields: pulumi.Output<Out["previousFields"]>;
  /** The named account (`ops:accounts`) that serves it; unset, the stack's own. */
  declare readonly account: pulumi.Output<Out["account"]>;

  constructor(name: string, args: PageSubscriptionArgs, opts?: pulumi.CustomResourceOptions) {
    refuseImport("pages.PageSubscription", name, opts, true);
    super(
      provider,
      name,
      { ...outputSlots(pageSubscriptionOutputNames), ...args, ...ownerSlot(name, opts), ...secretsSlot(args, opts) },
      opts,
      "pages",
      "PageSubscription",
    );
    setOutputs(this, ["subscribedFields"]);
  }

  /** Reads an existing object without managing it. `id` is `<pageId>/subscribed_apps`. */
  static get(
    name: string,
    id: pulumi.Input<string>,
    state?: { account?: pulumi.Input<string> },
    opts?: pulumi.CustomResourceOptions,
  ): PageSubscription {
    return new PageSubscription(name, { ...state } as PageSubscriptionArgs, { ...opts, id });
  }
}

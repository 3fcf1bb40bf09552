import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import provider from "../../provider/providers/pages-PageSubscription";
import { PageSubscriptionOutputs, type PageSubscriptionInputs } from "../../provider/pages/page-subscription/schema";
import { outputSlots, type InputsOf } from "../types";


export type PageSubscriptionArgs = InputsOf<z.input<typeof PageSubscriptionInputs>>;
type Out = z.infer<typeof PageSubscriptionOutputs>;

/**
 * The page events sent to the app's webhook; the set replaces the app's set, destroy unsubscribes the app.
 *
 *     new ops.pages.PageSubscription("events", { pageId: "200000000000001", subscribedFields: ["feed", "messages"] });
 */
export class PageSubscription extends pulumi.dynamic.Resource {
  declare readonly pageId: pulumi.Output<Out["pageId"]>;
  declare readonly subscribedFields: pulumi.Output<Out["subscribedFields"]>;
  declare readonly appId: pulumi.Output<Out["appId"]>;

  constructor(name: string, args: PageSubscriptionArgs, opts?: pulumi.CustomResourceOptions) {
    super(provider, name, { ...outputSlots(PageSubscriptionOutputs), ...args }, opts, "pages", "PageSubscription");
  }

  /** Reads an existing object without managing it. `id` is `<pageId>/subscribed_apps`. */
  static get(name: string, id: pulumi.Input<string>, opts?: pulumi.CustomResourceOptions): PageSubscription {
    return new PageSubscription(name, {} as PageSubscriptionArgs, { ...opts, id });
  }
}

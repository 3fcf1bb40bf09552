import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import provider from "../../provider/providers/posts-WebhookSubscription";
import { WebhookSubscriptionOutputs, type WebhookSubscriptionInputs } from "../../provider/posts/webhook-subscription/schema";
import { outputSlots, type InputsOf } from "../types";


export type WebhookSubscriptionArgs = InputsOf<z.input<typeof WebhookSubscriptionInputs>>;
type Out = z.infer<typeof WebhookSubscriptionOutputs>;

/**
 * The short-post app's webhook (`mentions`, `replies`), set up with the app token (ops:postsAppToken). The verify
 * token is always kept secret, in outputs and state.
 *
 *     new ops.posts.WebhookSubscription("hook", { appId, callbackUrl: "https://hooks.example/posts", fields: ["mentions"], verifyToken });
 */
export class WebhookSubscription extends pulumi.dynamic.Resource {
  declare readonly appId: pulumi.Output<Out["appId"]>;
  declare readonly object: pulumi.Output<Out["object"]>;
  declare readonly callbackUrl: pulumi.Output<Out["callbackUrl"]>;
  declare readonly fields: pulumi.Output<Out["fields"]>;
  declare readonly verifyToken: pulumi.Output<Out["verifyToken"]>;

  constructor(name: string, args: WebhookSubscriptionArgs, opts?: pulumi.CustomResourceOptions) {
    super(provider, name, { ...outputSlots(WebhookSubscriptionOutputs), ...args, verifyToken: args.verifyToken === undefined ? undefined : pulumi.secret(args.verifyToken) }, opts, "posts", "WebhookSubscription");
  }

  /** Reads an existing object without managing it. `id` is `<appId>/posts`. */
  static get(name: string, id: pulumi.Input<string>, opts?: pulumi.CustomResourceOptions): WebhookSubscription {
    return new WebhookSubscription(name, {} as WebhookSubscriptionArgs, { ...opts, id });
  }
}

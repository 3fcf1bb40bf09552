import * as pulumi from "@pulumi/pulumi";
import provider from "../../provider/providers/pages-PagePost";
import { outputSlots, secretsSlot, ownerSlot, refuseImport, CheckedResource } from "../types";
import { pagePostOutputNames, type PagePostArgs, type PagePostOutputs as Out } from "./types";

export type { PagePostArgs };

/**
 * A post on a page: text, a link, one photo (`photo.url` or a local `photo.file`) or several (`photos`); published
 * now, scheduled (`published: false` and `scheduledPublishTime` 10 minutes to 75 days ahead) or a draft. Message
 * edits are made in place; `state` follows the post (a scheduled post becomes published); destroy deletes it.
 *
 *     new ops.pages.PagePost("launch", { pageId: "200000000000001", message: "We open at 7!" });
 */
export class PagePost extends CheckedResource {
  declare readonly pageId: pulumi.Output<Out["pageId"]>;
  declare readonly message: pulumi.Output<Out["message"]>;
  declare readonly link: pulumi.Output<Out["link"]>;
  declare readonly published: pulumi.Output<Out["published"]>;
  declare readonly scheduledPublishTime: pulumi.Output<Out["scheduledPublishTime"]>;
  declare readonly photo: pulumi.Output<Out["photo"]>;
  declare readonly photos: pulumi.Output<Out["photos"]>;
  declare readonly state: pulumi.Output<Out["state"]>;
  declare readonly createdTime: pulumi.Output<Out["createdTime"]>;
  declare readonly postId: pulumi.Output<Out["postId"]>;
  /** The named account (`ops:accounts`) that serves it; unset, the stack's own. */
  declare readonly account: pulumi.Output<Out["account"]>;

  constructor(name: string, args: PagePostArgs, opts?: pulumi.CustomResourceOptions) {
    refuseImport("pages.PagePost", name, opts, false);
    super(
      provider,
      name,
      { ...outputSlots(pagePostOutputNames), ...args, ...ownerSlot(name, opts), ...secretsSlot(args, opts) },
      opts,
      "pages",
      "PagePost",
    );
  }

  /** Reads an existing object without managing it. `id` is `<pageId>_<postId>`. */
  static get(
    name: string,
    id: pulumi.Input<string>,
    state?: { account?: pulumi.Input<string> },
    opts?: pulumi.CustomResourceOptions,
  ): PagePost {
    return new PagePost(name, { ...state } as PagePostArgs, { ...opts, id });
  }
}

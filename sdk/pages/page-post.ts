import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import provider from "../../provider/providers/pages-PagePost";
import { PagePostOutputs, type PagePostInputs } from "../../provider/pages/page-post/schema";
import { outputSlots, type InputsOf } from "../types";


export type PagePostArgs = InputsOf<z.input<typeof PagePostInputs>>;
type Out = z.infer<typeof PagePostOutputs>;

/**
 * A post on a page: text, a link, one photo (`photo.url` or a local `photo.file`) or several (`photos`); published
 * now, scheduled (`published: false` and `scheduledPublishTime` 10 minutes to 75 days ahead) or a draft. Message
 * edits are made in place; `state` follows the post (a scheduled post becomes published); destroy deletes it.
 *
 *     new ops.pages.PagePost("launch", { pageId, message: "We open at 7!", published: false, scheduledPublishTime: "2026-12-01T07:00:00Z" });
 */
export class PagePost extends pulumi.dynamic.Resource {
  declare readonly pageId: pulumi.Output<Out["pageId"]>;
  declare readonly message: pulumi.Output<Out["message"]>;
  declare readonly link: pulumi.Output<Out["link"]>;
  declare readonly published: pulumi.Output<Out["published"]>;
  declare readonly scheduledPublishTime: pulumi.Output<Out["scheduledPublishTime"]>;
  declare readonly photo: pulumi.Output<Out["photo"]>;
  declare readonly photos: pulumi.Output<Out["photos"]>;
  declare readonly state: pulumi.Output<Out["state"]>;
  declare readonly createdTime: pulumi.Output<Out["createdTime"]>;

  constructor(name: string, args: PagePostArgs, opts?: pulumi.CustomResourceOptions) {
    super(provider, name, { ...outputSlots(PagePostOutputs), ...args }, opts, "pages", "PagePost");
  }

  /** Reads an existing object without managing it. `id` is `<pageId>_<postId>`. */
  static get(name: string, id: pulumi.Input<string>, opts?: pulumi.CustomResourceOptions): PagePost {
    return new PagePost(name, {} as PagePostArgs, { ...opts, id });
  }
}

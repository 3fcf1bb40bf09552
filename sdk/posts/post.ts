import * as pulumi from "@pulumi/pulumi";
import provider from "../../provider/providers/posts-Post";
import { outputSlots, secretsSlot, ownerSlot, refuseImport, CheckedResource } from "../types";
import { postOutputNames, type PostArgs, type PostOutputs as Out } from "./types";

export type { PostArgs };

/**
 * A published short post (the Threads API). Created as a container at `/me/threads`, published once its media is
 * processed (looked at once a minute by default, ops:postsStatusPollSeconds, within ops:postsPublishTimeoutSeconds).
 * The account may publish 250 posts per 24 hours: a preview that would go over it fails, saying when quota frees
 * up. Counts are not outputs: `ops.posts.getPostInsights`. Any change replaces it; destroy deletes it (the service
 * allows 100 deletions per account per day).
 *
 *     new ops.posts.Post("hello", { mediaType: "TEXT", text: "Fresh bread at 7." });
 */
export class Post extends CheckedResource {
  declare readonly mediaType: pulumi.Output<Out["mediaType"]>;
  declare readonly text: pulumi.Output<Out["text"]>;
  declare readonly imageUrl: pulumi.Output<Out["imageUrl"]>;
  declare readonly videoUrl: pulumi.Output<Out["videoUrl"]>;
  declare readonly altText: pulumi.Output<Out["altText"]>;
  declare readonly children: pulumi.Output<Out["children"]>;
  declare readonly replyControl: pulumi.Output<Out["replyControl"]>;
  declare readonly topicTag: pulumi.Output<Out["topicTag"]>;
  declare readonly linkAttachment: pulumi.Output<Out["linkAttachment"]>;
  declare readonly quotePostId: pulumi.Output<Out["quotePostId"]>;
  declare readonly pollAttachment: pulumi.Output<Out["pollAttachment"]>;
  declare readonly childIds: pulumi.Output<Out["childIds"]>;
  declare readonly permalink: pulumi.Output<Out["permalink"]>;
  declare readonly mediaUrl: pulumi.Output<Out["mediaUrl"]>;
  declare readonly shortcode: pulumi.Output<Out["shortcode"]>;
  declare readonly timestamp: pulumi.Output<Out["timestamp"]>;
  declare readonly username: pulumi.Output<Out["username"]>;
  declare readonly allowRepublish: pulumi.Output<Out["allowRepublish"]>;
  declare readonly postId: pulumi.Output<Out["postId"]>;
  /** The named account (`ops:accounts`) that serves it; unset, the stack's own. */
  declare readonly account: pulumi.Output<Out["account"]>;

  constructor(name: string, args: PostArgs, opts?: pulumi.CustomResourceOptions) {
    refuseImport("posts.Post", name, opts, false);
    super(
      provider,
      name,
      { ...outputSlots(postOutputNames), ...args, ...ownerSlot(name, opts), ...secretsSlot(args, opts) },
      opts,
      "posts",
      "Post",
    );
  }

  /** Reads an existing object without managing it. `id` is `<postId>`. */
  static get(
    name: string,
    id: pulumi.Input<string>,
    state?: { account?: pulumi.Input<string> },
    opts?: pulumi.CustomResourceOptions,
  ): Post {
    return new Post(name, { ...state } as PostArgs, { ...opts, id });
  }
}

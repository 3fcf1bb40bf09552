/**
 * A thread's posts, chained: the first is the post, each next one replies to the one before (its `postId`). One
 * piece for both doors: the TypeScript SDK's Thread makes SDK Posts, the plugin's construct makes them by token.
 */
import * as pulumi from "@pulumi/pulumi";

export interface ChainArgs {
  /** The named account the posts are published with (a Post's `account`). */
  account?: pulumi.Input<string>;
  replyControl?: pulumi.Input<string>;
  topicTag?: pulumi.Input<string>;
  allowRepublish?: pulumi.Input<boolean>;
}

/** What a post of the chain is made from: its text, the post it replies to, the thread's settings. */
export type PostProps = ChainArgs & { text: pulumi.Input<string>; replyTo?: pulumi.Output<string> };

/** The posts `<name>-1`, `<name>-2`, ... made by `make`, each replying to the one before; their ids and links. */
export function chainPosts<P extends { postId: pulumi.Output<string | undefined>; permalink: pulumi.Output<string | undefined> }>(
  name: string,
  texts: readonly pulumi.Input<string>[],
  args: ChainArgs,
  make: (name: string, props: PostProps) => P,
): { posts: P[]; postIds: pulumi.Output<string[]>; permalinks: pulumi.Output<string[]> } {
  if (!Array.isArray(texts) || texts.length === 0)
    throw new Error(`ops.posts.Thread ${name}: posts must list the thread's texts, at least one`);
  const posts: P[] = [];
  for (const [i, text] of texts.entries()) {
    const before = posts[i - 1];
    posts.push(
      make(`${name}-${i + 1}`, {
        text,
        replyTo: before?.postId.apply((id) => id ?? ""),
        replyControl: args.replyControl,
        topicTag: i === 0 ? args.topicTag : undefined,
        allowRepublish: args.allowRepublish,
        ...(args.account !== undefined ? { account: args.account } : {}),
      }),
    );
  }
  return {
    posts,
    postIds: pulumi.all(posts.map((p) => p.postId)).apply((ids) => ids.map((id) => id ?? "")),
    permalinks: pulumi.all(posts.map((p) => p.permalink)).apply((links) => links.map((l) => l ?? "")),
  };
}

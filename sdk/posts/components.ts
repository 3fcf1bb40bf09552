/**
 * Components of the posts module, written by hand (the index exports this file): resources of the module put
 * together in the program, as a Threads user puts posts together.
 */
import * as pulumi from "@pulumi/pulumi";
import { chainPosts } from "../../provider/posts/thread/chain";
import { Post, type PostArgs } from "./post";

export interface ThreadArgs {
  /**
   * The texts of the thread, in order: the first is the post, each next one a reply to the one before it (at most
   * 500 characters each, as a post's text). A list the program knows (its texts may be outputs).
   */
  posts: pulumi.Input<string>[];
  /** Who may reply to each post of the thread (Post's `replyControl`). */
  replyControl?: PostArgs["replyControl"];
  /** The first post's topic (Post's `topicTag`). */
  topicTag?: PostArgs["topicTag"];
  /**
   * A published post cannot be edited: a changed text republishes that post and every one after it (each replies to
   * the one before, whose id changes). Refused at preview unless this is true, as for a Post.
   */
  allowRepublish?: pulumi.Input<boolean>;
  /** The named account (ops:accounts) the thread's posts are published with; unset, the stack's own settings. */
  account?: pulumi.Input<string>;
}

/**
 * A thread: a post and its chain of replies, published in order (each reply after the post it answers), deleted
 * replies first. The posts are `<name>-1`, `<name>-2`, … (children of the thread), so a changed text republishes from
 * that post on and leaves the ones before it; a text added at the end is one more reply.
 *
 *     new ops.posts.Thread("recipe", { posts: ["Our sourdough, step by step", "1. Feed the starter.", "2. Mix and fold."] });
 */
export class Thread extends pulumi.ComponentResource {
  /** The thread's posts, in order. */
  readonly posts: Post[];
  /** Their post ids, in order. */
  readonly postIds: pulumi.Output<string[]>;
  /** Their public links, in order. */
  readonly permalinks: pulumi.Output<string[]>;

  constructor(name: string, args: ThreadArgs, opts?: pulumi.ComponentResourceOptions) {
    super("ops:posts:Thread", name, {}, opts);
    const chain = chainPosts(name, args?.posts, args ?? {}, (n, props) => new Post(n, props as PostArgs, { parent: this }));
    this.posts = chain.posts;
    this.postIds = chain.postIds;
    this.permalinks = chain.permalinks;
    this.registerOutputs({ postIds: this.postIds, permalinks: this.permalinks });
  }
}

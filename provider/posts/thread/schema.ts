/**
 * `ops.posts.Thread`: a post and its chain of replies, as a Threads user writes a thread — a component, made of
 * Posts (each reply's `replyTo` the post before it). The same shape on both doors: the TypeScript SDK's class
 * builds it in the program (sdk/posts/components.ts); the plugin builds it for the other languages (`construct`).
 */
import { z } from "zod";
import { ref, type Example } from "../../doc-example";
import { PostInputs } from "../post/schema";

export const token = "posts:Thread";

export const ThreadInputs = z.object({
  posts: z
    .array(z.string().min(1, "a thread's post needs text"))
    .min(1, "a thread needs at least one post")
    .describe(
      "The texts of the thread, in order: the first is the post, each next one a reply to the one before it (each a post's text). A list the program knows (its texts may be outputs).",
    ),
  replyControl: PostInputs.shape.replyControl.describe("Who may reply to each post of the thread (a Post's `replyControl`)."),
  topicTag: PostInputs.shape.topicTag.describe("The first post's topic (a Post's `topicTag`)."),
  allowRepublish: z
    .boolean()
    .optional()
    .describe(
      "A published post cannot be edited: a changed text republishes that post and every one after it (each replies to the one before, whose id changes). Refused at preview unless this is true, as for a Post.",
    ),
});
export type ThreadInputs = z.output<typeof ThreadInputs>;

export const ThreadOutputs = z.object({
  postIds: z.array(z.string()).describe("The thread's post ids, in order."),
  permalinks: z.array(z.string()).describe("Their public links, in order."),
});

export const description =
  "A thread: a post and its chain of replies, published in order (each reply after the post it answers) and deleted replies first. Its posts are `<name>-1`, `<name>-2`, ... (Posts, children of the thread): a changed text republishes from that post on and leaves the ones before it; a text added at the end is one more reply.";

/** The reference's example: a three-post thread (a TypeScript program can also use the class's `posts`). */
export const example: Example = {
  step: {
    name: "recipe",
    args: { posts: ["Our sourdough, step by step", "1. Feed the starter the night before.", "2. Mix, rest, fold."] },
  },
  exports: { threadPostIds: ref("recipe.postIds") },
};

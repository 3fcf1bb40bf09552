/**
 * The plugin's Thread (`construct`, for the languages whose SDKs are generated from schema.json): the component and
 * its Posts registered with the engine by token, children of the thread, as the TypeScript SDK's class makes them.
 */
import * as pulumi from "@pulumi/pulumi";
import { chainPosts, type ChainArgs } from "./chain";
import { ThreadInputs } from "./schema";

/** A Post by its token, with the outputs the chain reads. */
class PostByToken extends pulumi.CustomResource {
  declare readonly postId: pulumi.Output<string | undefined>;
  declare readonly permalink: pulumi.Output<string | undefined>;
  constructor(name: string, props: pulumi.Inputs, opts: pulumi.CustomResourceOptions) {
    super("ops:posts:Post", name, { ...props, postId: undefined, permalink: undefined }, opts);
  }
}

class Thread extends pulumi.ComponentResource {
  readonly postIds: pulumi.Output<string[]>;
  readonly permalinks: pulumi.Output<string[]>;
  constructor(name: string, texts: pulumi.Input<string>[], args: ChainArgs, opts: pulumi.ComponentResourceOptions) {
    super("ops:posts:Thread", name, {}, opts);
    const chain = chainPosts(name, texts, args, (n, props) => new PostByToken(n, props, { parent: this }));
    this.postIds = chain.postIds;
    this.permalinks = chain.permalinks;
    this.registerOutputs({ postIds: this.postIds, permalinks: this.permalinks });
  }
}

/**
 * The thread's inputs held to its schema where they are known (a text still an output stands in as known later): one
 * error naming each bad property, as a resource's check gives, before any post is registered.
 */
function checkKnown(name: string, inputs: pulumi.Inputs): void {
  const later = (v: unknown) => (pulumi.Output.isInstance(v) ? "(known later)" : v);
  const known = Object.fromEntries(
    Object.entries(inputs)
      .filter(([k, v]) => k !== "account" && !pulumi.Output.isInstance(v))
      .map(([k, v]) => [k, Array.isArray(v) ? v.map(later) : v]),
  );
  const parsed = ThreadInputs.partial().safeParse(known);
  if (!parsed.success)
    throw new pulumi.InputPropertiesError({
      message: `ops.posts.Thread ${name}: its inputs are not what a thread takes`,
      errors: parsed.error.issues.map((i) => ({ propertyPath: i.path.join("."), reason: i.message })),
    });
}

/**
 * The engine's Construct of an `ops:posts:Thread`: `posts` arrives as a list (its texts perhaps outputs) or, where
 * it depends on other resources as a whole, as one output of a list, whose length the thread needs now.
 */
export async function constructThread(
  name: string,
  inputs: pulumi.Inputs,
  opts: pulumi.ComponentResourceOptions,
): Promise<{ urn: pulumi.Output<string>; state: pulumi.Inputs }> {
  checkKnown(name, inputs);
  let texts = inputs.posts as pulumi.Input<string>[] | pulumi.Output<string[]>;
  if (pulumi.Output.isInstance(texts)) {
    const whole = texts;
    const known = await (whole as unknown as { promise(): Promise<string[] | undefined> }).promise();
    if (!Array.isArray(known))
      throw new Error(`ops.posts.Thread ${name}: posts must be a list the program knows at preview (its texts may be outputs)`);
    texts = known.map((_, i) => whole.apply((list) => list[i]));
  }
  const thread = new Thread(name, texts as pulumi.Input<string>[], inputs as ChainArgs, opts);
  return { urn: thread.urn, state: { postIds: thread.postIds, permalinks: thread.permalinks } };
}

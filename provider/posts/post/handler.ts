/**
 * `ops.posts.Post`: create a container at `/me/threads`, look at it at once and then at the rate the service advises
 * (ops:postsStatusPollSeconds) until it is FINISHED, then publish it at `/me/threads_publish`. A publish the
 * service refuses as "Media Not Found" (code 24, subcode 4279009) just after FINISHED is tried again; one over the
 * account's 250 posts per 24 hours fails saying when quota frees up. Destroy deletes the post (100 per 24 hours).
 */
import { checkWith, isUnknown, withoutProvider } from "../../check";
import { GENERAL_SETTINGS, POSTS_SETTINGS, readFlag } from "../../config";
import {
  ADOPT_WINDOW_MS,
  canonical,
  changedKeys,
  isPending,
  PartialCreateError,
  settlePending,
  unlessGone,
  type Bag,
  type Handler,
} from "../../handler";
import { AuthError, NotFoundError } from "../../http/errors";
import { warn } from "../../log";
import { createResumed, resumedLine } from "../../create-journal";
import { POST_FIELDS, posts } from "../client";
import { beforeDelete } from "../quota";
import { PostInputs, REPLACING_FIELDS, type PostOutputs } from "./schema";
import { findMade, findRecent, publishOnce, whereToLook } from "./publish";
import { previewQuota } from "./preview";

const FIELDS = REPLACING_FIELDS;
/** Inputs compared as values: lists and objects whatever the order of their keys (state sorts them), absent as null. */
const same = (a: unknown, b: unknown) => canonical(a) === canonical(b);

/** Outputs from the post as the service answers it, and the inputs (or state) it was published from. */
function outputs(r: Bag & Pick<PostOutputs, "mediaType">, p: Record<string, any>): PostOutputs {
  const { __provider: _, containerId: _c, ...inputs } = r;
  const childIds = (p.children?.data as { id: string }[] | undefined)?.map((c) => c.id) ?? r.childIds;
  return {
    ...inputs,
    permalink: p.permalink,
    timestamp: p.timestamp,
    username: p.username,
    mediaUrl: p.media_url,
    shortcode: p.shortcode,
    postId: p.id,
    ...(childIds ? { childIds } : {}),
  };
}
/** A carousel's items are read with it, so its outputs name them. */
const readFields = (r: Bag) => (r.mediaType === "CAROUSEL" ? `${POST_FIELDS},children` : POST_FIELDS);

/** The post id of a resource: its id, or for a pending publish, the post it made (undefined: none was made). */
const settle = (id: string, props: Bag) =>
  settlePending(id, props.postId, (sentAt) => findMade(props, props.containerId, sentAt), whereToLook(props));

/**
 * A post the service calls missing (100/33) is gone only if the token is still its account's: another account's
 * token gets the same answer, and refresh must not drop a resource for a wrong token.
 */
export async function sameAccount(props: Bag): Promise<void> {
  if (!props.username) return;
  const me = await posts().account();
  if (me.username !== props.username) {
    throw new AuthError({
      service: "posts",
      message: `this stack's post${props.postId ? ` ${props.postId}` : ""} belongs to @${props.username}, but the token is @${me.username}'s: it would read, replace or delete another account's posts as if they were gone`,
      remedy: `Set ops:postsAccessToken (THREADS_ACCESS_TOKEN) to a token of @${props.username}`,
    });
  }
}

async function readBack(r: Bag & Pick<PostOutputs, "mediaType">, id: string): Promise<PostOutputs> {
  // Published: from here a failure must not orphan the post, so the engine is told its id.
  const published = await posts()
    .post(id, readFields(r))
    .catch((e: Error) => {
      throw new PartialCreateError(`post ${id} was published, but reading it back failed: ${e.message}`, id, outputs(r, { id }));
    });
  return outputs(r, published);
}

/** The fields of a published post a change would replace it for (unknown ones, a saved plan's, not yet). */
const republishing = (olds: Bag, news: Bag) => FIELDS.filter((k) => !isUnknown(news[k]) && !same(olds[k], news[k]));

/** What a replacement costs, said at preview: what the post has that goes with it, and the day's quotas it spends. */
async function republishCost(postId: string): Promise<string> {
  const counts = await posts()
    .insights(postId, ["likes", "replies", "views"])
    .catch(() => undefined);
  const has = counts
    ? `its ${counts.likes ?? 0} likes, ${counts.replies ?? 0} replies and ${counts.views ?? 0} views go with it`
    : "its likes, replies and views go with it";
  return `posts: post ${postId} cannot be edited: the program's post is published as a new one and this one deleted (allowRepublish); ${has}, and it spends one of the account's 250 publishes and one of its 100 deletes of the day`;
}

export const post: Handler<PostInputs, PostOutputs> = {
  preview: previewQuota,
  async check(olds, news) {
    const result = checkWith(PostInputs, news);
    // A published post (the resource is in state) whose text or media changes: republished only when the program says.
    const inState = Object.keys(withoutProvider(olds)).length > 0 && olds.mediaType !== undefined;
    const changed = inState && !result.failures.length ? republishing(olds, result.inputs) : [];
    if (changed.length && result.inputs.allowRepublish !== true) {
      result.failures.push({
        property: changed[0],
        reason: `a published post cannot be edited: changing ${changed.join(" and ")} would publish a new post and delete this one with its likes, replies and views (one of the day's 250 publishes and 100 deletes). Set allowRepublish: true to republish it, or keep ${changed.length > 1 ? "them" : "it"} as ${changed.length > 1 ? "they are" : "it is"}`,
      });
    }
    return result;
  },
  async diff(_id, olds, news) {
    // A post of the stack and a token of another account (one /me a run): the preview fails naming both, before an
    // up would call the post missing or publish under the other account (off with ops:previewChecks false).
    if (readFlag(GENERAL_SETTINGS.previewChecks)) await sameAccount(olds);
    const wanted = withoutProvider(news);
    const replaces = changedKeys(FIELDS, olds, wanted, (_k, a, b) => same(a, b));
    if (replaces.length && wanted.allowRepublish === true && typeof olds.postId === "string" && !isPending(olds.postId))
      warn(await republishCost(olds.postId));
    const flag = (olds.allowRepublish ?? false) !== (wanted.allowRepublish ?? false);
    return { changes: replaces.length > 0 || flag, replaces };
  },
  async create(r) {
    // A recovery run after a killed CLI (or a run that finds the killed one's note, create-journal.ts): what the
    // killed run published is taken over, not published again.
    const earlier = createResumed();
    const since = earlier ? earlier.sentAt : readFlag(POSTS_SETTINGS.adoptExisting) ? Date.now() - ADOPT_WINDOW_MS : undefined;
    const adopted = since !== undefined ? await findRecent(r, since) : undefined;
    if (adopted)
      warn(
        earlier
          ? `posts: ${resumedLine("this post", earlier)}; it had published post ${adopted} with the same text and media type, so it is kept (nothing published twice)`
          : `posts: adopting post ${adopted}, published in the last 24 hours with the same text and media type (ops:postsAdoptExisting)`,
      );
    const id = adopted ?? (await publishOnce(r));
    return { id, outs: await readBack(r, id) };
  },
  async read(id, props) {
    // Another account's token reads public posts as well (and calls this one missing): refresh fails naming both.
    await sameAccount(props);
    const postId = await settle(id, props);
    const p = postId && (await unlessGone(() => posts().post(postId, readFields(props))));
    // A settled pending post takes its real id here: refresh is where the engine lets a read change an id.
    return p ? { id: postId, props: outputs(props as PostOutputs, p) } : {};
  },
  async update(id, olds, news) {
    // allowRepublish changed alone: nothing on the service changes.
    if (!isPending(id)) {
      if (!changedKeys(FIELDS, olds, withoutProvider(news), (_k, a, b) => same(a, b)).length)
        return { outs: { ...(olds as PostOutputs), allowRepublish: withoutProvider(news).allowRepublish ?? false } };
      throw new Error("a short post cannot be edited: every change replaces it");
    }
    const r = { ...olds, ...withoutProvider(news) };
    const postId = (await settle(id, olds)) ?? (await publishOnce(r));
    return { outs: await readBack(r, postId) };
  },
  async delete(id, props) {
    const postId = await settle(id, props);
    if (!postId) return;
    await beforeDelete(postId); // the day's deletes: refused before sending when they are spent
    try {
      await posts().deletePost(postId);
    } catch (e) {
      if (!(e instanceof NotFoundError)) throw e;
      await sameAccount(props); // gone already, unless the token is another account's
    }
  },
};

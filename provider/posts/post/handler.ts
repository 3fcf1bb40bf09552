/**
 * `ops.posts.Post`: create a container at `/me/threads`, look at it at once and then at the rate the service advises
 * (ops:postsStatusPollSeconds) until it is FINISHED, then publish it at `/me/threads_publish`. A publish the
 * service refuses as "Media Not Found" (code 24, subcode 4279009) just after FINISHED is tried again; one over the
 * account's 250 posts per 24 hours fails saying when quota frees up. Destroy deletes the post (100 per 24 hours).
 */
import { checkWith, isUnknown, withoutProvider } from "../../check";
import { GENERAL_SETTINGS, POSTS_SETTINGS, readFlag, readNumber } from "../../config";
import {
  ADOPT_WINDOW_MS,
  canonical,
  changedKeys,
  CLOCK_SKEW_MS,
  createOnce,
  isPending,
  PartialCreateError,
  settlePending,
  unlessGone,
  type Bag,
  type Handler,
} from "../../handler";
import { ApiError, AuthError, NotFoundError, RateLimitError, ValidationError } from "../../http/errors";
import { log, warn } from "../../log";
import { createResumed, resumedLine } from "../../create-journal";
import { POST_FIELDS, posts } from "../client";
import { beforeDelete, quotaRefusal } from "../quota";
import { PostInputs, REPLACING_FIELDS, type PostOutputs } from "./schema";
import { previewQuota } from "./preview";

const FIELDS = REPLACING_FIELDS;
/** Inputs compared as values: lists and objects whatever the order of their keys (state sorts them), absent as null. */
const same = (a: unknown, b: unknown) => canonical(a) === canonical(b);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitUntilFinished(containerId: string): Promise<void> {
  const limitMs = readNumber(POSTS_SETTINGS.publishTimeoutSeconds) * 1000;
  const everyMs = readNumber(POSTS_SETTINGS.statusPollSeconds) * 1000;
  const start = Date.now();
  for (;;) {
    const c = await posts().container(containerId);
    if (c.status === "FINISHED") return;
    if (c.status === "ERROR" || c.status === "EXPIRED") {
      throw new ValidationError({
        service: "posts",
        code: c.error_message,
        message: `the media could not be processed (${c.status}${c.error_message ? `: ${c.error_message}` : ""})`,
        remedy: "Check the media's format and size (an image under 8 MB; a video at most 1 GB and 5 minutes) and that its URL is public",
      });
    }
    const elapsed = Date.now() - start;
    if (elapsed + everyMs > limitMs) {
      throw new ValidationError({
        service: "posts",
        message: `container ${containerId} was still ${c.status} after ${Math.round(elapsed / 1000)} s`,
        remedy: "Raise ops:postsPublishTimeoutSeconds, or try again later",
      });
    }
    log(
      `posts: media of container ${containerId} is ${c.status} (${(elapsed / 1000).toFixed(0)} s); looking again in ${(everyMs / 1000).toFixed(0)} s`,
    );
    await sleep(everyMs);
  }
}

/** "Media Not Found" just after FINISHED: the service had not caught up; nothing was published. */
const notCaughtUp = (e: unknown) => e instanceof ApiError && e.code === 24 && e.subcode === 4279009;

/**
 * Publishes a FINISHED container. A refusal the service gives while catching up is tried again; a throttled one is
 * the quota's refusal when the quota is used up (said with when it frees up), else waited out and tried again.
 */
async function publishFinished(containerId: string): Promise<string> {
  const tries = Math.max(4, readNumber(POSTS_SETTINGS.maxRetries) + 1);
  for (let attempt = 1; ; attempt++) {
    try {
      return (await posts().publish(containerId)).id;
    } catch (e) {
      if (e instanceof RateLimitError) {
        const quota = await quotaRefusal();
        if (quota) throw quota;
      } else if (!notCaughtUp(e)) throw e;
      if (attempt >= tries) throw e;
      const wait = 1000 * 2 ** (attempt - 1);
      log(
        `posts: publishing container ${containerId} was refused for now (${e instanceof RateLimitError ? "throttled" : "Media Not Found just after FINISHED"}); publishing again in ${wait / 1000} s (${attempt + 1} of ${tries})`,
      );
      await sleep(wait);
    }
  }
}

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

/** The service's media type of a post of this mediaType (a text post answers TEXT_POST, a carousel CAROUSEL_ALBUM). */
const answeredType = (mediaType: string) => (mediaType === "TEXT" ? "TEXT_POST" : mediaType === "CAROUSEL" ? "CAROUSEL_ALBUM" : mediaType);

/** A carousel's items are read with it, so its outputs name them. */
const readFields = (r: Bag) => (r.mediaType === "CAROUSEL" ? `${POST_FIELDS},children` : POST_FIELDS);

/** The container's fields as the service takes them (`POST /me/threads`): only what the program declares is sent. */
export function containerFields(r: Bag): Record<string, string | undefined> {
  const poll = r.pollAttachment as Bag | undefined;
  return {
    media_type: r.mediaType,
    text: r.text,
    image_url: r.imageUrl,
    video_url: r.videoUrl,
    alt_text: r.altText,
    reply_control: r.replyControl,
    topic_tag: r.topicTag,
    link_attachment: r.linkAttachment,
    quote_post_id: r.quotePostId,
    poll_attachment: poll
      ? JSON.stringify(
          Object.fromEntries(
            ["A", "B", "C", "D"]
              .filter((k) => poll[`option${k}`] !== undefined)
              .map((k) => [`option_${k.toLowerCase()}`, poll[`option${k}`]]),
          ),
        )
      : undefined,
  };
}

/**
 * A carousel's items, each a container of its own (`is_carousel_item`), made together and waited for in order: the
 * service refuses a carousel whose items are not FINISHED. Unpublished containers are shown nowhere and expire in a
 * day, so a failure here leaves nothing behind.
 */
async function carouselItems(r: Bag): Promise<string> {
  const ids: string[] = [];
  for (const c of r.children as Bag[])
    ids.push(
      (
        await posts().createContainer({
          media_type: c.mediaType,
          is_carousel_item: "true",
          image_url: c.imageUrl,
          video_url: c.videoUrl,
          alt_text: c.altText,
        })
      ).id,
    );
  for (const id of ids) await waitUntilFinished(id);
  return ids.join(",");
}

/**
 * The account's oldest post published since `since` with this resource's text and media type. The service answers
 * its own CDN address as `media_url`, never the URL it was given, so media is matched by type, not address.
 */
async function findRecent(r: Bag, since: number): Promise<string | undefined> {
  const from = since - CLOCK_SKEW_MS;
  const recent = await posts().threads(100, "id,text,media_type,timestamp", from / 1000);
  // Text and type tell a post apart; a carousel, a quote or a link card are not told by more than these here.
  const same = recent.filter(
    (p) =>
      (p.text ?? "") === (r.text ?? "") && p.media_type === answeredType(r.mediaType ?? "TEXT") && Date.parse(p.timestamp ?? "") >= from,
  );
  return same.at(-1)?.id;
}

/**
 * What publishing `containerId` made: the container's status says whether it was published (FINISHED: not yet,
 * so it is safe to publish again); a published one's post is the recent post with the same text and media.
 */
async function findMade(r: Bag, containerId: string, sentAt: number): Promise<string | undefined | "cannot tell"> {
  const c = await posts().container(containerId);
  if (c.status !== "PUBLISHED") return undefined;
  return (await findRecent(r, sentAt)) ?? "cannot tell";
}

const whereToLook = (r: Bag) =>
  `the account's posts for "${String(r.text ?? r.imageUrl ?? r.videoUrl ?? "").slice(0, 60)}": if it is there, keep it (\`pulumi refresh\` takes it over) or delete it there; if it is not, \`pulumi up\` makes it once`;

/** A container processed and published once; the post's id. */
async function publishOnce(r: Bag): Promise<string> {
  const fields = containerFields(r);
  if (r.mediaType === "CAROUSEL") fields.children = await carouselItems(r);
  const container = await posts().createContainer(fields);
  await waitUntilFinished(container.id);
  const { __provider: _, ...inputs } = r;
  return createOnce({
    what: "the post",
    create: () => publishFinished(container.id),
    findMade: (sentAt) => findMade(r, container.id, sentAt),
    whereToLook: whereToLook(r),
    properties: { ...inputs, containerId: container.id },
  });
}

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

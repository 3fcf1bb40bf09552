/**
 * Publishing a post once: a container made (a carousel's items first), looked at until FINISHED at the rate the
 * service advises, then published; a publish whose answer was lost is found by the container's status and the
 * account's recent posts, never sent blindly again (createOnce).
 */
import { CLOCK_SKEW_MS, createOnce, type Bag } from "../../handler";
import { POSTS_SETTINGS, readNumber } from "../../config";
import { ApiError, RateLimitError, ValidationError } from "../../http/errors";
import { log } from "../../log";
import { posts } from "../client";
import { quotaRefusal } from "../quota";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Looks at the container at once, then every ops:postsStatusPollSeconds, until FINISHED or the publish timeout. */
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
async function publishFinished(containerId: string, reply: boolean): Promise<string> {
  const tries = Math.max(4, readNumber(POSTS_SETTINGS.maxRetries) + 1);
  for (let attempt = 1; ; attempt++) {
    try {
      return (await posts().publish(containerId)).id;
    } catch (e) {
      if (e instanceof RateLimitError) {
        const quota = await quotaRefusal(reply);
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

/** The service's media type of a post of this mediaType (a text post answers TEXT_POST, a carousel CAROUSEL_ALBUM). */
const answeredType = (mediaType: string) => (mediaType === "TEXT" ? "TEXT_POST" : mediaType === "CAROUSEL" ? "CAROUSEL_ALBUM" : mediaType);

/** The container's fields as the service takes them (`POST /me/threads`): only what the program declares is sent. */
export function containerFields(r: Bag): Record<string, string | undefined> {
  const poll = r.pollAttachment as Bag | undefined;
  const attached = r.textAttachment as { text: string; link?: string } | undefined;
  const spoilers = r.textSpoilers as { offset: number; length: number }[] | undefined;
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
    reply_to_id: r.replyTo,
    text_attachment: attached ? JSON.stringify({ plaintext: attached.text, link_attachment_url: attached.link }) : undefined,
    text_entities: spoilers
      ? JSON.stringify(spoilers.map((e) => ({ entity_type: "SPOILER", offset: e.offset, length: e.length })))
      : undefined,
    is_spoiler_media: r.spoilerMedia === undefined ? undefined : String(r.spoilerMedia),
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
export async function findRecent(r: Bag, since: number): Promise<string | undefined> {
  const from = since - CLOCK_SKEW_MS;
  // A reply is listed among the account's replies, with the post it answers.
  const recent = r.replyTo
    ? await posts().threads(100, "id,text,media_type,timestamp,replied_to", from / 1000, "replies")
    : await posts().threads(100, "id,text,media_type,timestamp", from / 1000);
  // Text and type tell a post apart; a carousel, a quote or a link card are not told by more than these here.
  const same = recent.filter(
    (p) =>
      (p.text ?? "") === (r.text ?? "") &&
      p.media_type === answeredType(r.mediaType ?? "TEXT") &&
      Date.parse(p.timestamp ?? "") >= from &&
      (!r.replyTo || p.replied_to?.id === r.replyTo),
  );
  return same.at(-1)?.id;
}

/**
 * What publishing `containerId` made: the container's status says whether it was published (FINISHED: not yet,
 * so it is safe to publish again); a published one's post is the recent post with the same text and media.
 */
export async function findMade(r: Bag, containerId: string, sentAt: number): Promise<string | undefined | "cannot tell"> {
  const c = await posts().container(containerId);
  if (c.status !== "PUBLISHED") return undefined;
  return (await findRecent(r, sentAt)) ?? "cannot tell";
}

export const whereToLook = (r: Bag) =>
  `the account's ${r.replyTo ? `replies (to post ${r.replyTo})` : "posts"} for "${String(r.text ?? r.imageUrl ?? r.videoUrl ?? "").slice(0, 60)}": if it is there, keep it (\`pulumi refresh\` takes it over) or delete it there; if it is not, \`pulumi up\` makes it once`;

/** A container processed and published once; the post's id. */
export async function publishOnce(r: Bag): Promise<string> {
  const fields = containerFields(r);
  if (r.mediaType === "CAROUSEL") fields.children = await carouselItems(r);
  const container = await posts().createContainer(fields);
  await waitUntilFinished(container.id);
  const { __provider: _, ...inputs } = r;
  return createOnce({
    what: "the post",
    create: () => publishFinished(container.id, r.replyTo !== undefined),
    findMade: (sentAt) => findMade(r, container.id, sentAt),
    whereToLook: whereToLook(r),
    properties: { ...inputs, containerId: container.id },
  });
}

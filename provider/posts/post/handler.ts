/**
 * `ops.posts.Post`: create a container, wait (bounded, with progress) until it is FINISHED, then publish through
 * the run's queue, which keeps publishes 10 seconds apart. Destroy deletes the post (the service allows 100
 * deletions per account per day).
 */
import { checkWith, withoutProvider } from "../../check";
import { POSTS_SETTINGS, readFlag, readNumber } from "../../config";
import { ADOPT_WINDOW_MS, changedKeys, CLOCK_SKEW_MS, createOnce, deleteUnlessGone, isPending, PartialCreateError, settlePending, unlessGone, type Bag, type Handler } from "../../handler";
import { ValidationError } from "../../http/errors";
import { log, warn } from "../../log";
import { posts } from "../client";
import { PostInputs } from "./schema";

const FIELDS = ["mediaType", "text", "imageUrl", "videoUrl"];

async function waitUntilFinished(containerId: string): Promise<void> {
  const limitMs = readNumber(POSTS_SETTINGS.publishTimeoutSeconds) * 1000;
  const start = Date.now();
  for (let wait = 500; ; wait = Math.min(wait * 2, 5000)) {
    const c = await posts().container(containerId);
    if (c.status === "FINISHED") return;
    if (c.status === "ERROR" || c.status === "EXPIRED") {
      throw new ValidationError({ service: "posts", code: 9001, message: `the media could not be processed (${c.status}${c.error_message ? `: ${c.error_message}` : ""})`, remedy: "Check the media's format and size (image under 8 MB; video under 100 MB and 60 s) and that its URL is public" });
    }
    const elapsed = Date.now() - start;
    if (elapsed > limitMs) {
      throw new ValidationError({ service: "posts", message: `container ${containerId} was still ${c.status} after ${Math.round(elapsed / 1000)} s`, remedy: "Raise ops:postsPublishTimeoutSeconds, or try again later" });
    }
    log(`posts: media of container ${containerId} is ${c.status} (${(elapsed / 1000).toFixed(1)} s); checking again in ${(wait / 1000).toFixed(1)} s`);
    await new Promise((r) => setTimeout(r, wait));
  }
}

function outputs(r: Record<string, any>, p: Record<string, any>) {
  const { __provider: _, containerId: _c, ...inputs } = r;
  return { ...inputs, permalink: p.permalink, timestamp: p.timestamp, username: p.username, postId: p.id };
}

/** The account's most recent post with this resource's text and media, published since `since`. */
async function findRecent(r: Bag, since: number): Promise<string | undefined> {
  const recent = await posts().posts(25, "id,text,media_url,timestamp");
  const media = r.imageUrl ?? r.videoUrl;
  return recent.data.find((p) => (p.text ?? "") === (r.text ?? "") && (!media || p.media_url === media) && Date.parse(p.timestamp ?? "") >= since - CLOCK_SKEW_MS)?.id;
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
  const container = await posts().createContainer({ media_type: r.mediaType, text: r.text, image_url: r.imageUrl, video_url: r.videoUrl });
  await waitUntilFinished(container.id);
  const { __provider: _, ...inputs } = r;
  return createOnce({
    what: "the post",
    create: async () => (await posts().publish(container.id)).id,
    findMade: (sentAt) => findMade(r, container.id, sentAt),
    whereToLook: whereToLook(r),
    properties: { ...inputs, containerId: container.id },
  });
}

/** The post id of a resource: its id, or for a pending publish, the post it made (undefined: none was made). */
const settle = (id: string, props: Bag) => settlePending(id, props.postId, (sentAt) => findMade(props, props.containerId, sentAt), whereToLook(props));

async function readBack(r: Bag, id: string): Promise<Bag> {
  // Published: from here a failure must not orphan the post, so the engine is told its id.
  const published = await posts().post(id).catch((e: Error) => {
    throw new PartialCreateError(`post ${id} was published, but reading it back failed: ${e.message}`, id, outputs(r, { id }));
  });
  return outputs(r, published);
}

export const post: Handler = {
  async check(_olds, news) {
    return checkWith(PostInputs, news);
  },
  async diff(_id, olds, news) {
    const replaces = changedKeys(FIELDS, olds, withoutProvider(news), (_k, a, b) => (a ?? null) === (b ?? null));
    return { changes: replaces.length > 0, replaces };
  },
  async create(r) {
    // A recovery run after a killed CLI: what the killed run published is taken over, not published again.
    const adopted = readFlag(POSTS_SETTINGS.adoptExisting) ? await findRecent(r, Date.now() - ADOPT_WINDOW_MS) : undefined;
    if (adopted) warn(`posts: adopting post ${adopted}, published in the last 24 hours with the same text (ops:postsAdoptExisting)`);
    const id = adopted ?? (await publishOnce(r));
    return { id, outs: await readBack(r, id) };
  },
  async read(id, props) {
    const postId = await settle(id, props);
    const p = postId && (await unlessGone(() => posts().post(postId)));
    // A settled pending post takes its real id here: refresh is where the engine lets a read change an id.
    return p ? { id: postId, props: outputs(props, p) } : {};
  },
  async update(id, olds, news) {
    // Only a create left pending (its publish answer lost) is updated: the engine retries it with the same inputs.
    if (!isPending(id)) throw new Error("a short post cannot be edited: every change replaces it");
    const r = { ...olds, ...withoutProvider(news) };
    const postId = (await settle(id, olds)) ?? (await publishOnce(r));
    return { outs: await readBack(r, postId) };
  },
  async delete(id, props) {
    const postId = await settle(id, props);
    if (postId) await deleteUnlessGone(() => posts().deletePost(postId));
  },
};

/**
 * `ops.posts.Post`: create a container, wait (bounded, with progress) until it is FINISHED, then publish through
 * the run's queue, which keeps publishes 10 seconds apart. Destroy deletes the post (the service allows 100
 * deletions per account per day).
 */
import { checkWith, withoutProvider } from "../../check";
import { POSTS_SETTINGS, readNumber } from "../../config";
import { changedKeys, deleteUnlessGone, PartialCreateError, unlessGone, type Handler } from "../../handler";
import { ValidationError } from "../../http/errors";
import { log } from "../../log";
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
      throw new ValidationError({ service: "posts", message: `container ${containerId} was still ${c.status} after ${Math.round(elapsed / 1000)} s`, remedy: "Raise posts:publishTimeoutSeconds, or try again later" });
    }
    log(`posts: media of container ${containerId} is ${c.status} (${(elapsed / 1000).toFixed(1)} s); checking again in ${(wait / 1000).toFixed(1)} s`);
    await new Promise((r) => setTimeout(r, wait));
  }
}

function outputs(r: Record<string, any>, p: Record<string, any>) {
  const { __provider: _, ...inputs } = r;
  return { ...inputs, permalink: p.permalink, timestamp: p.timestamp, username: p.username };
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
    const container = await posts().createContainer({ media_type: r.mediaType, text: r.text, image_url: r.imageUrl, video_url: r.videoUrl });
    await waitUntilFinished(container.id);
    const { id } = await posts().publish(container.id);
    // Published: from here a failure must not orphan the post, so the engine is told its id.
    const published = await posts().post(id).catch((e: Error) => {
      throw new PartialCreateError(`post ${id} was published, but reading it back failed: ${e.message}`, id, outputs(r, {}));
    });
    return { id, outs: outputs(r, published) };
  },
  async read(id, props) {
    const p = await unlessGone(() => posts().post(id));
    return p ? { id, props: outputs(props, p) } : {};
  },
  async update() {
    throw new Error("a short post cannot be edited: every change replaces it");
  },
  async delete(id) {
    await deleteUnlessGone(() => posts().deletePost(id));
  },
};

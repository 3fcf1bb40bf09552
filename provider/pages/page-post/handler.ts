/**
 * `ops.pages.PagePost`. id: `<pageId>_<postId>`. The message is edited in place, and a scheduled post's time moved in
 * place (`POST /{post-id}` takes `scheduled_publish_time`); any other change replaces.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { checkWith, isUnknown, withoutProvider } from "../../check";
import {
  ADOPT_WINDOW_MS,
  changedKeys,
  CLOCK_SKEW_MS,
  createOnce,
  deleteUnlessGone,
  isPending,
  PartialCreateError,
  settlePending,
  unlessGone,
  type Bag,
  type Handler,
  sameField as same,
} from "../../handler";
import { FileUpload } from "../../graph/client";
import { AuthError } from "../../http/errors";
import { PAGES_SETTINGS, readFlag, readNumber } from "../../config";
import { warn } from "../../log";
import { createResumed, InterruptedCreateError, resumedLine } from "../../create-journal";
import { pages } from "../client";
import { previewPageAccess } from "../page-access";
import { PagePostInputs, scheduleProblem, scheduleTooSoon, unixSeconds, type PagePostOutputs } from "./schema";

const REPLACING = ["pageId", "link", "published", "photo", "photos"];
/** Times compared as instants: `…11:00:00+01:00`, `…10:00:00Z` and its Unix seconds are one time. */
export const sameInstant = (a: unknown, b: unknown) =>
  a === undefined || b === undefined ? a === b : unixSeconds(a as string | number) === unixSeconds(b as string | number);

/**
 * What a change of the scheduled time does: nothing once the old time has passed (the post went out then: the
 * schedule is history, as when a program computes its time on every run), a move in place while the post is still
 * scheduled, a replacement when a schedule is added or removed.
 */
function scheduleChange(olds: Bag, wanted: Bag): "none" | "past" | "move" | "replace" {
  const [was, now] = [olds.scheduledPublishTime, wanted.scheduledPublishTime];
  if (isUnknown(now) || sameInstant(was, now)) return "none";
  if (was === undefined || now === undefined) return "replace";
  // Published before its time (by hand, "Publish now"): refresh said so, and the schedule is history as well.
  return olds.state === "published" || unixSeconds(was) * 1000 <= Date.now() ? "past" : "move";
}

/**
 * The scheduled time as the page holds it, in the form the program wrote (an RFC 3339 program keeps RFC 3339): the
 * service's answer while the post is still scheduled, so a time moved in the Business Suite is drift; once the post
 * is out, the program's (the service's answer then says when it was due, and that is history).
 */
function scheduleRead(p: GraphPost, was: unknown): number | string | undefined {
  const at = p.scheduled_publish_time;
  if (p.is_published || at === undefined || was === undefined || sameInstant(at, was)) return was as number | string | undefined;
  return typeof was === "string" ? new Date(at * 1000).toISOString().replace(/\.000Z$/, "Z") : at;
}

/**
 * scheduleChange, asking the page when it would move the post: published early by hand since the last refresh, the
 * post has no schedule left to move (the service moves only a post still scheduled; the emulator refuses the move
 * with (#100), as a published post's new time would fail the up), and the schedule is history. One read, only for a
 * move.
 */
async function scheduleChangeNow(id: string, olds: Bag, wanted: Bag): Promise<ReturnType<typeof scheduleChange>> {
  const change = scheduleChange(olds, wanted);
  if (change !== "move" || isPending(id)) return change;
  const p = await unlessGone(() => pages().read<GraphPost>(olds.pageId, `/${olds.postId ?? id}`, { fields: "id,is_published" }));
  return p?.is_published ? "past" : change;
}

interface GraphPost {
  id: string;
  message?: string;
  is_published?: boolean;
  scheduled_publish_time?: number;
  created_time?: string;
}

function state(p: GraphPost): "published" | "scheduled" | "draft" {
  return p.is_published ? "published" : p.scheduled_publish_time ? "scheduled" : "draft";
}

const FIELDS = "id,message,is_published,scheduled_publish_time,created_time";

/** The post's program fields (inputs, or state) and what the page answers of it. */
type Made = Bag & Pick<PagePostOutputs, "pageId" | "published">;

function outputs(r: Made, p: GraphPost): PagePostOutputs {
  const { __provider: _, ...inputs } = r;
  const at = scheduleRead(p, r.scheduledPublishTime);
  return {
    ...inputs,
    message: p.message ?? r.message,
    ...(at !== undefined ? { scheduledPublishTime: at } : {}),
    state: state(p),
    postId: p.id,
    ...(p.created_time ? { createdTime: p.created_time } : {}),
  };
}

/** The link a post shares: posts lost their `link` field in v3.3; it is the attachment's `unshimmed_url` now. */
const linkOf = (p: { attachments?: { data?: { unshimmed_url?: string; url?: string }[] } }) =>
  p.attachments?.data?.[0]?.unshimmed_url ?? p.attachments?.data?.[0]?.url;

/**
 * The post this resource's create made since `sentAt`, found among the page's recent posts by its message and link:
 * published posts in `/posts`, scheduled ones in `/scheduled_posts`, drafts only in `/ads_posts`, which the service
 * shows only to a token with the ads permissions (pages_manage_ads): without them, "cannot tell".
 */
async function findMade(r: Bag, sentAt: number): Promise<string | undefined | "cannot tell"> {
  const listing = r.scheduledPublishTime !== undefined ? "scheduled_posts" : r.published === false ? "ads_posts" : "posts";
  let recent: { data: (GraphPost & Parameters<typeof linkOf>[0])[] };
  try {
    recent = await pages().read(r.pageId, `/${r.pageId}/${listing}`, {
      fields: "id,message,created_time,attachments{unshimmed_url}",
      limit: "25",
    });
  } catch (e) {
    if (listing === "ads_posts" && e instanceof AuthError) return "cannot tell";
    throw e;
  }
  const match = recent.data.find(
    (p) =>
      (p.message ?? "") === (r.message ?? "") &&
      (!r.link || linkOf(p) === r.link) &&
      Date.parse(p.created_time ?? "") >= sentAt - CLOCK_SKEW_MS,
  );
  return match?.id;
}

const whereToLook = (r: Bag) =>
  `page ${r.pageId}'s ${r.published === false && r.scheduledPublishTime === undefined ? "drafts (the token lacks pages_manage_ads, which listing them needs)" : "posts"} for "${String(r.message ?? r.link ?? "").slice(0, 60)}": if it is there, delete it there or keep it and run \`pulumi state delete <this resource's URN>\` with the resource removed from the program; if it is not, run \`pulumi state delete <URN>\` and \`pulumi up\` makes it once`;

/** The post id of a resource: its id, or for a pending create, the post it made (undefined: none was made). */
const settle = (id: string, props: Bag) => settlePending(id, props.postId, (sentAt) => findMade(props, sentAt), whereToLook(props));

async function publish(r: Bag): Promise<string> {
  const client = pages();
  const when = r.scheduledPublishTime !== undefined ? { scheduled_publish_time: String(unixSeconds(r.scheduledPublishTime!)) } : {};
  const common = { published: String(r.published), ...when };
  if (r.photo) {
    const source = r.photo.file
      ? new FileUpload(path.basename(r.photo.file), readFileSync(path.resolve(r.photo.file)), "image/*")
      : undefined;
    const res = await client.onPage(r.pageId, "POST", `/${r.pageId}/photos`, { url: r.photo.url, source, caption: r.message, ...common });
    // The answer may carry only the photo's id: its post is the photo's `page_story_id`.
    return res.post_id ?? (await client.onPage(r.pageId, "GET", `/${res.id}`, { fields: "page_story_id" })).page_story_id;
  }
  let attached: { media_fbid: string }[] | undefined;
  if (r.photos) {
    attached = [];
    for (const url of r.photos)
      attached.push({ media_fbid: (await client.onPage(r.pageId, "POST", `/${r.pageId}/photos`, { url, published: "false" })).id });
  }
  const res = await client.onPage(r.pageId, "POST", `/${r.pageId}/feed`, {
    message: r.message,
    link: r.link,
    attached_media: attached,
    ...common,
  });
  return res.id;
}

/** The post as the page reports it; made but unreadable, the engine is told its id so nothing is orphaned. */
async function readBack(r: Made, id: string): Promise<PagePostOutputs> {
  const p = await pages()
    .read<GraphPost>(r.pageId, `/${id}`, { fields: FIELDS })
    .catch((e: Error) => {
      throw new PartialCreateError(
        `post ${id} was made, but reading it back failed: ${e.message}`,
        id,
        outputs(r, { id, is_published: r.published }),
      );
    });
  return outputs(r, p);
}

export const pagePost: Handler<PagePostInputs, PagePostOutputs> = {
  preview: (ctx) =>
    previewPageAccess(ctx, {
      permission: "pages_manage_posts",
      task: { task: "CREATE_CONTENT", what: "posting", roles: "editor or admin role" },
    }),
  async check(olds, news) {
    const result = checkWith(PagePostInputs, news);
    const at = result.inputs.scheduledPublishTime as number | string | undefined;
    // The window applies to a new or changed time only: an existing scheduled post's time draws nearer each day.
    if (at !== undefined && !isUnknown(at) && !result.failures.length && !sameInstant(at, olds.scheduledPublishTime)) {
      const problem = scheduleProblem(at);
      if (problem) result.failures.push({ property: "scheduledPublishTime", reason: problem });
      // Valid now, but the up that follows a review may come after the service's lead has passed.
      const soon = problem ? undefined : scheduleTooSoon(at, readNumber(PAGES_SETTINGS.scheduleMarginMinutes));
      if (soon) warn(`pages: ${soon}`, "schedule-too-soon", String(at));
    }
    return result;
  },
  async diff(id, olds, news) {
    const wanted = withoutProvider(news);
    const replaces = changedKeys(REPLACING, olds, { published: true, ...wanted }, same);
    const changed = changedKeys(["message"], olds, wanted, same);
    const schedule = await scheduleChangeNow(id, olds, wanted);
    if (schedule === "replace") replaces.push("scheduledPublishTime");
    if (schedule === "move") changed.push("scheduledPublishTime");
    if (schedule === "past")
      warn(
        `pages: post ${olds.postId ?? id} is published already (${unixSeconds(olds.scheduledPublishTime) * 1000 <= Date.now() ? `it went out at its scheduled time ${new Date(unixSeconds(olds.scheduledPublishTime) * 1000).toISOString()}` : "it went out before its scheduled time, by hand"}): a new scheduledPublishTime changes nothing on the service (the post stays as it is)`,
      );
    return { changes: replaces.length + changed.length > 0, replaces };
  },
  async create(r) {
    const inputs = withoutProvider(r);
    // A recovery run after a killed CLI (or a run that finds the killed one's note, create-journal.ts): what the
    // killed run posted is taken over, not posted again.
    const earlier = createResumed();
    const since = earlier ? earlier.sentAt : readFlag(PAGES_SETTINGS.adoptExisting) ? Date.now() - ADOPT_WINDOW_MS : undefined;
    const adopted = since !== undefined ? await findMade(r, since) : undefined;
    // The earlier create may have posted, and the page cannot say (its drafts need pages_manage_ads): never post blindly.
    if (earlier && adopted === "cannot tell") {
      throw new InterruptedCreateError(
        `pages: ${resumedLine("this post", earlier)}, and pulumi-ops cannot tell whether it was made: check page ${r.pageId}'s drafts for "${String(r.message ?? r.link ?? "").slice(0, 60)}" (if it is there, delete it there, as the program makes its own), then remove ${earlier.note} and run \`pulumi up\` again: it posts once`,
      );
    }
    if (typeof adopted === "string" && adopted !== "cannot tell") {
      warn(
        earlier
          ? `pages: ${resumedLine("this post", earlier)}; it had made post ${adopted} with the same message, so it is kept (nothing posted twice)`
          : `pages: adopting post ${adopted}, made in the last 24 hours with the same message (ops:pagesAdoptExisting)`,
      );
      return { id: adopted, outs: await readBack(r, adopted) };
    }
    const id = await createOnce({
      what: `the post on page ${r.pageId}`,
      create: () => publish(r),
      findMade: (sentAt) => findMade(r, sentAt),
      whereToLook: whereToLook(r),
      properties: inputs,
    });
    return { id, outs: await readBack(r, id) };
  },
  async read(id, props) {
    const postId = await settle(id, props);
    const p =
      postId && (await unlessGone(() => pages().read<GraphPost>(props.pageId ?? postId.split("_")[0], `/${postId}`, { fields: FIELDS })));
    if (!p) return {};
    const outs = outputs(props as PagePostOutputs, p);
    // A settled pending post takes its real id here: refresh is where the engine lets a read change an id.
    const settledId = isPending(id) ? postId : id;
    // The inputs follow the service where it differs (message edited, schedule moved): the next up puts them back.
    if ((p.message ?? null) === (props.message ?? null) && sameInstant(outs.scheduledPublishTime, props.scheduledPublishTime))
      return { id: settledId, props: outs };
    const { state: _s, createdTime: _c, postId: _p, ...inputs } = outs as Bag;
    return { id: settledId, props: outs, inputs };
  },
  async update(id, olds, news) {
    const r = withoutProvider(news);
    const postId = await settle(id, olds);
    // A pending create that the service never made: make it now, once (an update cannot change the id; the post's
    // id is in `postId` until a refresh).
    if (!postId) return { outs: await readBack(r, await publish(r)) };
    const schedule = await scheduleChangeNow(postId, olds, r);
    const moved = schedule === "move" ? { scheduled_publish_time: String(unixSeconds(r.scheduledPublishTime!)) } : {};
    const edited = (r.message ?? null) !== (olds.message ?? null);
    // A past schedule is kept as it was: the post went out then.
    const kept = schedule === "past" ? { scheduledPublishTime: olds.scheduledPublishTime } : {};
    if (!edited && schedule !== "move") return { outs: await readBack({ ...(olds as PagePostOutputs), ...r, ...kept }, postId) };
    await pages().setOnPage(r.pageId, `/${postId}`, { ...(edited ? { message: r.message ?? "" } : {}), ...moved });
    return { outs: await readBack({ ...olds, ...r, ...kept }, postId) };
  },
  async delete(id, props) {
    const postId = await settle(id, props);
    if (postId) await deleteUnlessGone(() => pages().onPage(props.pageId ?? postId.split("_")[0], "DELETE", `/${postId}`));
  },
};

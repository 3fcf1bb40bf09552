/** `ops.pages.PagePost`. id: `<pageId>_<postId>`. Only the message is edited in place; any other change replaces. */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { checkWith, isUnknown, withoutProvider } from "../../check";
import { changedKeys, deleteUnlessGone, PartialCreateError, unlessGone, type Bag, type Handler } from "../../handler";
import { ServerError, TransportError } from "../../http/errors";
import { FileUpload } from "../../graph/client";
import { pages } from "../client";
import { PagePostInputs, scheduleProblem, unixSeconds } from "./schema";

const REPLACING = ["pageId", "link", "published", "scheduledPublishTime", "photo", "photos"];
const same = (_k: string, a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

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

function outputs(r: Bag, p: GraphPost) {
  const { __provider: _, ...inputs } = r;
  return { ...inputs, message: p.message ?? r.message, state: state(p), ...(p.created_time ? { createdTime: p.created_time } : {}) };
}

async function publish(r: Bag): Promise<string> {
  const client = pages();
  const when = r.scheduledPublishTime !== undefined ? { scheduled_publish_time: String(unixSeconds(r.scheduledPublishTime)) } : {};
  const common = { published: String(r.published), ...when };
  if (r.photo) {
    const source = r.photo.file ? new FileUpload(path.basename(r.photo.file), readFileSync(path.resolve(r.photo.file)), "image/*") : undefined;
    const res = await client.onPage(r.pageId, "POST", `/${r.pageId}/photos`, { url: r.photo.url, source, caption: r.message, ...common });
    return res.post_id;
  }
  let attached: { media_fbid: string }[] | undefined;
  if (r.photos) {
    attached = [];
    for (const url of r.photos) attached.push({ media_fbid: (await client.onPage(r.pageId, "POST", `/${r.pageId}/photos`, { url, published: "false" })).id });
  }
  const res = await client.onPage(r.pageId, "POST", `/${r.pageId}/feed`, { message: r.message, link: r.link, attached_media: attached, ...common });
  return res.id;
}

export const pagePost: Handler = {
  async check(olds, news) {
    const result = checkWith(PagePostInputs, news);
    const at = result.inputs.scheduledPublishTime as number | string | undefined;
    // The window applies to a new or changed time only: an existing scheduled post's time draws nearer each day.
    if (at !== undefined && !isUnknown(at) && !result.failures.length && at !== olds.scheduledPublishTime) {
      const problem = scheduleProblem(at);
      if (problem) result.failures.push({ property: "scheduledPublishTime", reason: problem });
    }
    return result;
  },
  async diff(_id, olds, news) {
    const wanted = withoutProvider(news);
    const replaces = changedKeys(REPLACING, olds, { published: true, ...wanted }, same);
    const changed = changedKeys(["message"], olds, wanted, same);
    return { changes: replaces.length + changed.length > 0, replaces };
  },
  async create(r) {
    let id: string;
    try {
      id = await publish(r);
    } catch (e) {
      if ((e instanceof TransportError && e.ambiguous) || e instanceof ServerError) {
        // A page post has no natural key to look it up by: say what to check instead of risking a duplicate.
        throw new Error(`${e.message}. The page may have made the post anyway: check page ${r.pageId}'s posts for "${String(r.message ?? r.link ?? "").slice(0, 60)}" before running again (delete it there, or keep it and remove this resource)`);
      }
      throw e;
    }
    // Published: from here a failure must not orphan the post, so the engine is told its id.
    const p = await pages().read<GraphPost>(r.pageId, `/${id}`, { fields: FIELDS }).catch((e: Error) => {
      throw new PartialCreateError(`post ${id} was made, but reading it back failed: ${e.message}`, id, outputs(r, { id, is_published: r.published }));
    });
    return { id, outs: outputs(r, p) };
  },
  async read(id, props) {
    const p = await unlessGone(() => pages().read<GraphPost>(props.pageId ?? id.split("_")[0], `/${id}`, { fields: FIELDS }));
    if (!p) return {};
    const outs = outputs(props, p);
    if ((p.message ?? null) === (props.message ?? null)) return { id, props: outs };
    const { state: _s, createdTime: _c, ...inputs } = outs as Bag;
    return { id, props: outs, inputs };
  },
  async update(id, olds, news) {
    const r = withoutProvider(news);
    await pages().onPage(r.pageId, "POST", `/${id}`, { message: r.message ?? "" });
    const p = await pages().read<GraphPost>(r.pageId, `/${id}`, { fields: FIELDS });
    return { outs: outputs({ ...olds, ...r }, p) };
  },
  async delete(id, props) {
    await deleteUnlessGone(() => pages().onPage(props.pageId ?? id.split("_")[0], "DELETE", `/${id}`));
  },
};

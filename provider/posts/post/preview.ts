/**
 * A post's preview (Handler.preview): the posts this run would publish must fit the account's publishing quota left
 * (250 per 24 hours), or up would publish some and fail on the rest; and the replacements of published posts must
 * fit its delete quota (100 per 24 hours), each of them deleting a post. Counted over every post of the command.
 */
import { onForget } from "../../forgetting";
import { canonical } from "../../handler";
import type { PreviewContext } from "../../preview";
import { posts, type PublishingLimit } from "../client";
import { deleteQuotaProblem, quotaProblem, replyQuotaProblem } from "../quota";
import { REPLACING_FIELDS } from "./schema";

/** The posts this run would publish, by account (their inputs); replies apart, against their own quota. */
const plannedPosts = new Map<string, Set<string>>();
const plannedReplies = new Map<string, Set<string>>();
/** The published posts this run would replace, by account (their old inputs). */
const plannedDeletes = new Map<string, Set<string>>();
onForget(() => {
  plannedPosts.clear();
  plannedReplies.clear();
  plannedDeletes.clear();
});

export async function previewQuota({ reads, inputs, olds, account = "", once }: PreviewContext): Promise<void> {
  // Every field a post is made of (a carousel's items, a poll...), compared as values: a post that stays is no publish.
  if (!reads || REPLACING_FIELDS.every((k) => canonical(inputs[k]) === canonical(olds[k]))) return;
  const key = (bag: Record<string, unknown>) => canonical(REPLACING_FIELDS.map((k) => bag[k]));
  // A reply (its parent maybe not known yet, in a chain being republished) counts against the replies' quota.
  const reply = inputs.replyTo !== undefined;
  const plans = reply ? plannedReplies : plannedPosts;
  const planned = plans.get(account) ?? new Set<string>();
  plans.set(account, planned.add(key(inputs)));
  const replaced = plannedDeletes.get(account) ?? new Set<string>();
  if (Object.keys(olds).length && olds.mediaType !== undefined) plannedDeletes.set(account, replaced.add(key(olds)));
  const limit = await once<PublishingLimit>(`posts ${account} publishing limit`, () => posts().publishingLimit());
  const replies = reply ? replyQuotaProblem(planned.size, limit) : undefined;
  if (replies) throw replies;
  if (!reply && limit.quota_usage + planned.size > limit.config.quota_total) throw await quotaProblem(planned.size, limit);
  const deletes = deleteQuotaProblem(replaced.size, limit);
  if (deletes) throw deletes;
}

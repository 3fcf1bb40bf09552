/**
 * The account's publishing quota (Threads API: 250 posts per moving 24 hours, told by `/me/threads_publishing_limit`).
 * A preview that would publish more than is left fails, saying when quota frees up; so does a publish the service
 * refuses over it.
 */
import { onForget } from "../forgetting";
import { ValidationError } from "../http/errors";
import { posts, type PublishingLimit } from "./client";

/** When the next post of the window turns `quota_duration` old: its timestamp plus the duration. */
async function freesAt(durationS: number, needed: number): Promise<string> {
  const since = Date.now() / 1000 - durationS;
  const window = await posts().threads(1000, "id,timestamp", since);
  const times = window
    .map((p) => Date.parse(p.timestamp))
    .filter(Number.isFinite)
    .sort((a, b) => a - b);
  const t = times[Math.max(0, Math.min(needed - 1, times.length - 1))];
  return t === undefined ? "within 24 hours" : `at ${new Date(t + durationS * 1000).toISOString().replace(/\.\d+Z$/, "Z")}`;
}

function refusal(used: number, total: number, planned: number, when: string): ValidationError {
  const left = Math.max(0, total - used);
  return new ValidationError({
    service: "posts",
    message: `the account may publish ${total} posts per 24 hours and has published ${used}: ${planned > 0 ? `${planned} new post${planned === 1 ? "" : "s"} would go over it (${left} left)` : "none is left"}`,
    remedy: `Quota frees up ${when}: run again then, or publish fewer posts in this run`,
  });
}

/** Why publishing `planned` more posts would be refused now (with the limit as read, if it was), or undefined when the quota allows them. */
export async function quotaProblem(planned: number, known?: PublishingLimit): Promise<ValidationError | undefined> {
  const { quota_usage: used, config } = known ?? (await posts().publishingLimit());
  if (used + planned <= config.quota_total) return undefined;
  return refusal(used, config.quota_total, planned, await freesAt(config.quota_duration, used + planned - config.quota_total));
}

/**
 * Why publishing `planned` more replies would be refused now: replies have a quota of their own (1,000 per 24 hours,
 * `reply_quota_usage` / `reply_config`); nothing when the service does not tell it.
 */
export function replyQuotaProblem(planned: number, limit: PublishingLimit): ValidationError | undefined {
  const total = limit.reply_config?.quota_total;
  if (total === undefined || planned === 0) return undefined;
  const used = limit.reply_quota_usage ?? 0;
  if (used + planned <= total) return undefined;
  return new ValidationError({
    service: "posts",
    message: `the account may publish ${total} replies per 24 hours and has published ${used}: ${planned} new repl${planned === 1 ? "y" : "ies"} would go over it (${Math.max(0, total - used)} left)`,
    remedy: "Quota frees up as the replies of the last 24 hours age: run again later, or publish fewer replies in this run",
  });
}

/** A publish refused as throttled: the quota's refusal (a reply's own quota for a reply) when the quota is what is used up. */
export async function quotaRefusal(reply = false): Promise<ValidationError | undefined> {
  if (!reply) return quotaProblem(1).catch(() => undefined);
  return posts()
    .publishingLimit()
    .then((limit) => replyQuotaProblem(1, limit))
    .catch(() => undefined);
}

/** A delete over the quota (100 per 24 hours; `delete_quota_usage` / `delete_config`): refused before it is sent. */
function deleteRefusal(used: number, total: number, planned: number, what: string, durationS = 86_400): ValidationError {
  const left = Math.max(0, total - used);
  // The service tells how many deletes the window holds, not when each was made: the whole window is the bound.
  const by = new Date(Date.now() + durationS * 1000).toISOString().replace(/:\d\d\.\d+Z$/, "Z");
  return new ValidationError({
    service: "posts",
    message: `the account may delete ${total} posts per 24 hours and has deleted ${used} (${left} left): ${what}${planned > left ? ` needs ${planned}` : ""}`,
    remedy: `Quota frees up as the deletes of the last 24 hours age, all of it by ${by} at the latest: run again then (the run sent no delete it could not finish), or change fewer posts in this run; to stop managing a post without deleting it, \`pulumi state delete <urn>\``,
  });
}

/** Why `planned` deletes (a run's replacements) would be refused now, or undefined; nothing when the service does not tell. */
export function deleteQuotaProblem(planned: number, limit: PublishingLimit): ValidationError | undefined {
  const total = limit.delete_config?.quota_total;
  if (total === undefined || planned === 0) return undefined;
  const used = limit.delete_quota_usage ?? 0;
  if (used + planned <= total) return undefined;
  return deleteRefusal(
    used,
    total,
    planned,
    `this run's ${planned} replaced post${planned === 1 ? "" : "s"} (a published post is deleted when it is republished)`,
    limit.delete_config?.quota_duration,
  );
}

/** The deletes this run has sent, against the quota read once per run and account. */
let deleting = new WeakMap<object, { limit: Promise<PublishingLimit>; sent: number }>();

// A new command counts its deletes afresh (tests that share a process need the same): forgetPreviewChecks.
onForget(() => {
  deleting = new WeakMap();
});

/**
 * Before a delete the engine did not show in advance (a destroy, a post removed from the program): refused at once
 * when the quota is spent, so a run stops before its first refused delete instead of failing one by one.
 */
export async function beforeDelete(postId: string): Promise<void> {
  const client = posts();
  let run = deleting.get(client);
  if (!run) deleting.set(client, (run = { limit: client.publishingLimit(), sent: 0 }));
  const limit = await run.limit.catch(() => undefined);
  const total = limit?.delete_config?.quota_total;
  if (!limit || total === undefined) return;
  const used = (limit.delete_quota_usage ?? 0) + run.sent;
  if (used >= total)
    throw deleteRefusal(
      used,
      total,
      0,
      `post ${postId} is not deleted, nor any other this run would delete`,
      limit.delete_config?.quota_duration,
    );
  run.sent++;
}

/**
 * The account's publishing quota (Threads API: 250 posts per moving 24 hours, told by `/me/threads_publishing_limit`).
 * A preview that would publish more than is left fails, saying when quota frees up; so does a publish the service
 * refuses over it.
 */
import { ValidationError } from "../http/errors";
import { posts, type PublishingLimit } from "./client";

/** When the next post of the window turns `quota_duration` old: its timestamp plus the duration. */
async function freesAt(durationS: number, needed: number): Promise<string> {
  const since = Date.now() / 1000 - durationS;
  const window = await posts().threads(1000, "id,timestamp", since);
  const times = window.map((p) => Date.parse(p.timestamp)).filter(Number.isFinite).sort((a, b) => a - b);
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

/** A publish refused as throttled: the quota's refusal when the quota is what is used up. */
export async function quotaRefusal(): Promise<ValidationError | undefined> {
  return quotaProblem(1).catch(() => undefined);
}

/**
 * What a rate-limited up should take, for comparing the measured one with. Two things pace it: the allowance (at
 * most `requests` in any `windowMs`) and the engine, which on its own sends a create only so often — and more
 * slowly as the stack grows, because it writes the whole state after every step. The allowance alone is a lower
 * bound that ignores the engine; the engine alone (the unthrottled up) ignores the allowance. This model combines
 * both: replaying the unthrottled up's requests, the k-th goes no sooner than the engine's own gap after the one
 * before it, and no sooner than the window after the request `requests` places before it. A provider that spends
 * the allowance perfectly (sends a request the moment both the engine and the window allow it) finishes then.
 */

/** The allowance alone: under a sliding window the k-th request (from 0) can go at floor(k / requests) windows. */
export function allowanceAloneMs(count: number, requests: number, windowMs: number): number {
  return count ? Math.floor((count - 1) / requests) * windowMs : 0;
}

/**
 * The allowance at the engine's own pace. `sent`: the times (ms from the start of the unthrottled up) at which its
 * requests reached the API, in order; `totalMs`: how long that up took.
 */
export function rateModel(sent: number[], totalMs: number, requests: number, windowMs: number): number {
  const at: number[] = [];
  sent.forEach((t, k) => {
    const engine = k === 0 ? t : at[k - 1] + (t - sent[k - 1]);
    const window = k >= requests ? at[k - requests] + windowMs : 0;
    at.push(Math.max(engine, window));
  });
  const tail = sent.length ? totalMs - sent[sent.length - 1] : totalMs;
  return Math.round((at.length ? at[at.length - 1] : 0) + tail);
}

/**
 * What the allowance alone dictates for a phase that starts at `start` and sends `count` requests, after the
 * requests `earlier` (their times, admitted ones only) that an earlier phase of the same credential sent: the k-th
 * goes no sooner than `start`, and no sooner than the window after the request `requests` places before it. A
 * phase that runs within five minutes of an up of a thousand records waits for that up's requests to age out.
 */
export function allowanceAfterMs(earlier: number[], start: number, count: number, requests: number, windowMs: number): number {
  const at = [...earlier].sort((a, b) => a - b);
  for (let k = 0; k < count; k++) {
    const i = at.length;
    at.push(Math.max(start, i >= requests ? at[i - requests] + windowMs : 0));
  }
  return count ? Math.round(at[at.length - 1] - start) : 0;
}

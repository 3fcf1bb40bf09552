import { describe, expect, it } from "vitest";
import { allowanceAfterMs, allowanceAloneMs, rateModel } from "../../bench/rate-model";

const every = (count: number, gapMs: number, from = 0) => Array.from({ length: count }, (_, k) => from + k * gapMs);

describe("the rate-limited benchmark's model", () => {
  it("an engine faster than the allowance waits for the window: bursts of `requests`, one window apart", () => {
    // 300 requests 1 ms apart, 50 ms of tail; 100 per 1000 ms: the last burst starts at 2000 ms.
    expect(allowanceAloneMs(300, 100, 1000)).toBe(2000);
    expect(rateModel(every(300, 1), 349, 100, 1000)).toBe(2000 + 99 + 50);
  });

  it("an engine slower than the allowance sets the pace alone", () => {
    expect(rateModel(every(300, 50, 100), 100 + 299 * 50 + 20, 100, 1000)).toBe(100 + 299 * 50 + 20);
  });

  it("a fast start and a slow end: the waits of the start delay the whole slow end", () => {
    // 100 requests 1 ms apart, then 100 requests 100 ms apart: the second hundred may start only at 1000 ms,
    // and then still needs its own 100 ms gaps (99 of them after the first).
    const sent = [...every(100, 1), ...every(100, 100, 199)];
    const combined = rateModel(sent, sent[199] + 10, 100, 1000);
    expect(combined).toBe(Math.max(1000, 99 + 100) + 99 * 100 + 10);
    expect(combined).toBeGreaterThan(sent[199] + 10);
  });

  it("a phase after an up in the same window waits for the up's requests to age out", () => {
    // 90 requests at 0-89 ms, then a phase of 20 at 500 ms, 100 per 1000 ms: 10 go at once, the other 10 when
    // the first 10 of the earlier ones age out (1000-1009 ms).
    expect(allowanceAfterMs(every(90, 1), 500, 20, 100, 1000)).toBe(1009 - 500);
    // With room in the window, the allowance dictates nothing.
    expect(allowanceAfterMs(every(10, 1), 500, 20, 100, 1000)).toBe(0);
    expect(allowanceAfterMs([], 0, 0, 100, 1000)).toBe(0);
  });
});

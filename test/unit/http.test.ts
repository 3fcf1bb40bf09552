import { describe, expect, it } from "vitest";
import { retryDelayMs } from "../../provider/http/client";
import { parseRatelimit, RateLimiter } from "../../provider/http/limiter";

describe("retry policy", () => {
  const half = () => 0.5;
  it("retries 429 and 5xx for idempotent methods with growing, jittered delays", () => {
    const d1 = retryDelayMs(1, "GET", { status: 503 }, 5, half)!;
    const d3 = retryDelayMs(3, "GET", { status: 503 }, 5, half)!;
    expect(d1).toBeGreaterThan(0);
    expect(d3).toBeGreaterThan(d1);
    expect(retryDelayMs(1, "GET", { status: 503 }, 5, () => 0)).not.toBe(retryDelayMs(1, "GET", { status: 503 }, 5, () => 0.99));
  });
  it("honours Retry-After in seconds and as a date", () => {
    expect(retryDelayMs(1, "PATCH", { status: 429, retryAfter: "2" }, 5, () => 0)).toBe(2000);
    const at = new Date(Date.now() + 3000).toUTCString();
    expect(retryDelayMs(1, "GET", { status: 429, retryAfter: at }, 5, () => 0)).toBeGreaterThan(1000);
  });
  it("never repeats a create the service may have acted on", () => {
    expect(retryDelayMs(1, "POST", { status: 500 }, 5)).toBeUndefined();
    expect(retryDelayMs(1, "POST", { status: 502 }, 5)).toBeUndefined();
    expect(retryDelayMs(1, "POST", { status: 504 }, 5)).toBeUndefined();
    expect(retryDelayMs(1, "POST", { code: "ECONNRESET" }, 5)).toBeUndefined();
    expect(retryDelayMs(1, "POST", { code: "UND_ERR_HEADERS_TIMEOUT" }, 5)).toBeUndefined();
    // ...but does repeat one that was refused before it was acted on.
    expect(retryDelayMs(1, "POST", { status: 429 }, 5)).toBeGreaterThan(0);
    expect(retryDelayMs(1, "POST", { status: 503, retryAfter: "1" }, 5, () => 0)).toBe(1000); // unavailable: not acted on
    expect(retryDelayMs(1, "POST", { code: "ECONNREFUSED" }, 5)).toBeGreaterThan(0);
  });
  it("stops at the retry budget and on permanent failures", () => {
    expect(retryDelayMs(6, "GET", { status: 503 }, 5)).toBeUndefined();
    expect(retryDelayMs(1, "GET", { status: 400 }, 5)).toBeUndefined();
    expect(retryDelayMs(1, "GET", { status: 403 }, 5)).toBeUndefined();
  });
  it("says an unresolvable name at once, and tries a refused connection for a few seconds only (a restart), not the whole budget", () => {
    expect(retryDelayMs(1, "GET", { code: "ENOTFOUND" }, 6)).toBeUndefined();
    const waits = Array.from({ length: 6 }, (_, i) => retryDelayMs(i + 1, "GET", { code: "ECONNREFUSED" }, 6, () => 0));
    expect(waits).toEqual([125, 250, 500, 1000, 2000, undefined]);
    expect(waits.slice(0, 5).reduce((a, b) => a! + b!, 0)).toBeGreaterThanOrEqual(3875); // a 2 s restart is covered
    expect(retryDelayMs(6, "GET", { status: 503 }, 6)).toBeGreaterThan(0); // throttling and 5xx keep the whole budget
    // Refused on this machine by a service that never answered: not running, said at once.
    expect(retryDelayMs(1, "GET", { code: "ECONNREFUSED", notRunning: true }, 6)).toBeUndefined();
    expect(retryDelayMs(1, "POST", { code: "ECONNREFUSED", notRunning: true }, 6)).toBeUndefined();
  });
});

describe("rate limiter", () => {
  /** A clock that only moves when the limiter sleeps: the test sees exactly how long it would wait. */
  function fakeClock() {
    let t = 0;
    return { now: () => t, sleep: async (ms: number) => void (t += ms), elapsed: () => t };
  }

  it("lets the whole allowance through at once, then what the window frees", async () => {
    const clock = fakeClock();
    const limiter = new RateLimiter({ requests: 100, perSeconds: 10 }, clock);
    for (let i = 0; i < 100; i++) await limiter.acquire();
    expect(clock.elapsed()).toBe(0);
    await limiter.acquire();
    expect(clock.elapsed()).toBeGreaterThanOrEqual(10_000);
    expect(clock.elapsed()).toBeLessThanOrEqual(10_010);
  });

  it("never allows more than the allowance in any window", async () => {
    const clock = fakeClock();
    const limiter = new RateLimiter({ requests: 1200, perSeconds: 300 }, clock);
    const times: number[] = [];
    for (let i = 0; i < 2500; i++) {
      await limiter.acquire();
      times.push(clock.now());
    }
    for (let i = 0; i + 1200 < times.length; i++) expect(times[i + 1200] - times[i]).toBeGreaterThanOrEqual(300_000 - 1);
  });

  it("waits as long as the service's Ratelimit header says once its count is used up, whatever its own count", async () => {
    const clock = fakeClock();
    const limiter = new RateLimiter({ requests: 1200, perSeconds: 300 }, clock);
    await limiter.acquire();
    const told = parseRatelimit('"default";r=0;t=42');
    expect(told).toEqual({ remaining: 0, resetSeconds: 42 });
    limiter.pauseFor(told!.resetSeconds * 1000);
    await limiter.acquire();
    expect(clock.elapsed()).toBe(42_000);
    await limiter.acquire(); // the pause is over: no further wait
    expect(clock.elapsed()).toBe(42_000);
  });

  it("reads the draft's header forms and nothing else", () => {
    expect(parseRatelimit('"default";r=50;t=30')).toEqual({ remaining: 50, resetSeconds: 30 });
    expect(parseRatelimit(['"burst";r=0;t=1'])).toEqual({ remaining: 0, resetSeconds: 1 });
    expect(parseRatelimit("limit=100, remaining=5")).toBeUndefined();
    expect(parseRatelimit(undefined)).toBeUndefined();
  });
});

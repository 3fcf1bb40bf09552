/**
 * A client-side rate limiter per service, shared by every resource of one `pulumi up`: the dynamic provider runs
 * all resources in one process, and this module is loaded once there, so one limiter paces the whole run.
 */

export interface LimitSpec {
  /** Requests allowed per window. */
  requests: number;
  /** Window length in seconds. */
  perSeconds: number;
}

/**
 * Never more than `spec.requests` in any window of `spec.perSeconds`: a sliding window over the times of the
 * requests sent, so a run may use the whole allowance at once and then exactly what the window frees — the time
 * the allowance itself dictates, and no 429 from a service that counts the same way.
 */
export class RateLimiter {
  private sent: number[] = [];
  private queue: Promise<void> = Promise.resolve();

  constructor(
    readonly spec: LimitSpec,
    private readonly clock: { now(): number; sleep(ms: number): Promise<void> } = {
      now: () => Date.now(),
      sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
    },
  ) {
    if (!(spec.requests > 0 && spec.perSeconds > 0)) throw new RangeError("rate limit must be positive");
  }

  /** No request before this time: the service said its allowance is used up (pauseFor). */
  private pausedUntil = 0;

  /**
   * Holds every request of the run for `ms`: the service's own count (its `Ratelimit` header: nothing left until the
   * window frees some) knows of requests this process did not send, made by other tools with the same credential.
   */
  pauseFor(ms: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, this.clock.now() + ms);
  }

  /** Resolves when one request may be sent. Callers are served in arrival order. */
  acquire(): Promise<void> {
    const turn = this.queue.then(() => this.take());
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  private async take(): Promise<void> {
    const window = this.spec.perSeconds * 1000;
    for (;;) {
      const now = this.clock.now();
      if (now < this.pausedUntil) {
        await this.clock.sleep(this.pausedUntil - now);
        continue;
      }
      while (this.sent.length && this.sent[0] <= now - window) this.sent.shift();
      if (this.sent.length < this.spec.requests) {
        this.sent.push(now);
        return;
      }
      await this.clock.sleep(this.sent[0] + window - now + 1);
    }
  }
}

/**
 * What a `Ratelimit` header says (IETF draft, as the edge service sends it since 2025-09-03): the quota left `r` and
 * the seconds `t` until the window frees some, e.g. `"default";r=50;t=30`. Undefined for anything else.
 */
export function parseRatelimit(header: string | string[] | undefined): { remaining: number; resetSeconds: number } | undefined {
  const text = Array.isArray(header) ? header[0] : header;
  const r = /(?:^|;)\s*r=(\d+)/.exec(text ?? "");
  const t = /(?:^|;)\s*t=(\d+)/.exec(text ?? "");
  return r && t ? { remaining: Number(r[1]), resetSeconds: Number(t[1]) } : undefined;
}

const limiters = new Map<string, RateLimiter>();

/** The process-wide limiter for a service; a changed spec replaces it (config differs between stacks). */
export function limiterFor(service: string, spec: LimitSpec): RateLimiter {
  const existing = limiters.get(service);
  if (existing && existing.spec.requests === spec.requests && existing.spec.perSeconds === spec.perSeconds) {
    return existing;
  }
  const fresh = new RateLimiter(spec);
  limiters.set(service, fresh);
  return fresh;
}

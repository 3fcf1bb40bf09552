/**
 * A client-side token bucket per service, shared by every resource of one `pulumi up`: the dynamic provider runs
 * all resources in one process, and this module is loaded once there, so one bucket paces the whole run.
 */

export interface LimitSpec {
  /** Requests allowed per window. */
  requests: number;
  /** Window length in seconds. */
  perSeconds: number;
}

/**
 * Never more than `spec.requests` in any window of `spec.perSeconds`: a burst of 10% of the allowance, then a
 * steady refill of the remaining 90% over the window (burst + refill over one window = the allowance).
 */
export class RateLimiter {
  private tokens: number;
  private last: number;
  private readonly capacity: number;
  private readonly perMs: number;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    readonly spec: LimitSpec,
    private readonly clock: { now(): number; sleep(ms: number): Promise<void> } = {
      now: () => Date.now(),
      sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
    },
  ) {
    if (!(spec.requests > 0 && spec.perSeconds > 0)) throw new RangeError("rate limit must be positive");
    this.capacity = Math.max(1, Math.floor(spec.requests * 0.1));
    this.perMs = (spec.requests - this.capacity) / (spec.perSeconds * 1000);
    this.tokens = this.capacity;
    this.last = clock.now();
  }

  /** Resolves when one request may be sent. Callers are served in arrival order. */
  acquire(): Promise<void> {
    const turn = this.queue.then(() => this.take());
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  private async take(): Promise<void> {
    for (;;) {
      const now = this.clock.now();
      this.tokens = Math.min(this.capacity, this.tokens + (now - this.last) * this.perMs);
      this.last = now;
      if (this.tokens >= 1) {
        this.tokens -= 1;
        return;
      }
      await this.clock.sleep(Math.ceil((1 - this.tokens) / this.perMs));
    }
  }
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

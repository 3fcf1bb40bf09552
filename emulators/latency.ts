/**
 * A latency profile: each request waits a delay drawn from a distribution before it is acted on and answered, so a
 * benchmark against the emulator sees what a provider sees against the real service, where each call takes tens
 * to hundreds of milliseconds instead of microseconds. Off unless asked for (the emulators' default stays instant;
 * the profile is an explicit hook: `latency` in the options, `--latency` on `pulumi-ops emulators`,
 * POST /__emulator/latency).
 */

export interface LatencyProfile {
  /** uniform: every delay in [minMs, maxMs] equally likely. lognormal: most near the geometric middle of the range,
   * a tail towards maxMs, as measured API latencies are; clipped to [minMs, maxMs]. */
  distribution: "uniform" | "lognormal";
  minMs: number;
  maxMs: number;
  /** Seeds the draws, so two runs of a benchmark wait the same delays in the same order. */
  seed?: number;
}

/** The real edge API's typical latency, as the benchmark's "realistic" run uses it. */
export const REALISTIC_LATENCY: LatencyProfile = { distribution: "lognormal", minMs: 50, maxMs: 250, seed: 1 };

/** `realistic`, `off`, `MIN-MAX` (uniform) or `uniform:MIN-MAX` / `lognormal:MIN-MAX`; throws what is wrong. */
export function parseLatency(text: string): LatencyProfile | undefined {
  if (text === "off" || text === "0") return undefined;
  if (text === "realistic") return { ...REALISTIC_LATENCY };
  const m = /^(?:(uniform|lognormal):)?(\d+)-(\d+)$/.exec(text.trim());
  if (!m || Number(m[2]) > Number(m[3])) {
    throw new Error(`latency "${text}": use realistic, off, or MIN-MAX in milliseconds (e.g. 50-250, lognormal:50-250)`);
  }
  return { distribution: (m[1] as LatencyProfile["distribution"]) ?? "uniform", minMs: Number(m[2]), maxMs: Number(m[3]), seed: 1 };
}

/** A seeded generator of uniform numbers in [0, 1) (mulberry32). */
export function seededRandom(seed = Date.now()): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One delay of the profile, from `random` (uniform in [0, 1)). */
export function drawLatency(p: LatencyProfile, random: () => number): number {
  if (p.distribution === "uniform") return p.minMs + random() * (p.maxMs - p.minMs);
  // Log-normal with its median at the range's geometric middle and 95% of draws inside the range.
  const median = Math.sqrt(Math.max(p.minMs, 1) * p.maxMs);
  const sigma = Math.log(p.maxMs / Math.max(p.minMs, 1)) / (2 * 1.96);
  const normal = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  return Math.min(p.maxMs, Math.max(p.minMs, median * Math.exp(sigma * normal)));
}

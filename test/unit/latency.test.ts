/** The emulators' latency profile (emulators/latency.ts): parsing, the distributions' shape, seeded draws, and the hook. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_TOKEN, EdgeEmulator } from "../../emulators";
import { drawLatency, parseLatency, REALISTIC_LATENCY, seededRandom } from "../../emulators/latency";

const draws = (profile: ReturnType<typeof parseLatency>, n = 20_000) => {
  const random = seededRandom(7);
  return Array.from({ length: n }, () => drawLatency(profile!, random)).sort((a, b) => a - b);
};

describe("latency profiles", () => {
  it("parses realistic, off and ranges, and names what is wrong", () => {
    expect(parseLatency("realistic")).toEqual(REALISTIC_LATENCY);
    expect(REALISTIC_LATENCY).toMatchObject({ minMs: 50, maxMs: 250 });
    expect(parseLatency("off")).toBeUndefined();
    expect(parseLatency("20-40")).toMatchObject({ distribution: "uniform", minMs: 20, maxMs: 40 });
    expect(parseLatency("lognormal:10-90")).toMatchObject({ distribution: "lognormal", minMs: 10, maxMs: 90 });
    expect(() => parseLatency("250-50")).toThrow(/use realistic, off, or MIN-MAX/);
    expect(() => parseLatency("fast")).toThrow(/latency "fast"/);
  });

  it("the realistic profile stays within 50-250 ms, centred near 112 ms, with a tail towards 250", () => {
    const d = draws(REALISTIC_LATENCY);
    expect(d[0]).toBeGreaterThanOrEqual(50);
    expect(d[d.length - 1]).toBeLessThanOrEqual(250);
    const median = d[d.length / 2];
    expect(median).toBeGreaterThan(100);
    expect(median).toBeLessThan(125);
    expect(d[Math.floor(d.length * 0.95)]).toBeGreaterThan(180);
  });

  it("uniform draws spread evenly over the range", () => {
    const d = draws(parseLatency("100-200"));
    expect(d[0]).toBeGreaterThanOrEqual(100);
    expect(d[d.length - 1]).toBeLessThan(200);
    expect(d[d.length / 2]).toBeGreaterThan(145);
    expect(d[d.length / 2]).toBeLessThan(155);
  });

  it("a seed repeats the same delays", () => {
    const a = seededRandom(3);
    const b = seededRandom(3);
    expect(Array.from({ length: 5 }, () => drawLatency(REALISTIC_LATENCY, a))).toEqual(
      Array.from({ length: 5 }, () => drawLatency(REALISTIC_LATENCY, b)),
    );
  });
});

describe("the edge emulator's latency hook", () => {
  let edge: EdgeEmulator;
  beforeAll(async () => {
    edge = await new EdgeEmulator().start();
  });
  afterAll(() => edge.stop());

  it("is off by default, and once set every request waits at least its minimum", async () => {
    expect(edge.latency).toBeUndefined();
    const set = await fetch(`${edge.url}/__emulator/latency`, { method: "POST", body: JSON.stringify({ profile: "120-130" }) });
    expect(await set.json()).toEqual({ latency: expect.objectContaining({ minMs: 120, maxMs: 130 }) });
    const start = performance.now();
    const res = await fetch(`${edge.url}/client/v4/zones`, { headers: { authorization: `Bearer ${DEMO_TOKEN}` } });
    expect(res.status).toBe(200);
    expect(performance.now() - start).toBeGreaterThanOrEqual(119);
    await fetch(`${edge.url}/__emulator/latency`, { method: "POST", body: JSON.stringify({ profile: "off" }) });
    expect(edge.latency).toBeUndefined();
  });
});

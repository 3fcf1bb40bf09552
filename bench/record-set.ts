/**
 * The record set (`ops.edge.DnsRecordSet`) at N records (bench/programs/record-set), through the real engine:
 * preview (new), up (create), no-op preview and up, refresh, an update of 1%, destroy; each with its time, the
 * requests it sent, and the peak memory of the provider and of the program process; the state per record; beside
 * floor (a), the same records in a no-I/O resource of the same shape (what the engine and the Node SDK spend
 * carrying them, phases interleaved), and floor (b), the same API calls sent directly at the set's own
 * parallelism (8); beside the engine's own floor, the same command on a program that declares nothing (what any
 * Node program pays, before a provider or a record); and beside the DNS-as-code peer, octoDNS (octodns.ts), on an
 * emulator of its own under the same profile, its phases interleaved with the set's. Under a profile of the
 * emulator (instant, or realistic: the real API's latency and allowance).
 */
import * as path from "node:path";
import { Pool } from "undici";
import { DEMO_TOKEN, EdgeEmulator, REALISTIC_LATENCY } from "../emulators";
import { engineStack } from "../scripts/engine";
import { countByMethod, withPeakRss } from "./harness";
import { OctodnsPeer, type PeerMeasured } from "./octodns";
import { allowanceAfterMs } from "./rate-model";

const PARALLEL = 8;
export const SET_PHASES = [
  "preview (new)",
  "up (create)",
  "preview (no-op)",
  "up (no-op)",
  "refresh",
  "up (update 1%)",
  "destroy",
] as const;

/** Floor (b): the creates, the listing, the 1% update and the deletes, sent directly, PARALLEL at a time. */
async function directCalls(n: number, edge: EdgeEmulator): Promise<Record<string, number>> {
  const pool = new Pool(edge.url, { connections: PARALLEL });
  const zone = [...edge.zones.values()].find((z) => z.name === "example.com")!.id;
  const headers = { authorization: `Bearer ${DEMO_TOKEN}`, "content-type": "application/json" };
  const req = async (method: "GET" | "POST" | "PATCH" | "DELETE", p: string, body?: object) =>
    (await (await pool.request({ method, path: `/client/v4${p}`, headers, body: body && JSON.stringify(body) })).body.json()) as {
      result: { id: string };
    };
  const each = async (count: number, f: (i: number) => Promise<unknown>) => {
    const start = Date.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: PARALLEL }, async () => {
        while (next < count) await f(next++);
      }),
    );
    return Date.now() - start;
  };
  const ids: string[] = [];
  const create = await each(n, async (i) =>
    ids.push(
      (
        await req("POST", `/zones/${zone}/dns_records`, {
          type: "A",
          name: `direct-${i}`,
          content: `198.51.${Math.floor(i / 250) % 250}.${(i % 250) + 1}`,
          ttl: 300,
        })
      ).result.id,
    ),
  );
  const listStart = Date.now();
  for (let page = 1; page <= Math.ceil(n / 5000); page++) await req("GET", `/zones/${zone}/dns_records?per_page=5000&page=${page}`);
  const refresh = Date.now() - listStart;
  const update = await each(Math.ceil(n / 100), (i) => req("PATCH", `/zones/${zone}/dns_records/${ids[i * 100]}`, { ttl: 600 }));
  const destroy = await each(n, (i) => req("DELETE", `/zones/${zone}/dns_records/${ids[i]}`));
  await pool.close();
  return { "up (create)": create, refresh, "up (update 1%)": update, destroy };
}

export async function benchRecordSet(programs: string, n: number, profile: "instant" | "realistic") {
  const options = profile === "instant" ? { rateLimit: { requests: 1e9, perSeconds: 300 } } : { latency: REALISTIC_LATENCY };
  const edge = await new EdgeEmulator(options).start();
  const engine = await engineStack(
    path.join(programs, "record-set"),
    {
      "bench-record-set:count": { value: String(n) },
      "ops:edgeBaseUrl": { value: edge.url },
      "ops:edgeApiToken": { value: DEMO_TOKEN, secret: true },
      ...(profile === "instant" ? { "ops:edgeRateLimit": { value: "1000000" } } : {}),
    },
    "bench",
    { PULUMI_OPS_QUIET: "1" },
  );
  // Floor (a): the same program with the records in a no-I/O resource of the same shape, its phases interleaved.
  const floor = await engineStack(
    path.join(programs, "record-set"),
    {
      "bench-record-set:count": { value: String(n) },
      "bench-record-set:floor": { value: "true" },
    },
    "floor",
    { PULUMI_OPS_QUIET: "1" },
  );
  // The engine's own floor: a program that declares nothing (bench/programs/empty), its same command interleaved.
  // No provider starts and no record is carried: what any Pulumi program of Node pays for that command here.
  const empty = await engineStack(path.join(programs, "empty"), {}, "floor-empty", { PULUMI_OPS_QUIET: "1" });
  type Measured = { ms: number; requests: Record<string, number>; providerMb: number; programMb: number; allowanceMs?: number };
  const phases: Record<string, Measured & { floorA: Measured; emptyMs: number; peer?: PeerMeasured & { seeded?: boolean } }> = {};
  // The peer: octoDNS on an emulator of its own, the same profile (BENCH_PEER=0 leaves it out).
  const peer = process.env.BENCH_PEER === "0" ? undefined : new OctodnsPeer(n, options);
  await peer?.start();
  /** Under the real allowance, octoDNS's creates of more than 1,000 records take 42 minutes a 10,000: seeded fast. */
  const seedPeer = profile === "realistic" && n > 1000;
  const peerSteps: Record<string, () => Promise<PeerMeasured & { seeded?: boolean }>> = peer
    ? {
        "preview (new)": () => (peer.zone(0), peer.sync(false)),
        "up (create)": async () => (seedPeer ? { ...(await peer.seeded(() => peer.sync(true))), seeded: true } : peer.sync(true)),
        "preview (no-op)": () => peer.sync(false),
        "up (no-op)": () => peer.sync(true),
        refresh: () => peer.sync(false), // its plan is its read of the zone
        "up (update 1%)": () => (peer.zone(1), peer.sync(true)),
        destroy: async () => (
          peer.zone("empty"),
          seedPeer ? { ...(await peer.seeded(() => peer.sync(true))), seeded: true } : peer.sync(true)
        ),
      }
    : {};
  let peerStopped = false; // a phase stopped at the time cap: the peer's zone is no longer the set's, so it stops
  const peerStep = async (name: string) => {
    if (peerStopped || !peerSteps[name]) return undefined;
    const m = await peerSteps[name]();
    peerStopped = !!m.stopped;
    return m;
  };
  /** Floor (a) carries the records as a map: past 10,000 (BENCH_SET_FLOOR_MAX) it takes minutes a phase; left out. */
  const withFloor = n <= Number(process.env.BENCH_SET_FLOOR_MAX ?? 10_000);
  let stateBytesPerRecord = 0;
  let floorStateBytesPerRecord = 0;
  const steps = (stack: typeof engine.stack): [string, () => Promise<unknown>][] => [
    ["preview (new)", () => stack.preview()],
    ["up (create)", () => stack.up()],
    ["preview (no-op)", () => stack.preview()],
    ["up (no-op)", () => stack.up()],
    ["refresh", () => stack.refresh()],
    ["up (update 1%)", () => stack.setConfig("bench-record-set:generation", { value: "1" }).then(() => stack.up())],
    ["destroy", () => stack.destroy()],
  ];
  const measure = async (f: () => Promise<unknown>): Promise<Measured> => {
    const before = edge.log.length;
    const start = edge.now();
    const [, mem] = await withPeakRss("bench-record-set", f);
    const ms = edge.now() - start;
    const admitted = (from: number, to?: number) => edge.log.slice(from, to).filter((e) => e.status !== 429);
    // Under the real allowance, what it alone dictates for this phase, given what the earlier phases sent.
    const allowanceMs =
      profile === "realistic"
        ? allowanceAfterMs(
            admitted(0, before).map((e) => e.time),
            start,
            admitted(before).length,
            1200,
            300_000,
          )
        : undefined;
    return {
      ms,
      requests: countByMethod(edge.log.slice(before)),
      providerMb: Math.round(mem.provider),
      programMb: Math.round(mem.program),
      allowanceMs,
    };
  };
  const stateBytes = async (stack: typeof engine.stack) => Math.round(JSON.stringify((await stack.exportStack()).deployment).length / n);
  try {
    // Unmeasured: the first command in the program's folder pays for warming caches that every later one reuses.
    if (withFloor) await floor.stack.preview();
    const ours = steps(engine.stack);
    const theirs = steps(floor.stack);
    const nothing = steps(empty.stack);
    await empty.stack.preview(); // unmeasured, as the floor's first
    for (let i = 0; i < ours.length; i++) {
      const [name, f] = ours[i];
      if (name === "destroy")
        [stateBytesPerRecord, floorStateBytesPerRecord] = [await stateBytes(engine.stack), withFloor ? await stateBytes(floor.stack) : 0];
      // The order alternates from phase to phase, so a noisy minute does not land on one side only.
      let set: Measured, floorA: Measured;
      let octo: (PeerMeasured & { seeded?: boolean }) | undefined;
      const floorPhase = () => (withFloor ? measure(theirs[i][1]) : Promise.resolve({ ms: 0, requests: {}, providerMb: 0, programMb: 0 }));
      if (i % 2) [floorA, octo, set] = [await floorPhase(), await peerStep(name), await measure(f)];
      else [set, octo, floorA] = [await measure(f), await peerStep(name), await floorPhase()];
      const startEmpty = Date.now();
      await nothing[i][1]();
      const emptyMs = Date.now() - startEmpty;
      phases[name] = { ...set, floorA, emptyMs, peer: octo };
      process.stdout.write(
        `  record set N=${n} (${profile}) ${name}: ${set.ms} ms (floor (a) ${floorA.ms} ms, empty program ${emptyMs} ms${octo ? `, octoDNS ${octo.ms} ms${octo.seeded ? " seeded" : ""}` : ""}), ${Object.values(set.requests).reduce((a, b) => a + b, 0)} requests\n`,
      );
    }
  } finally {
    await engine.dispose();
    await floor.dispose();
    await empty.dispose();
    await edge.stop();
    await peer?.stop();
  }
  const direct = await new EdgeEmulator({ ...options, rateLimit: { requests: 1e9, perSeconds: 300 } }).start();
  const floorB = await directCalls(n, direct);
  await direct.stop();
  return { n, profile, phases, floorB, stateBytesPerRecord, floorStateBytesPerRecord };
}

export function recordSetRows(r: Awaited<ReturnType<typeof benchRecordSet>>): string[] {
  const rows = SET_PHASES.map((p) => {
    const d = r.phases[p];
    const a = d.floorA;
    const b = r.floorB[p];
    const total = Object.values(d.requests).reduce((x, y) => x + y, 0);
    const by = Object.entries(d.requests)
      .map(([m, c]) => `${m}:${c}`)
      .join(" ");
    const o = d.peer;
    const peer = !o
      ? "- | - | -"
      : o.seeded
        ? `seeded | - | ${o.mb}`
        : o.stopped
          ? `> ${o.ms} (stopped) | < ${(d.ms / o.ms).toFixed(2)} | ${o.mb}`
          : `${o.ms} | ${(d.ms / o.ms).toFixed(2)} | ${o.mb}`;
    const floor = a.ms ? `${a.ms} | ${(d.ms / a.ms).toFixed(2)}` : "- | -";
    const engineFloor = o && !o.seeded && !o.stopped ? `${d.emptyMs} | ${(d.emptyMs / o.ms).toFixed(2)}` : `${d.emptyMs} | -`;
    return `| ${r.n} | ${p} | ${d.ms} | ${peer} | ${engineFloor} | ${floor} | ${b ?? "-"} | ${b ? (d.ms / b).toFixed(2) : "-"} | ${total} | ${by} | ${d.providerMb} (${a.providerMb}) | ${d.programMb} (${a.programMb}) |`;
  });
  return [
    ...rows,
    `| ${r.n} | state per record | ${r.stateBytesPerRecord} B | | | | | | ${r.floorStateBytesPerRecord ? `${r.floorStateBytesPerRecord} B` : "-"} | | | | | | | |`,
  ];
}

/** The phases the allowance held back (it alone dictates over a second, given the earlier phases' requests). */
export function allowanceNotes(r: Awaited<ReturnType<typeof benchRecordSet>>): string[] {
  return SET_PHASES.flatMap((p) => {
    const a = r.phases[p].allowanceMs ?? 0;
    return a > 1000
      ? [
          `- N = ${r.n}, ${p}: ${r.phases[p].ms} ms, of which the allowance alone dictates ${a} ms (1200 requests per 5 min, counting the ones the phases before it sent in that window).`,
        ]
      : [];
  });
}

export const RECORD_SET_HEADER = [
  "| N | phase | ms | octoDNS ms | ratio to octoDNS | octoDNS peak RSS MB | empty program ms | empty program to octoDNS | floor (a) ms | ratio to (a) | floor (b) ms | ratio to (b) | API requests | by method | provider peak RSS MB (floor (a)) | program peak RSS MB (floor (a)) |",
  "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
];

/**
 * `npm run bench`: how the provider scales, through the real engine against the edge emulator, for N DNS records
 * in one zone (BENCH_N, default 100,1000), under two profiles of the emulator (BENCH_PROFILES, default
 * instant,realistic: no latency, or the real API's 50-250 ms and its allowance). Every figure is set beside two floors measured in the same run:
 * (a) the same program shape with N dynamic resources that make no API call (what the engine costs), and (b) the
 * same API calls made directly by a small client at the engine's parallelism (what the API costs). Then one
 * resource type of each other module at BENCH_MODULES_N (default 50), an up against a scaled-down allowance, and
 * two stacks of BENCH_TWO_STACKS_N records (default 650) applied at once under the real allowance (two-stacks.ts).
 * The record set (DnsRecordSet) beside octoDNS (octodns.ts; BENCH_PEER=0 leaves it out) at BENCH_SET_N (default
 * 1000,10000,100000; realistic BENCH_SET_REALISTIC_N, 1000,10000).
 * Then moving in (migrate.ts): a Terraform v5 state of BENCH_MIGRATE_N records (default 10,000; 0 leaves it out)
 * migrated by `pulumi-ops migrate`, and the written program's first preview and up, with the writes they send.
 * First, unless BENCH_COST=0, the cost breakdown of bench/cost.ts (an empty program with and without pulumi-ops).
 * Prints a table and writes bench/results/<time>.json and latest.md. Nothing here is asserted by a test.
 */
import { writeFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Pool } from "undici";
import { DEMO_TOKEN, EdgeEmulator, REALISTIC_LATENCY } from "../emulators";
import { engineStack, ROOT } from "../scripts/engine";
import { byMethod, installedPrograms, PHASES, runPhases, totalRequests, type PhaseRun } from "./harness";
import { benchCost, describeCost } from "./cost";
import { benchModule, MODULES } from "./modules";
import { allowanceAloneMs, rateModel } from "./rate-model";
import { allowanceNotes, benchRecordSet, RECORD_SET_HEADER, recordSetRows } from "./record-set";
import { describeTwoStacks, twoStacks } from "./two-stacks";
import { benchMigrate, MIGRATE_HEADER, migrateRows } from "./migrate";

const list = (v: string | undefined, dflt: string) => (v ?? dflt).split(",").filter(Boolean).map(Number);
const SIZES = list(process.env.BENCH_N, "100,1000");
/** instant: the emulator answers in microseconds, with no allowance in the way (what the provider and engine cost).
 * realistic: the real API's latency (50-250 ms, REALISTIC_LATENCY) and its allowance (1200 requests per 5 min). */
const PROFILES = (process.env.BENCH_PROFILES ?? "instant,realistic").split(",").filter(Boolean) as Profile[];
type Profile = "instant" | "realistic";
const MODULES_N = Number(process.env.BENCH_MODULES_N ?? 50);
const PARALLEL = 8; // the engine's default --parallel

const edgeConfig = (edge: EdgeEmulator, profile: Profile = "instant") => ({
  "ops:edgeBaseUrl": { value: edge.url },
  "ops:edgeApiToken": { value: DEMO_TOKEN, secret: true },
  // instant: the client-side pacing is measured separately; realistic: the provider's default, the real allowance.
  ...(profile === "instant" ? { "ops:edgeRateLimit": { value: "1000000" } } : {}),
});
/** The edge emulator of a profile. */
const profileEdge = (profile: Profile) =>
  new EdgeEmulator(profile === "instant" ? { rateLimit: { requests: 1e9, perSeconds: 300 } } : { latency: REALISTIC_LATENCY }).start();

/** Floor (a) or the DNS records, at N, against `edge`. */
const edgeProgram = (programs: string, program: "records" | "noop", n: number, edge: EdgeEmulator, profile: Profile = "instant") => ({
  dir: path.join(programs, program),
  project: `bench-${program}`,
  n,
  config: edgeConfig(edge, profile),
  logs: () => [edge.log],
  label: `${program}${profile === "instant" ? "" : ` (${profile})`}`,
});

/** Floor (b): the creates, reads, updates and deletes themselves, sent directly at the engine's parallelism. */
async function directApi(n: number, edge: EdgeEmulator): Promise<Record<string, number>> {
  const pool = new Pool(edge.url, { connections: PARALLEL });
  const zone = [...edge.zones.values()].find((z) => z.name === "example.com")!.id;
  const headers = { authorization: `Bearer ${DEMO_TOKEN}`, "content-type": "application/json" };
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
  const req = async (method: "GET" | "POST" | "PATCH" | "DELETE", p: string, body?: object) => {
    const r = await pool.request({ method, path: `/client/v4${p}`, headers, body: body && JSON.stringify(body) });
    return (await r.body.json()) as { result: { id: string } };
  };
  const create = await each(n, async (i) =>
    ids.push(
      (
        await req("POST", `/zones/${zone}/dns_records`, {
          type: "A",
          name: `direct-${i}`,
          content: `198.51.${Math.floor(i / 250)}.${(i % 250) + 1}`,
          ttl: 300,
        })
      ).result.id,
    ),
  );
  const read = await each(n, (i) => req("GET", `/zones/${zone}/dns_records/${ids[i]}`));
  const update = await each(Math.ceil(n / 10), (i) => req("PATCH", `/zones/${zone}/dns_records/${ids[i * 10]}`, { ttl: 600 }));
  const destroy = await each(n, (i) => req("DELETE", `/zones/${zone}/dns_records/${ids[i]}`));
  await pool.close();
  return { "up (create)": create, refresh: read, "up (update 10%)": update, destroy };
}

/** One up of N records on a fresh emulator and stack, under an allowance or none; then destroyed. */
async function upOnce(programs: string, n: number, allowance?: { requests: number; windowSeconds: number }) {
  const edge = await new EdgeEmulator({
    rateLimit: allowance ? { requests: allowance.requests, perSeconds: allowance.windowSeconds } : { requests: 1e9, perSeconds: 300 },
  }).start();
  const engine = await engineStack(
    path.join(programs, "records"),
    {
      "bench-records:count": { value: String(n) },
      "ops:edgeBaseUrl": { value: edge.url },
      "ops:edgeApiToken": { value: DEMO_TOKEN, secret: true },
      "ops:edgeRateLimit": { value: String(allowance?.requests ?? 1000000) },
      ...(allowance ? { "ops:edgeRateLimitWindowSeconds": { value: String(allowance.windowSeconds) } } : {}),
    },
    allowance ? "bench-rate" : "bench-unthrottled",
    { PULUMI_OPS_QUIET: "1" },
  );
  try {
    const start = Date.now();
    const up = await engine.stack.up();
    const ms = Date.now() - start;
    // Copies: the destroy below empties the zone and adds to the log.
    const records = [...[...edge.zones.values()].find((z) => z.name === "example.com")!.records.values()];
    return { ms, up, records, log: [...edge.log], sent: edge.log.map((e) => e.time - start) };
  } finally {
    await engine.stack.destroy().catch(() => undefined);
    await engine.dispose();
    await edge.stop();
  }
}

/**
 * The allowance scaled down (RATE requests per WINDOW seconds, enforced by the emulator; the provider configured to
 * the same allowance): an up of N records must finish with no failed operation and no duplicate, in about the
 * time the allowance dictates — alone (requests / rate), and at the engine's own pace (bench/rate-model.ts, from
 * an unthrottled up of the same N: the one measured earlier in this run, or one made here).
 */
async function rateLimited(
  programs: string,
  n: number,
  requests: number,
  windowSeconds: number,
  unthrottled?: { sent: number[]; ms: number },
) {
  const free = unthrottled ?? (await upOnce(programs, n));
  const { ms, up, records, log } = await upOnce(programs, n, { requests, windowSeconds });
  const names = new Set(records.map((r) => r.name));
  const throttled = log.filter((e) => e.status === 429).length;
  const sent = log.length;
  const dictated = allowanceAloneMs(sent, requests, windowSeconds * 1000);
  const combined = rateModel(free.sent, free.ms, requests, windowSeconds * 1000);
  return {
    n,
    allowance: `${requests} per ${windowSeconds} s`,
    ms,
    dictatedMs: dictated,
    ratio: dictated ? +(ms / dictated).toFixed(2) : null,
    unthrottledMs: free.ms,
    combinedMs: combined,
    combinedRatio: +(ms / combined).toFixed(2),
    requests: sent,
    throttled,
    created: up.summary.resourceChanges?.create ?? 0,
    records: records.length,
    duplicates: records.length - names.size,
  };
}

const fmt = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : "-");
const HEADER = [
  "| N | phase | ms | floor (a) ms | ratio to (a) | floor (b) ms | API requests | by method | requests per resource | provider peak RSS MB | program peak RSS MB (floor (a)) |",
  "|---|---|---|---|---|---|---|---|---|---|---|",
];

function rowsOf(n: number, run: PhaseRun, floorA: PhaseRun, floorB: Record<string, number> = {}, label = ""): string[] {
  const rows = PHASES.map((p) => {
    const d = run.phases[p];
    const a = floorA.phases[p];
    const repeated = d.runs ? ` (median of ${d.runs.length})` : "";
    return `| ${n} | ${label}${p}${repeated} | ${d.ms} | ${a.ms} | ${fmt(d.ms / a.ms)} | ${floorB[p] ?? "-"} | ${totalRequests(d)} | ${byMethod(d.requests)} | ${d.perResource} | ${d.peakRssMb} | ${d.programMb} (${a.programMb}) |`;
  });
  return [
    ...rows,
    `| ${n} | ${label}state per resource | ${run.stateBytesPerResource} B | ${floorA.stateBytesPerResource} B | | | | | | | |`,
  ];
}

async function main(): Promise<void> {
  const results: Record<string, unknown>[] = [];
  const profileRows: Partial<Record<Profile, string[]>> = {};
  const programs = installedPrograms();
  /** Per N, when each request of the unthrottled up reached the emulator: the rate-limited run's model replays it. */
  const unthrottled = new Map<number, { sent: number[]; ms: number }>();
  let cost: Awaited<ReturnType<typeof benchCost>> | undefined;
  if (process.env.BENCH_COST !== "0") {
    console.log("cost breakdown: an empty program with and without pulumi-ops, what each process loads, the handlers' own work");
    cost = await benchCost(programs);
    results.push({ cost });
  }
  for (const profile of PROFILES) {
    for (const n of SIZES) {
      const edge = await profileEdge(profile);
      console.log(`N = ${n}, ${profile}`);
      const [floorA, dns] = await runPhases([
        edgeProgram(programs, "noop", n, edge, profile),
        edgeProgram(programs, "records", n, edge, profile),
      ]);
      const up = dns.phases["up (create)"];
      if (profile === "instant")
        unthrottled.set(n, {
          ms: up.ms,
          sent: edge.log.filter((e) => e.time >= up.start && e.time <= up.start + up.ms).map((e) => e.time - up.start),
        });
      await edge.stop();
      // Floor (b) under the realistic profile: the same latency, but an allowance of its own (the calls alone).
      const direct =
        profile === "instant"
          ? await profileEdge("instant")
          : await new EdgeEmulator({ latency: REALISTIC_LATENCY, rateLimit: { requests: 1e9, perSeconds: 300 } }).start();
      const floorB = await directApi(n, direct);
      await direct.stop();
      results.push({ n, profile, floorA, dns, floorB });
      (profileRows[profile] ??= []).push(...rowsOf(n, dns, floorA, floorB));
    }
  }

  // The record set beside octoDNS: N = 1000, 10000, 100000 instant; 1000 and 10000 realistic (the set's batches
  // keep 10,000 creates within the real allowance; octoDNS's zone is seeded there, its creates taking 42 minutes).
  const setRows: Partial<Record<Profile, string[]>> = {};
  const setNotes: Partial<Record<Profile, string[]>> = {};
  for (const profile of PROFILES) {
    const sizes = list(
      profile === "instant" ? process.env.BENCH_SET_N : process.env.BENCH_SET_REALISTIC_N,
      profile === "instant" ? "1000,10000,100000" : "1000,10000",
    );
    for (const n of sizes) {
      console.log(`record set: N = ${n}, ${profile}`);
      const r = await benchRecordSet(programs, n, profile);
      results.push({ recordSet: r });
      (setRows[profile] ??= []).push(...recordSetRows(r));
      (setNotes[profile] ??= []).push(...allowanceNotes(r));
    }
  }

  const moduleRows: string[] = [];
  if (MODULES_N > 0) {
    console.log(`other modules: N = ${MODULES_N}`);
    const idle = await new EdgeEmulator().start();
    for (const m of MODULES) {
      const [floorA, run] = await benchModule(programs, m, MODULES_N, edgeProgram(programs, "noop", MODULES_N, idle));
      results.push({ module: m.kind, n: MODULES_N, floorA, run });
      moduleRows.push(...rowsOf(MODULES_N, run, floorA, {}, `${m.resource}: `));
    }
    await idle.stop();
  }

  const rateN = Number(process.env.BENCH_RATE_N ?? SIZES[SIZES.length - 1] ?? 200);
  let rate: Awaited<ReturnType<typeof rateLimited>> | undefined;
  if (rateN > 0) {
    console.log(`rate-limited up: N = ${rateN}, 100 requests per 10 s`);
    rate = await rateLimited(programs, rateN, 100, 10, unthrottled.get(rateN));
    results.push({ rateLimited: rate });
  }

  const twoN = Number(process.env.BENCH_TWO_STACKS_N ?? 650);
  let two: Awaited<ReturnType<typeof twoStacks>> | undefined;
  if (twoN > 0) {
    console.log(`two stacks at once under the real allowance: N = ${twoN} each`);
    two = await twoStacks(programs, twoN);
    results.push({ twoStacks: two });
  }

  const migrateN = Number(process.env.BENCH_MIGRATE_N ?? 10000);
  let moved: Awaited<ReturnType<typeof benchMigrate>> | undefined;
  if (migrateN > 0) {
    console.log(`moving in: a Terraform v5 state of ${migrateN} records migrated, then taken over`);
    moved = await benchMigrate(programs, migrateN);
    results.push({ migrate: moved });
  }

  const machine = `${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
  const table = [
    `Machine: ${machine}`,
    "",
    ...(cost ? [...describeCost(cost), ""] : []),
    ...PROFILES.flatMap((p) =>
      !profileRows[p]?.length
        ? []
        : [
            p === "instant"
              ? "DNS records (`ops.edge.DnsRecord`), one zone, instant emulator (no latency, no allowance in the way):"
              : "DNS records (`ops.edge.DnsRecord`), one zone, realistic emulator (50-250 ms per request, 1200 requests per 5 min; floor (b) with the latency and no allowance):",
            "",
            ...HEADER,
            ...(profileRows[p] ?? []),
            "",
          ],
    ),
    ...PROFILES.flatMap((p) =>
      setRows[p]?.length
        ? [
            `The same records as one \`ops.edge.DnsRecordSet\`, ${p} emulator (floor (a): the same records in a no-I/O resource of the same shape, bench/programs/noop/noop-floor/set.js; floor (b): the same calls sent directly, 8 at a time):`,
            "",
            ...RECORD_SET_HEADER,
            ...setRows[p]!,
            "",
            ...(setNotes[p]?.length ? [...setNotes[p]!, ""] : []),
          ]
        : [],
    ),
    ...(moduleRows.length
      ? ["", "One resource type of each other module (floor (a): the no-I/O program at the same N):", "", ...HEADER, ...moduleRows]
      : []),
    ...(rate
      ? [
          "",
          `Rate-limited up (${rate.allowance} enforced by the emulator): N = ${rate.n}: ${rate.ms} ms against ${rate.dictatedMs} ms dictated by the allowance alone (ratio ${rate.ratio ?? "-, all within one window"})` +
            ` and ${rate.combinedMs} ms by the allowance at the engine's own pace (the unthrottled up of ${rate.unthrottledMs} ms replayed under the allowance; ratio ${rate.combinedRatio})` +
            `; ${rate.requests} requests, ${rate.throttled} answered 429 and retried, ${rate.created} created, ${rate.records} records, ${rate.duplicates} duplicates.`,
        ]
      : []),
    ...(two ? ["", describeTwoStacks(two)] : []),
    ...(moved
      ? [
          "",
          "Moving in: a Terraform v5 state of the zone's records migrated by `pulumi-ops migrate` (the packed package), then the written program's first preview and up through the engine (one DnsRecordSet adopting every record), instant emulator:",
          "",
          ...MIGRATE_HEADER,
          ...migrateRows(moved),
        ]
      : []),
  ].join("\n");
  console.log(`\n${table}`);
  const file = path.join(ROOT, "bench/results", `${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
  writeFileSync(file, JSON.stringify({ machine, parallel: PARALLEL, results }, null, 2));
  writeFileSync(path.join(ROOT, "bench/results/latest.md"), `${table}\n`);
  console.log(`\nwrote ${path.relative(ROOT, file)} and bench/results/latest.md`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});

/**
 * `npm run bench`: how the provider scales, through the real engine against the edge emulator, for N DNS records
 * in one zone (BENCH_N, default 50,200,1000). Every figure is set beside two floors measured in the same run:
 * (a) the same program shape with N dynamic resources that make no API call (what the engine costs), and (b) the
 * same API calls made directly by a small client at the engine's parallelism (what the API costs).
 * Prints a table and writes bench/results/<time>.json. Nothing here is asserted by a test.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, statSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Pool } from "undici";
import { DEMO_TOKEN, EdgeEmulator } from "../emulators";
import { engineStack, ROOT } from "../scripts/engine";

const SIZES = (process.env.BENCH_N ?? "50,200,1000").split(",").map(Number);
const PARALLEL = 8; // the engine's default --parallel
const PHASES = ["preview (new)", "up (create)", "up (no-op)", "preview (no-op)", "refresh", "up (update 10%)", "destroy"] as const;

interface Phase {
  ms: number;
  requests: Record<string, number>;
  perResource: number;
  peakRssMb: number;
}

/** Peak resident memory of the dynamic provider process while `f` runs (sampled every 200 ms). */
async function withPeakRss<T>(f: () => Promise<T>): Promise<[T, number]> {
  let peak = 0;
  const sample = () => {
    try {
      const ps = execFileSync("ps", ["-eo", "rss=,args="], { encoding: "utf8" });
      for (const line of ps.split("\n")) if (line.includes("dynamic-provider")) peak = Math.max(peak, Number(line.trim().split(/\s+/)[0]) / 1024);
    } catch {
      /* ps unavailable: no memory figure */
    }
  };
  const timer = setInterval(sample, 200);
  try {
    return [await f(), peak];
  } finally {
    clearInterval(timer);
  }
}

function stateBytes(scratch: string): number {
  const dir = path.join(scratch, "state", ".pulumi", "stacks");
  const files = readdirSync(dir, { recursive: true }).map(String).filter((f) => f.endsWith(".json") && !f.includes(".bak"));
  return files.reduce((n, f) => n + statSync(path.join(dir, f)).size, 0);
}

async function phases(program: "records" | "noop", n: number, edge: EdgeEmulator): Promise<{ phases: Record<string, Phase>; stateBytesPerResource: number }> {
  const engine = await engineStack(path.join(ROOT, "bench/programs", program), {
    [`bench-${program}:count`]: { value: String(n) },
    "edge:baseUrl": { value: edge.url },
    "edge:apiToken": { value: DEMO_TOKEN, secret: true },
    "edge:rateLimit": { value: "1000000" }, // speed phases: the client-side pacing is measured separately
  }, "bench", { PULUMI_OPS_QUIET: "1" });
  const out: Record<string, Phase> = {};
  let stateBytesPerResource = 0;
  const run = async (name: (typeof PHASES)[number], f: () => Promise<unknown>) => {
    const before = edge.log.length;
    const start = Date.now();
    const [, peak] = await withPeakRss(f);
    const ms = Date.now() - start;
    const requests: Record<string, number> = {};
    for (const e of edge.log.slice(before)) requests[e.method] = (requests[e.method] ?? 0) + 1;
    const total = Object.values(requests).reduce((a, b) => a + b, 0);
    out[name] = { ms, requests, perResource: +(total / n).toFixed(2), peakRssMb: Math.round(peak) };
    process.stdout.write(`  ${program} N=${n} ${name}: ${ms} ms, ${total} requests\n`);
  };
  try {
    await run("preview (new)", () => engine.stack.preview());
    await run("up (create)", () => engine.stack.up());
    stateBytesPerResource = Math.round(stateBytes(engine.scratch) / n);
    await run("up (no-op)", () => engine.stack.up());
    await run("preview (no-op)", () => engine.stack.preview());
    await run("refresh", () => engine.stack.refresh());
    await engine.stack.setConfig(`bench-${program}:generation`, { value: "1" });
    await run("up (update 10%)", () => engine.stack.up());
    await run("destroy", () => engine.stack.destroy());
  } finally {
    await engine.dispose();
  }
  return { phases: out, stateBytesPerResource };
}

/** Floor (b): the creates, reads, updates and deletes themselves, sent directly at the engine's parallelism. */
async function directApi(n: number, edge: EdgeEmulator): Promise<Record<string, number>> {
  const pool = new Pool(edge.url, { connections: PARALLEL });
  const zone = [...edge.zones.values()].find((z) => z.name === "example.com")!.id;
  const headers = { authorization: `Bearer ${DEMO_TOKEN}`, "content-type": "application/json" };
  const each = async (count: number, f: (i: number) => Promise<unknown>) => {
    const start = Date.now();
    let next = 0;
    await Promise.all(Array.from({ length: PARALLEL }, async () => {
      while (next < count) await f(next++);
    }));
    return Date.now() - start;
  };
  const ids: string[] = [];
  const req = async (method: "GET" | "POST" | "PATCH" | "DELETE", p: string, body?: object) => {
    const r = await pool.request({ method, path: `/client/v4${p}`, headers, body: body && JSON.stringify(body) });
    return (await r.body.json()) as { result: { id: string } };
  };
  const create = await each(n, async (i) => ids.push((await req("POST", `/zones/${zone}/dns_records`, { type: "A", name: `direct-${i}`, content: `198.51.${Math.floor(i / 250)}.${(i % 250) + 1}`, ttl: 300 })).result.id));
  const read = await each(n, (i) => req("GET", `/zones/${zone}/dns_records/${ids[i]}`));
  const update = await each(Math.ceil(n / 10), (i) => req("PATCH", `/zones/${zone}/dns_records/${ids[i * 10]}`, { ttl: 600 }));
  const destroy = await each(n, (i) => req("DELETE", `/zones/${zone}/dns_records/${ids[i]}`));
  await pool.close();
  return { "up (create)": create, refresh: read, "up (update 10%)": update, destroy };
}

/**
 * The allowance scaled down (RATE requests per WINDOW seconds, enforced by the emulator; the provider configured to
 * the same allowance): an up of N records must finish with no failed operation and no duplicate, in about the
 * time the allowance itself dictates (requests / rate).
 */
async function rateLimited(n: number, requests: number, windowSeconds: number) {
  const edge = await new EdgeEmulator({ rateLimit: { requests, perSeconds: windowSeconds } }).start();
  const engine = await engineStack(path.join(ROOT, "bench/programs/records"), {
    "bench-records:count": { value: String(n) },
    "edge:baseUrl": { value: edge.url },
    "edge:apiToken": { value: DEMO_TOKEN, secret: true },
    "edge:rateLimit": { value: String(requests) },
    "edge:rateLimitWindowSeconds": { value: String(windowSeconds) },
  }, "bench-rate", { PULUMI_OPS_QUIET: "1" });
  try {
    const start = Date.now();
    const up = await engine.stack.up();
    const ms = Date.now() - start;
    const records = [...edge.zones.values()].find((z) => z.name === "example.com")!.records;
    const names = new Set([...records.values()].map((r) => r.name));
    const throttled = edge.log.filter((e) => e.status === 429).length;
    const sent = edge.log.length;
    // Under a sliding window the k-th request (from 0) can go at floor(k / allowance) windows.
    const dictated = Math.floor((sent - 1) / requests) * windowSeconds * 1000;
    return { n, allowance: `${requests} per ${windowSeconds} s`, ms, dictatedMs: dictated, ratio: +(ms / Math.max(dictated, 1)).toFixed(2), requests: sent, throttled, created: up.summary.resourceChanges?.create ?? 0, records: records.size, duplicates: records.size - names.size };
  } finally {
    await engine.stack.destroy().catch(() => undefined);
    await engine.dispose();
    await edge.stop();
  }
}

async function main(): Promise<void> {
  const results: unknown[] = [];
  const rows: string[] = [];
  const fmt = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : "-");
  for (const n of SIZES) {
    const edge = await new EdgeEmulator({ rateLimit: { requests: 1e9, perSeconds: 300 } }).start();
    console.log(`N = ${n}`);
    const floorA = await phases("noop", n, edge);
    edge.log.splice(0);
    const dns = await phases("records", n, edge);
    const floorB = await directApi(n, edge);
    await edge.stop();
    results.push({ n, floorA, dns, floorB });
    for (const p of PHASES) {
      const d = dns.phases[p];
      const a = floorA.phases[p];
      const total = Object.values(d.requests).reduce((x, y) => x + y, 0);
      rows.push(`| ${n} | ${p} | ${d.ms} | ${a.ms} | ${fmt(d.ms / a.ms)} | ${floorB[p] ?? "-"} | ${total} | ${JSON.stringify(d.requests).replace(/[{}"]/g, "").replace(/,/g, " ")} | ${d.perResource} | ${d.peakRssMb} |`);
    }
    rows.push(`| ${n} | state per record | ${dns.stateBytesPerResource} B | ${floorA.stateBytesPerResource} B | | | | | | |`);
  }
  const rateN = Number(process.env.BENCH_RATE_N ?? SIZES[SIZES.length - 1]);
  console.log(`rate-limited up: N = ${rateN}, 100 requests per 10 s`);
  const rate = await rateLimited(rateN, 100, 10);
  results.push({ rateLimited: rate });
  rows.push("");
  rows.push(`Rate-limited up (${rate.allowance} enforced by the emulator): N = ${rate.n}: ${rate.ms} ms against ${rate.dictatedMs} ms dictated by the allowance (ratio ${rate.ratio}); ${rate.requests} requests, ${rate.throttled} answered 429 and retried, ${rate.created} created, ${rate.records} records, ${rate.duplicates} duplicates.`);
  const machine = `${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
  const table = [
    `Machine: ${machine}`,
    "",
    "| N | phase | ms | floor (a) ms | ratio to (a) | floor (b) ms | API requests | by method | requests per resource | provider peak RSS MB |",
    "|---|---|---|---|---|---|---|---|---|---|",
    ...rows,
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

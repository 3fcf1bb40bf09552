/**
 * The record set (`ops.edge.DnsRecordSet`) at N records (bench/programs/record-set), through the real engine:
 * preview (new), up (create), no-op preview and up, refresh, an update of 1%, destroy; each with its time, the
 * requests it sent, and the peak memory of the provider and of the program process; the state per record; beside
 * floor (b), the same API calls sent directly at the set's own parallelism (8). Under a profile of the emulator
 * (instant, or realistic: the real API's latency and allowance).
 */
import * as path from "node:path";
import { Pool } from "undici";
import { DEMO_TOKEN, EdgeEmulator, REALISTIC_LATENCY } from "../emulators";
import { engineStack } from "../scripts/engine";
import { countByMethod, withPeakRss } from "./harness";

const PARALLEL = 8;
export const SET_PHASES = ["preview (new)", "up (create)", "preview (no-op)", "up (no-op)", "refresh", "up (update 1%)", "destroy"] as const;

/** Floor (b): the creates, the listing, the 1% update and the deletes, sent directly, PARALLEL at a time. */
async function directCalls(n: number, edge: EdgeEmulator): Promise<Record<string, number>> {
  const pool = new Pool(edge.url, { connections: PARALLEL });
  const zone = [...edge.zones.values()].find((z) => z.name === "example.com")!.id;
  const headers = { authorization: `Bearer ${DEMO_TOKEN}`, "content-type": "application/json" };
  const req = async (method: "GET" | "POST" | "PATCH" | "DELETE", p: string, body?: object) =>
    (await (await pool.request({ method, path: `/client/v4${p}`, headers, body: body && JSON.stringify(body) })).body.json()) as { result: { id: string } };
  const each = async (count: number, f: (i: number) => Promise<unknown>) => {
    const start = Date.now();
    let next = 0;
    await Promise.all(Array.from({ length: PARALLEL }, async () => { while (next < count) await f(next++); }));
    return Date.now() - start;
  };
  const ids: string[] = [];
  const create = await each(n, async (i) => ids.push((await req("POST", `/zones/${zone}/dns_records`, { type: "A", name: `direct-${i}`, content: `198.51.${Math.floor(i / 250)}.${(i % 250) + 1}`, ttl: 300 })).result.id));
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
  const engine = await engineStack(path.join(programs, "record-set"), {
    "bench-record-set:count": { value: String(n) },
    "ops:edgeBaseUrl": { value: edge.url },
    "ops:edgeApiToken": { value: DEMO_TOKEN, secret: true },
    ...(profile === "instant" ? { "ops:edgeRateLimit": { value: "1000000" } } : {}),
  }, "bench", { PULUMI_OPS_QUIET: "1" });
  const phases: Record<string, { ms: number; requests: Record<string, number>; providerMb: number; programMb: number }> = {};
  let stateBytesPerRecord = 0;
  try {
    const steps: [string, () => Promise<unknown>][] = [
      ["preview (new)", () => engine.stack.preview()],
      ["up (create)", () => engine.stack.up()],
      ["preview (no-op)", () => engine.stack.preview()],
      ["up (no-op)", () => engine.stack.up()],
      ["refresh", () => engine.stack.refresh()],
      ["up (update 1%)", () => engine.stack.setConfig("bench-record-set:generation", { value: "1" }).then(() => engine.stack.up())],
      ["destroy", () => engine.stack.destroy()],
    ];
    for (const [name, f] of steps) {
      if (name === "destroy") stateBytesPerRecord = Math.round(JSON.stringify((await engine.stack.exportStack()).deployment).length / n);
      const before = edge.log.length;
      const start = Date.now();
      const [, mem] = await withPeakRss("bench-record-set", f);
      const ms = Date.now() - start;
      const requests = countByMethod(edge.log.slice(before));
      phases[name] = { ms, requests, providerMb: Math.round(mem.provider), programMb: Math.round(mem.program) };
      process.stdout.write(`  record set N=${n} (${profile}) ${name}: ${ms} ms, ${Object.values(requests).reduce((a, b) => a + b, 0)} requests\n`);
    }
  } finally {
    await engine.dispose();
    await edge.stop();
  }
  const direct = await new EdgeEmulator({ ...options, rateLimit: { requests: 1e9, perSeconds: 300 } }).start();
  const floorB = await directCalls(n, direct);
  await direct.stop();
  return { n, profile, phases, floorB, stateBytesPerRecord };
}

export function recordSetRows(r: Awaited<ReturnType<typeof benchRecordSet>>): string[] {
  const rows = SET_PHASES.map((p) => {
    const d = r.phases[p];
    const b = r.floorB[p];
    const total = Object.values(d.requests).reduce((x, y) => x + y, 0);
    const by = Object.entries(d.requests).map(([m, c]) => `${m}:${c}`).join(" ");
    return `| ${r.n} | ${p} | ${d.ms} | ${b ?? "-"} | ${b ? (d.ms / b).toFixed(2) : "-"} | ${total} | ${by} | ${d.providerMb} | ${d.programMb} |`;
  });
  return [...rows, `| ${r.n} | state per record | ${r.stateBytesPerRecord} B | | | | | | |`];
}

export const RECORD_SET_HEADER = [
  "| N | phase | ms | floor (b) ms | ratio to (b) | API requests | by method | provider peak RSS MB | program peak RSS MB |",
  "|---|---|---|---|---|---|---|---|---|",
];

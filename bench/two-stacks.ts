/**
 * Two stacks applied at the same time against one account, under the service's real allowance (1200 requests per
 * 5 minutes per credential, the edge emulator's default): each provider paces itself to its own share of the
 * allowance, so together they overrun it, are answered 429 and wait. Both must converge with no failed operation
 * and no duplicate; the time is set beside what the allowance alone dictates for all the requests they sent.
 */
import * as path from "node:path";
import { DEMO_TOKEN, EdgeEmulator } from "../emulators";
import { engineStack } from "../scripts/engine";
import { allowanceAloneMs } from "./rate-model";

const ALLOWANCE = { requests: 1200, windowSeconds: 300 };

export async function twoStacks(programs: string, n: number) {
  const edge = await new EdgeEmulator().start(); // the spec's allowance, not the bench's unthrottled one
  const stacks = ["blue", "green"];
  const engines = await Promise.all(
    stacks.map((s) =>
      engineStack(
        path.join(programs, "records"),
        {
          "bench-records:count": { value: String(n) },
          "bench-records:prefix": { value: `${s}-` },
          "ops:edgeBaseUrl": { value: edge.url },
          "ops:edgeApiToken": { value: DEMO_TOKEN, secret: true },
        },
        `bench-${s}`,
        { PULUMI_OPS_QUIET: "1" },
      ),
    ),
  );
  try {
    const start = Date.now();
    const ups = await Promise.allSettled(engines.map((e) => e.stack.up()));
    const ms = Date.now() - start;
    const records = [...[...edge.zones.values()].find((z) => z.name === "example.com")!.records.values()];
    const perStack = stacks.map((s) => {
      const names = records.filter((r) => r.name.startsWith(`${s}-`)).map((r) => r.name);
      return { stack: s, records: names.length, duplicates: names.length - new Set(names).size };
    });
    const sent = edge.log.length;
    return {
      n,
      stacks: stacks.length,
      allowance: `${ALLOWANCE.requests} per ${ALLOWANCE.windowSeconds} s`,
      ms,
      dictatedMs: allowanceAloneMs(sent, ALLOWANCE.requests, ALLOWANCE.windowSeconds * 1000),
      requests: sent,
      throttled: edge.log.filter((e) => e.status === 429).length,
      failed: ups.filter((u) => u.status === "rejected").map((u) => String((u as PromiseRejectedResult).reason).slice(0, 300)),
      perStack,
    };
  } finally {
    // No destroy: under the same allowance it would take as long again; the emulator is thrown away.
    await Promise.all(engines.map((e) => e.dispose()));
    await edge.stop();
  }
}

export function describeTwoStacks(r: Awaited<ReturnType<typeof twoStacks>>): string {
  const each = r.perStack.map((s) => `${s.stack}: ${s.records} records, ${s.duplicates} duplicates`).join("; ");
  return (
    `Two stacks at once, one credential, the real allowance (${r.allowance}): N = ${r.n} each: ${r.ms} ms against ${r.dictatedMs} ms dictated by the allowance alone` +
    ` for the ${r.requests} requests they sent (${r.throttled} answered 429 and retried); ${r.failed.length} failed updates; ${each}.`
  );
}

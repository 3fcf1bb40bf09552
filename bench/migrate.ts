/**
 * Moving in (issue 49): a zone of N records (default 10,000) made as the service's Terraform provider makes them, its
 * v5 state migrated by the packed package's `pulumi-ops migrate` (as `npx pulumi-ops migrate` runs it), and the
 * written program's first preview and up through the real engine — one DnsRecordSet adopting every record — then a
 * no-op preview. Each phase's time and requests, by method: the first up must send no write.
 */
import { execFile } from "node:child_process";
import { cpSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { Pool } from "undici";
import { DEMO_TOKEN, EdgeEmulator } from "../emulators";
import { engineStack } from "../scripts/engine";
import { countByMethod } from "./harness";

const run = promisify(execFile); // async: the emulator answers from this process

export interface MigrateMeasured {
  n: number;
  phases: { phase: string; ms: number; requests: Record<string, number> }[];
}

const record = (i: number) => ({
  type: "A",
  name: `host-${i}.example.com`,
  content: `203.0.${Math.floor(i / 250) % 250}.${(i % 250) + 1}`,
  ttl: 300,
});

export async function benchMigrate(programs: string, n: number): Promise<MigrateMeasured> {
  const edge = await new EdgeEmulator({ rateLimit: { requests: 1e9, perSeconds: 300 } }).start();
  const zoneId = [...edge.zones.values()].find((z) => z.name === "example.com")!.id;
  // The zone as Terraform made it: one create a record (8 at a time), and its state.
  const pool = new Pool(edge.url, { connections: 8 });
  const ids: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < n) {
        const i = next++;
        const res = await pool.request({
          method: "POST",
          path: `/client/v4/zones/${zoneId}/dns_records`,
          headers: { authorization: `Bearer ${DEMO_TOKEN}`, "content-type": "application/json" },
          body: JSON.stringify(record(i)),
        });
        ids[i] = ((await res.body.json()) as { result: { id: string } }).result.id;
      }
    }),
  );
  await pool.close();
  const work = path.join(programs, "migrated");
  mkdirSync(work, { recursive: true });
  const state = {
    version: 4,
    terraform_version: "1.14.2",
    serial: 1,
    lineage: "bench",
    outputs: {},
    resources: [
      {
        mode: "managed",
        type: "cloudflare_dns_record",
        name: "hosts",
        provider: 'provider["registry.terraform.io/cloudflare/cloudflare"]',
        instances: ids.map((id, i) => ({
          index_key: `host-${i}`,
          schema_version: 500,
          attributes: {
            id,
            zone_id: zoneId,
            ...record(i),
            proxied: false,
            settings: { ipv4_only: false, ipv6_only: false, flatten_cname: false },
          },
        })),
      },
    ],
  };
  writeFileSync(path.join(work, "terraform.tfstate"), JSON.stringify(state));
  const phases: MigrateMeasured["phases"] = [];
  const measure = async (phase: string, f: () => Promise<unknown>) => {
    const from = edge.log.length;
    const start = Date.now();
    await f();
    phases.push({ phase, ms: Date.now() - start, requests: countByMethod(edge.log.slice(from).filter((e) => !e.path.startsWith("/__"))) });
  };
  const program = path.join(work, "program");
  const cli = path.join(programs, "record-set/node_modules/pulumi-ops/dist/provider/cli/main.js");
  await measure("pulumi-ops migrate", () =>
    run(process.execPath, [cli, "migrate", path.join(work, "terraform.tfstate"), "--out", program, "--no-protect"], { maxBuffer: 1 << 26 }),
  );
  // The package as the other bench programs have it (npm pack, unpacked).
  mkdirSync(path.join(program, "node_modules"), { recursive: true });
  symlinkSync(path.join(programs, "record-set/node_modules/pulumi-ops"), path.join(program, "node_modules/pulumi-ops"));
  cpSync(path.join(programs, "record-set/package.json"), path.join(program, "package.json"));
  const engine = await engineStack(
    program,
    {
      "ops:edgeBaseUrl": { value: edge.url },
      "ops:edgeApiToken": { value: DEMO_TOKEN, secret: true },
      "ops:edgeRateLimit": { value: "1000000" },
    },
    "bench",
    { PULUMI_OPS_QUIET: "1" },
  );
  try {
    await measure("preview (takeover)", () => engine.stack.preview());
    await measure("up (takeover)", () => engine.stack.up());
    await measure("preview (no-op)", () => engine.stack.preview({ expectNoChanges: true }));
  } finally {
    await engine.dispose();
    await edge.stop();
  }
  return { n, phases };
}

export const MIGRATE_HEADER = ["| N | phase | time | requests | writes |", "|---|---|---|---|---|"];

export function migrateRows(m: MigrateMeasured): string[] {
  return m.phases.map((p) => {
    const writes = Object.entries(p.requests)
      .filter(([k]) => k !== "GET")
      .reduce((a, [, v]) => a + v, 0);
    return `| ${m.n} | ${p.phase} | ${p.ms} ms | ${
      Object.entries(p.requests)
        .map(([k, v]) => `${v} ${k}`)
        .join(", ") || "none"
    } | ${writes} |`;
  });
}

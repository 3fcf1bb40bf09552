/**
 * The DNS-as-code peer: octoDNS 1.22 with octodns-cloudflare 1.2 (scripts/install-octodns.sh, from PyPI), its
 * provider's `api_url` pointed at an edge emulator of its own under the same profile, managing the same records as
 * the record-set bench's program (bench/programs/record-set): N A records `host-<i>` in example.com. Its phases,
 * run interleaved with the set's (record-set.ts): plan (`octodns-sync`, a dry run), apply (`--doit`), a no-op plan,
 * the 1% change applied, delete-all applied. Settings: its defaults (retry_period 300, as a user has it), except
 * `records_per_page: 5000` (the service's largest page; the default 100 would cost it 100 requests per plan of
 * 10,000 records) and `--force` (its safety thresholds refuse changing more than 30% of a zone).
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { DEMO_TOKEN, EdgeEmulator, type EdgeEmulatorOptions } from "../emulators";
import { ROOT } from "../scripts/engine";
import { countByMethod, withPeakRssOf } from "./harness";

const run = promisify(execFile);
const SYNC = path.join(ROOT, ".tools/octodns/bin/octodns-sync");

export interface PeerMeasured {
  ms: number;
  /** Stopped at BENCH_PEER_TIMEOUT_S (default 900 s): `ms` is the time it had taken when stopped. */
  stopped?: boolean;
  requests: Record<string, number>;
  /** Peak resident memory of the octodns-sync process, MB. */
  mb: number;
}

/** The same records as bench/programs/record-set at a generation (the 1% change bumps every hundredth). */
function zoneYaml(n: number, generation: number): string {
  const lines: string[] = ["---"];
  for (let i = 0; i < n; i++) {
    const bumped = i % 100 === 0 ? generation : 0;
    lines.push(`host-${i}:`, "  type: A", "  ttl: 300", `  value: 203.${bumped}.${Math.floor(i / 250) % 250}.${(i % 250) + 1}`);
  }
  return `${lines.join("\n")}\n`;
}

export class OctodnsPeer {
  private edge?: EdgeEmulator;
  private dir = mkdtempSync(path.join(tmpdir(), "pulumi-ops-octodns-"));

  constructor(
    private readonly n: number,
    private readonly options: EdgeEmulatorOptions,
  ) {}

  async start(): Promise<void> {
    this.edge = await new EdgeEmulator(this.options).start();
    mkdirSync(path.join(this.dir, "zones"));
    writeFileSync(
      path.join(this.dir, "config.yaml"),
      [
        "providers:",
        "  config:",
        "    class: octodns.provider.yaml.YamlProvider",
        `    directory: ${path.join(this.dir, "zones")}`,
        "    enforce_order: false",
        "  edge:",
        "    class: octodns_cloudflare.CloudflareProvider",
        "    token: env/EDGE_API_TOKEN",
        `    api_url: ${this.edge.url}/client/v4`,
        "    records_per_page: 5000",
        "zones:",
        "  example.com.:",
        "    sources: [config]",
        "    targets: [edge]",
        "",
      ].join("\n"),
    );
  }

  /** Writes the zone file the next command reads: the N records at a generation, or none (delete-all). */
  zone(generation: number | "empty"): void {
    writeFileSync(path.join(this.dir, "zones", "example.com.yaml"), generation === "empty" ? "--- {}\n" : zoneYaml(this.n, generation));
  }

  /** One octodns-sync: a plan, or with `apply` an apply; its time, requests and peak memory. */
  async sync(apply: boolean): Promise<PeerMeasured> {
    const edge = this.edge!;
    const before = edge.log.length;
    const start = Date.now();
    let stopped = false;
    const [, mb] = await withPeakRssOf("octodns-sync", async () => {
      try {
        await run(SYNC, ["--config-file", path.join(this.dir, "config.yaml"), ...(apply ? ["--doit", "--force"] : [])], {
          env: { ...process.env, EDGE_API_TOKEN: DEMO_TOKEN },
          maxBuffer: 256 * 1024 * 1024,
          timeout: Number(process.env.BENCH_PEER_TIMEOUT_S ?? 900) * 1000,
        });
      } catch (e) {
        if (!(e as { killed?: boolean }).killed) throw e;
        stopped = true;
      }
    });
    return { ms: Date.now() - start, requests: countByMethod(edge.log.slice(before)), mb: Math.round(mb), ...(stopped ? { stopped } : {}) };
  }

  /**
   * Runs `f` with the emulator answering at once and with no allowance: octoDNS's creates of a large zone under the
   * real allowance take 42 minutes a 10,000 (the bench seeds its zone so, and says so in the table).
   */
  async seeded<T>(f: () => Promise<T>): Promise<T> {
    const edge = this.edge!;
    const { rateLimit } = edge.options;
    const latency = edge.latency;
    edge.options.rateLimit = { requests: 1e9, perSeconds: 300 };
    edge.latency = undefined;
    try {
      return await f();
    } finally {
      edge.options.rateLimit = rateLimit;
      edge.latency = latency;
      edge.forgetAllowance(); // the seeding's requests do not count against the phases after it
    }
  }

  /** The records octoDNS made, as the service holds them. */
  records(): number {
    return [...this.edge!.zones.values()].find((z) => z.name === "example.com")!.records.size;
  }

  async stop(): Promise<void> {
    await this.edge?.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

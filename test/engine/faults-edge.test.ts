/**
 * Faults through the real engine, on the edge service: a program of N DNS records (bench/programs/records) is
 * brought up while the emulator throttles, fails, loses answers, hangs, restarts or revokes the token, and while
 * the CLI is interrupted (SIGINT) or killed (SIGKILL). Every scenario ends the same way: a no-op up, and exactly
 * the program's records in the emulator, each once, each in state. docs/reliability.md lists them. The stack's
 * file:// backend URL carries `?metadata=skip`, as that document advises; the last scenario is why.
 */
import { spawn } from "node:child_process";
import { copyFileSync, existsSync, readdirSync, statSync, truncateSync, unlinkSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEMO_TOKEN, EdgeEmulator } from "../../emulators";
import { engineStack, ROOT } from "../../scripts/engine";
import { withoutEnvFallback, type EngineStack } from "../helpers/engine";
import { injectedFaults, printTally, tally } from "../helpers/reliability";

const N = 12;
const counted = tally();
let edge: EdgeEmulator;
let engine: EngineStack;

const zone = () => [...edge.zones.values()].find((z) => z.name === "example.com")!;
const records = () => [...zone().records.values()];
const wanted = Array.from({ length: N }, (_, i) => `host-${i}.example.com`).sort();

/** The ids of the DNS records a stack's state holds. */
async function stateIds(of: EngineStack = engine): Promise<string[]> {
  const state = await of.stack.exportStack();
  return state.deployment.resources
    .filter((r: { type: string }) => r.type.endsWith("edge:DnsRecord"))
    .map((r: { id: string }) => r.id)
    .sort();
}

/** The end of every scenario: a no-op up, and exactly the program's records, once each, all of them in state. */
async function expectConverged(): Promise<void> {
  await engine.stack.up({ expectNoChanges: true });
  const names = records()
    .map((r) => r.name)
    .sort();
  counted.duplicates += names.length - new Set(names).size;
  expect(names).toEqual(wanted);
  expect(await stateIds()).toEqual(
    records()
      .map((r) => r.id)
      .sort(),
  );
  counted.converged++;
}

/** Calls `f` once, when the `n`-th create reaches the emulator (before it is answered). */
function onCreate(n: number, f: () => void): void {
  let seen = 0;
  const stop = edge.onRequest((e) => {
    if (e.method === "POST" && e.path.endsWith("/dns_records") && ++seen === n) {
      stop();
      f();
    }
  });
}

beforeAll(async () => {
  withoutEnvFallback();
  edge = await new EdgeEmulator().start();
  engine = await engineStack(
    path.join(ROOT, "bench/programs/records"),
    {
      "bench-records:count": { value: String(N) },
      "ops:edgeBaseUrl": { value: edge.url },
      "ops:edgeApiToken": { value: DEMO_TOKEN, secret: true },
    },
    "faults",
    { PULUMI_OPS_QUIET: "0" },
    "?metadata=skip",
  ); // the file:// setting docs/reliability.md advises for CI
}, 300_000);

/** Where the file:// backend keeps a stack's checkpoint. */
const checkpointOf = (e: EngineStack, stack: string) => path.join(e.scratch, "state/.pulumi/stacks/bench-records", `${stack}.json`);

beforeEach(async () => {
  // Each scenario starts from nothing: an empty stack and an empty zone.
  await engine.stack.destroy();
  expect(records()).toEqual([]);
  edge.clearFaults();
  edge.log.splice(0);
}, 120_000);

afterAll(async () => {
  await engine?.stack.destroy().catch(() => undefined);
  expect(edge ? records() : []).toEqual([]);
  await engine?.dispose();
  await edge?.stop();
  printTally("edge faults through the engine", counted);
});

describe("edge faults through the Pulumi engine", { timeout: 300_000 }, () => {
  it("429 with Retry-After, 503, 500 on creates and 502 on reads waited out, then answers lost after the service made the record each found by its key and kept: the run succeeds, none duplicated", async () => {
    // One run for both: the status faults answer the first creates, the lost answers three creates after them.
    edge.inject({ match: { method: "POST" }, count: 3, kind: "status", status: 429, retryAfter: 1 });
    edge.inject({ match: { method: "POST" }, count: 3, kind: "status", status: 503, retryAfter: 1 });
    edge.inject({ match: { method: "POST" }, count: 2, kind: "status", status: 500 });
    edge.inject({ match: { method: "GET" }, count: 2, kind: "status", status: 502 });
    edge.inject({ match: { method: "POST", path: "dns_records$" }, count: 3, kind: "drop-after" });
    let printed = "";
    await engine.stack.up({ onOutput: (o) => (printed += o) });
    expect(printed).toMatch(/answered 429; retry/);
    expect(printed).toMatch(/the service has no such object; sending it again/);
    // (The CLI prints each message twice: as it happens and in the closing diagnostics.)
    expect(new Set(printed.match(/the answer to creating A record host-\d+\.example\.com was lost; the service had made it/g)).size).toBe(
      3,
    );
    counted.faults += injectedFaults(edge);
    expect(injectedFaults(edge)).toBe(13);
    await expectConverged();
  });

  it("requests that hang past the timeout: a clear error naming the setting; the next up converges", async () => {
    await engine.stack.setConfig("ops:edgeTimeoutSeconds", { value: "1" });
    edge.inject({ match: { method: "POST" }, count: 1000, kind: "hang", ms: 5000 });
    const failed = await engine.stack.up().catch((e: Error) => e);
    expect(String(failed)).toMatch(/no answer within 1 s .*raise ops:edgeTimeoutSeconds/);
    counted.faults += injectedFaults(edge);
    expect(records()).toEqual([]); // a hung request never reached the service's logic
    edge.clearFaults();
    await engine.stack.removeConfig("ops:edgeTimeoutSeconds");
    await engine.stack.up();
    await expectConverged();
  });

  it("the emulator restarted mid-run (state kept): connections refused for 2 s are retried; the run succeeds", async () => {
    let restarted: Promise<void> | undefined;
    onCreate(5, () => (restarted = edge.restart(2000)));
    await engine.stack.up();
    await restarted;
    counted.faults++;
    await expectConverged();
  });

  it("the token revoked mid-run (10000): the run stops with the remedy, state matches the service, then converges", async () => {
    const tokens = edge.options.tokens;
    const permissions = tokens[DEMO_TOKEN];
    onCreate(5, () => delete tokens[DEMO_TOKEN]);
    const failed = await engine.stack.up().catch((e: Error) => e);
    expect(String(failed)).toMatch(
      /code 10000.*the token is not valid.*Set a valid API token: pulumi config set --secret ops:edgeApiToken/,
    );
    expect(String(failed)).not.toContain(DEMO_TOKEN);
    counted.faults++;
    // Consistent: every record the service made is in state, and nothing in state is missing from the service.
    expect(await stateIds()).toEqual(
      records()
        .map((r) => r.id)
        .sort(),
    );
    expect(records().length).toBeLessThan(N);
    tokens[DEMO_TOKEN] = permissions; // a new token in config, in production
    await engine.stack.up();
    await expectConverged();
  });

  it("the CLI interrupted with SIGINT mid-up: it finishes what is in flight and stops; the next up converges", async () => {
    // Two creates at a time, each answered after 300 ms: the interrupt reaches the engine while most are still to
    // be sent, however fast the machine (unthrottled, all 12 could be in flight before the signal lands).
    edge.inject({ match: { method: "POST", path: "dns_records$" }, count: N, kind: "slow", ms: 300 });
    const abort = new AbortController();
    onCreate(5, () => abort.abort());
    const failed = await engine.stack.up({ signal: abort.signal, parallel: 2 }).catch((e: Error) => e);
    expect(failed).toBeInstanceOf(Error);
    counted.faults++;
    edge.clearFaults();
    const state = await engine.stack.exportStack();
    expect(state.deployment.pending_operations ?? []).toEqual([]); // nothing left in doubt
    expect(records().length).toBeLessThan(N);
    await engine.stack.up();
    await expectConverged();
  });

  it("the CLI killed with SIGKILL mid-up: after refresh --clear-pending-creates and an up with ops:edgeAdoptExisting, it converges", async () => {
    const cli = spawn(engine.cli.command, ["up", "--yes", "--skip-preview", "--non-interactive", "--stack", "faults"], {
      cwd: engine.cli.cwd,
      env: engine.cli.env,
      detached: true,
      stdio: "ignore",
    });
    const killed = new Promise<void>((resolve) => cli.on("exit", () => resolve()));
    // The whole process group, as a CI runner cancelling the job does: the CLI, language host and provider.
    onCreate(5, () => process.kill(-cli.pid!, "SIGKILL"));
    await killed;
    counted.faults++;
    await new Promise((r) => setTimeout(r, 500));
    const made = records().length;
    expect(made).toBeGreaterThan(0);
    // No metadata sidecar, so the kill could not have left one empty (see the next scenario).
    expect(existsSync(`${checkpointOf(engine, "faults")}.attrs`)).toBe(false);
    const state = await engine.stack.exportStack();
    const pending = (state.deployment.pending_operations ?? []) as { type: string }[];
    expect(pending.length).toBeGreaterThan(0); // the engine knows what was in flight
    expect(pending.every((p) => p.type === "creating")).toBe(true);

    // The documented recovery (docs/reliability.md): the killed CLI still holds the stack's lock.
    await expect(engine.stack.up()).rejects.toThrow(/currently locked/);
    await engine.stack.cancel();
    await engine.stack.refresh({ clearPendingCreates: true });
    await engine.stack.setConfig("ops:edgeAdoptExisting", { value: "true" });
    let printed = "";
    await engine.stack.up({ onOutput: (o) => (printed += o) });
    await engine.stack.removeConfig("ops:edgeAdoptExisting");
    expect(printed).toMatch(/adopting the existing A record/);
    await expectConverged();
  });

  it("a kill inside the default file:// backend's sidecar write: preview and stack export fail with EOF until the empty sidecar is removed; state intact", async () => {
    // With the default file:// URL the backend writes each checkpoint atomically (temporary file, then rename) but
    // its metadata sidecar `<stack>.json.attrs` by truncating and rewriting it in place. In 5 of about 70 runs of
    // the SIGKILL scenario on the default URL the kill landed between the two: the sidecar was left empty (0 bytes),
    // beside an intact checkpoint and a stranded `<stack>.json.<hex>.tmp`. That outcome is reproduced here exactly,
    // so the documented repair is tested every run, not by chance.
    const plain = await engineStack(
      path.join(ROOT, "bench/programs/records"),
      {
        "bench-records:count": { value: "2" },
        "ops:edgeBaseUrl": { value: edge.url },
        "ops:edgeApiToken": { value: DEMO_TOKEN, secret: true },
      },
      "sidecar",
    );
    try {
      await plain.stack.up();
      const ids = await stateIds(plain);
      const checkpoint = checkpointOf(plain, "sidecar");
      expect(statSync(`${checkpoint}.attrs`).size).toBeGreaterThan(0);
      truncateSync(`${checkpoint}.attrs`, 0);
      copyFileSync(checkpoint, `${checkpoint}.18eaaf9feaaf6691.tmp`); // the next checkpoint, never renamed into place
      await expect(plain.stack.preview()).rejects.toThrow(/failed to load checkpoint: EOF/);
      await expect(plain.stack.exportStack()).rejects.toThrow(/failed to load checkpoint: EOF/);
      counted.faults++;
      // The repair in docs/reliability.md: remove the empty sidecar (and any stranded temporary checkpoint).
      const dir = path.dirname(checkpoint);
      for (const f of readdirSync(dir))
        if (/^sidecar\.json\.[0-9a-f]+\.tmp$/.test(f) || (f === "sidecar.json.attrs" && statSync(path.join(dir, f)).size === 0))
          unlinkSync(path.join(dir, f));
      expect(readdirSync(dir).filter((f) => f.endsWith(".tmp") || f.endsWith(".attrs"))).toEqual(["sidecar.json.bak.attrs"]);
      await plain.stack.up({ expectNoChanges: true }); // the checkpoint itself was never damaged
      expect(await stateIds(plain)).toEqual(ids);
      expect(ids).toHaveLength(2);
      await plain.stack.destroy();
      counted.converged++;
    } finally {
      await plain.dispose();
    }
  });
});

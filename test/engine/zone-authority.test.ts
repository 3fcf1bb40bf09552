/**
 * A zone's authority through the real engine (issue 49; test/programs/zone-authority: one DnsRecordSet with the apex
 * and count - 1 hosts, and edge.getUnmanagedRecords over it). A zone of 50 declared records, 7 made by hand, 3 the
 * service keeps (Email Routing's) and 2 a Worker's custom domains made: the function lists the 7 and the 5 apart and
 * the preview counts them; `authoritative: true` previews exactly the 7 deletes, listed, and up on that saved plan
 * (`preview --save-plan`, `up --plan`) removes those 7 and nothing else; a program that would delete 40% of a 100-record zone fails at preview with nothing sent, and goes
 * with allowLargeChange.
 */
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_TOKEN, EdgeEmulator } from "../../emulators";
import { engineStack, ROOT } from "../../scripts/engine";
import { withoutEnvFallback, type EngineStack } from "../helpers/engine";

let edge: EdgeEmulator;
let engine: EngineStack;
const zone = () => [...edge.zones.values()].find((z) => z.name === "example.com")!;
const all = () => [...zone().records.values()];
const writes = () =>
  edge.log
    .filter((e) => e.method !== "GET" && !e.path.startsWith("/__"))
    .flatMap((e) => e.changes ?? [e.method])
    .sort();
const HAND_MADE = ["old-1", "old-2", "old-3", "old-4", "old-5", "host-3", "@"];

async function byHand(type: string, name: string, content: string, meta: Record<string, unknown> = {}, priority?: number): Promise<void> {
  const res = await fetch(`${edge.url}/client/v4/zones/${zone().id}/dns_records`, {
    method: "POST",
    headers: { authorization: `Bearer ${DEMO_TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify({ type, name, content, ttl: 300, priority }),
  });
  const { result, errors } = (await res.json()) as { result: { id: string } | null; errors: unknown };
  if (!result) throw new Error(`${type} ${name}: ${JSON.stringify(errors)}`);
  Object.assign(zone().records.get(result.id)!.meta, meta);
}

beforeAll(async () => {
  withoutEnvFallback();
  edge = await new EdgeEmulator().start();
  engine = await engineStack(
    path.join(ROOT, "test/programs/zone-authority"),
    {
      "ops:edgeApiToken": { value: DEMO_TOKEN, secret: true },
      "ops:edgeBaseUrl": { value: edge.url },
      "zone-authority:count": { value: "50" },
    },
    "zone-authority",
    { PULUMI_OPS_QUIET: "0" },
  );
}, 300_000);

afterAll(async () => {
  await engine?.dispose();
  await edge?.stop();
});

describe("a zone's records beyond the program, through the engine", { timeout: 300_000 }, () => {
  it("1. the 50 declared records made; 7 by hand, 3 the service's and 2 Worker-made beside them: the function lists the 7 and the 5 apart, and the preview counts them", async () => {
    await engine.stack.up();
    expect(all()).toHaveLength(50);
    for (const name of HAND_MADE) await byHand("TXT", name === "@" ? "example.com" : `${name}.example.com`, `"made by hand ${name}"`);
    await byHand("MX", "example.com", "route1.mx.cloudflare.net", { email_routing: true, read_only: true }, 13);
    await byHand("TXT", "example.com", '"v=spf1 include:_spf.mx.cloudflare.net ~all"', { email_routing: true, read_only: true });
    await byHand("TXT", "cf2024-1._domainkey.example.com", '"v=DKIM1; h=sha256; k=rsa; p=MIIB"', { read_only: true });
    edge.addWorkerRecord(zone().id, "api.example.com");
    edge.addWorkerRecord(zone().id, "shop.example.com");
    expect(all()).toHaveLength(62);
    edge.log.length = 0;
    const preview = await engine.stack.preview();
    expect(preview.stdout).toMatch(
      /zone example\.com holds 7 records that no resource of this stack checked so far in this run holds \(and 5 the service keeps itself\)/,
    );
    // The set did not change, so its ids are known at preview, and so is the list built from them: the PR shows it.
    const shown = (await engine.stack.preview({ diff: true })).stdout;
    expect(shown).toMatch(/unmanaged\s*:[\s\S]*TXT old-1 \\?"made by hand old-1/);
    expect(shown).not.toMatch(/unmanaged\s*:\s*output</);
    const up = await engine.stack.up();
    expect(up.outputs.unmanaged.value).toEqual(HAND_MADE.map((n) => `TXT ${n} "made by hand ${n}"`).sort());
    expect(up.outputs.unmanagedByDefault.value, "without managedIds: the program's own records are not listed").toEqual(
      up.outputs.unmanaged.value,
    );
    expect(up.outputs.apart.value).toEqual([
      "read-only MX @",
      "read-only TXT @",
      "read-only TXT cf2024-1._domainkey",
      "worker AAAA api",
      "worker AAAA shop",
    ]);
    expect(writes()).toEqual([]);
  });

  it("2. authoritative: true previews exactly the 7 deletes, each listed, with nothing sent; up on that saved plan removes those 7 and nothing else", async () => {
    await engine.stack.setConfig("zone-authority:authoritative", { value: "true" });
    edge.log.length = 0;
    // As CI does it: the pull request's preview saves the plan, the merge applies exactly that plan.
    const plan = path.join(engine.scratch, "authoritative-plan.json");
    const preview = await engine.stack.preview({ plan });
    expect(preview.changeSummary.update).toBe(1);
    // The warning's lines come one event each, and the engine may print another resource's line between them.
    const header = preview.stdout.indexOf("deletes 7 records it does not declare:");
    expect(header, preview.stdout).toBeGreaterThan(-1);
    const listed = new Set([...preview.stdout.slice(header).matchAll(/- TXT (\S+) "made by hand \1"/g)].map((m) => m[1]));
    expect([...listed].sort()).toEqual([...HAND_MADE].sort());
    expect(writes()).toEqual([]);
    const before = new Set(all().map((r) => r.id));
    let printed = "";
    const up = await engine.stack.up({ plan, onOutput: (o) => (printed += o) });
    expect(printed).not.toMatch(/violates plan/);
    expect(writes()).toEqual(Array(7).fill("DELETE"));
    const left = all();
    expect(left).toHaveLength(55);
    expect(left.every((r) => before.has(r.id))).toBe(true);
    expect(left.some((r) => r.content.includes("made by hand"))).toBe(false);
    expect(up.outputs.unmanaged.value).toEqual([]);
    edge.log.length = 0;
    await engine.stack.preview({ expectNoChanges: true });
    expect(writes()).toEqual([]);
  });

  it("3. a program that would delete 40% of a 100-record zone fails at preview with nothing sent, and goes with allowLargeChange", async () => {
    await engine.stack.setAllConfig({ "zone-authority:authoritative": { value: "false" }, "zone-authority:count": { value: "95" } });
    await engine.stack.up();
    expect(all()).toHaveLength(100); // 95 declared and the service's 5
    await engine.stack.setConfig("zone-authority:count", { value: "55" });
    edge.log.length = 0;
    const failed = await engine.stack.preview().catch((e: Error) => e);
    expect(String(failed)).toMatch(
      /this change deletes 40 of the zone's 100 records \(40\.0%\), over maxChangePercent 30%; nothing was sent\. If the change is meant, set `allowLargeChange: true`/,
    );
    expect(writes()).toEqual([]);
    await expect(engine.stack.up()).rejects.toThrow(/over maxChangePercent 30%/); // up without a preview is held too
    expect(writes()).toEqual([]);
    expect(all()).toHaveLength(100);
    await engine.stack.setConfig("zone-authority:allowLargeChange", { value: "true" });
    await engine.stack.preview();
    await engine.stack.up();
    expect(writes()).toEqual(Array(40).fill("DELETE"));
    expect(all()).toHaveLength(60);
  });
});

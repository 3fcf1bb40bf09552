/**
 * DnsRecordSet through the real engine (test/programs/record-set: a set of records beside a single DnsRecord in
 * one zone): preview without writes, up, a no-op up with no write, an update that sends only what changed, a
 * partial failure whose state says exactly which records exist and which the next up finishes with no duplicate,
 * drift per record revealed by refresh, a set read from a zone file (edge:parseZoneFile), and destroy removing
 * exactly what the stack made.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_TOKEN, EdgeEmulator } from "../../emulators";
import { engineStack, ROOT } from "../../scripts/engine";
import { withoutEnvFallback, type EngineStack } from "../helpers/engine";

let edge: EdgeEmulator;
let engine: EngineStack;
const zone = () => [...edge.zones.values()].find((z) => z.name === "example.com")!;
const names = () => [...zone().records.values()].map((r) => r.name.replace(".example.com", "")).sort();
const writes = () => edge.log.filter((e) => e.method !== "GET" && !e.path.startsWith("/__")).map((e) => e.method).sort();
const setState = async () => (await engine.stack.exportStack()).deployment.resources.find((r: { type: string }) => r.type === "pulumi-nodejs:dynamic/edge:DnsRecordSet");

beforeAll(async () => {
  withoutEnvFallback();
  edge = await new EdgeEmulator().start();
  engine = await engineStack(path.join(ROOT, "test/programs/record-set"), {
    "ops:edgeApiToken": { value: DEMO_TOKEN, secret: true },
    "ops:edgeBaseUrl": { value: edge.url },
    "record-set:count": { value: "20" },
  }, "record-set", { PULUMI_OPS_QUIET: "1" });
}, 300_000);

afterAll(async () => {
  await engine?.dispose();
  await edge?.stop();
});

describe("a DnsRecordSet through the engine", { timeout: 300_000, sequential: true }, () => {
  it("1. preview sends no write; up makes the 20 records and the single one; a second up writes nothing", async () => {
    const preview = await engine.stack.preview();
    expect(preview.changeSummary.create).toBe(3); // the set, the single record, the stack
    expect(writes()).toEqual([]);
    const up = await engine.stack.up();
    expect(up.outputs.recordCount.value).toBe(20);
    expect(names()).toHaveLength(21);
    edge.log.length = 0;
    await engine.stack.up({ expectNoChanges: true });
    expect(writes()).toEqual([]);
  });

  it("2. a change of 10% of the records, one removed and one added sends exactly those", async () => {
    await engine.stack.setAllConfig({ "record-set:ttl": { value: "600" }, "record-set:skip": { value: "5" }, "record-set:count": { value: "21" } });
    const preview = await engine.stack.preview({ diff: true });
    expect(preview.changeSummary.update).toBe(1);
    expect(preview.stdout).toMatch(/host-20/);
    // The CLI's --diff prints every record of the changed map; the pull request's comment shows only the changed
    // ones (and its count of the rest).
    const file = path.join(engine.scratch, "preview.txt");
    writeFileSync(file, preview.stdout);
    const comment = execFileSync(process.execPath, [path.join(ROOT, "examples/ci/report.mjs"), "--kind", "preview", "--stack", "record-set", "--status", "0", "--output", file], { encoding: "utf8" });
    expect(preview.stdout).toMatch(/^\s+host-1 +: \{$/m);
    expect(comment).not.toMatch(/host-1 /);
    for (const changed of [/^~ +host-10 *: \{$/m, /^~ +ttl +: 300 => 600$/m, /^- +host-5 *: \{$/m, /^\+ +host-20 *: \{$/m]) expect(comment).toMatch(changed);
    expect(comment).toMatch(/\.\.\. \d+ unchanged entries not shown/);
    expect(comment.split("\n").length).toBeLessThan(preview.stdout.split("\n").length / 2);
    edge.log.length = 0;
    await engine.stack.up();
    expect(writes()).toEqual(["DELETE", "PATCH", "PATCH", "POST"]);
    expect(names()).not.toContain("host-5");
    expect(names()).toContain("host-20");
  });

  it("3. a partial failure keeps exactly the records made in state, and the next up makes the rest, once", async () => {
    await engine.stack.setConfig("record-set:count", { value: "26" });
    edge.inject({ match: { method: "POST", path: "dns_records$" }, count: 2, kind: "status", status: 400 });
    const failed = await engine.stack.up().catch((e: Error) => e);
    expect(String(failed)).toMatch(/2 of 5 records could not be changed/);
    const state = await setState();
    expect(Object.keys(state.outputs.ids)).toHaveLength(23); // 20 kept + the 3 made
    expect(names()).toHaveLength(24);
    const again = await engine.stack.up();
    expect(again.outputs.recordCount.value).toBe(25);
    expect(names()).toHaveLength(26);
    expect(new Set(names()).size).toBe(26); // no duplicate
  });

  it("4. refresh shows drift per record, and up puts it back", async () => {
    const rec = [...zone().records.values()].find((r) => r.name === "host-3.example.com")!;
    rec.content = "198.51.100.3";
    const refresh = await engine.stack.refresh();
    expect(refresh.summary.resourceChanges?.update).toBe(1);
    expect((await setState()).outputs.records["host-3"].content).toBe("198.51.100.3");
    edge.log.length = 0;
    await engine.stack.up();
    expect(writes()).toEqual(["PATCH"]);
    expect(zone().records.get(rec.id)!.content).toBe("203.0.0.4");
  });

  it("5. a set read from a zone file: up makes its records; a changed line in the file changes that record alone", async () => {
    const file = path.join(engine.scratch, "zf.example.com.zone");
    const zoneText = (address: string) => `$TTL 300\n$ORIGIN zf.example.com.\n@ IN A ${address}\nwww CNAME @\n@ MX 10 mail.example.com.\n@ TXT "v=spf1 -all"\n`;
    writeFileSync(file, zoneText("203.0.113.1"));
    await engine.stack.setConfig("record-set:zoneFile", { value: file });
    edge.log.length = 0;
    const preview = await engine.stack.preview();
    expect(preview.changeSummary.create).toBe(1);
    expect(writes()).toEqual([]);
    await engine.stack.up();
    expect(names().filter((n) => n.includes("zf"))).toEqual(["www.zf", "zf", "zf", "zf"]);
    writeFileSync(file, zoneText("203.0.113.2"));
    edge.log.length = 0;
    await engine.stack.up();
    expect(writes()).toEqual(["PATCH"]);
    expect([...zone().records.values()].find((r) => r.name === "zf.example.com" && r.type === "A")!.content).toBe("203.0.113.2");
  });

  it("6. destroy removes exactly what the stack made", async () => {
    const strangerId = "stranger";
    zone().records.set(strangerId, { ...[...zone().records.values()][0], id: strangerId, name: "stranger.example.com", content: "192.0.2.1" });
    await engine.stack.destroy();
    expect(names()).toEqual(["stranger"]);
  });
});

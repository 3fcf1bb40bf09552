/**
 * DnsRecordSet through the real engine (test/programs/record-set: a set of records beside a single DnsRecord in
 * one zone): preview without writes, up, a no-op up with no write, an update that sends only what changed, a
 * partial failure whose state says exactly which records exist and which the next up finishes with no duplicate,
 * drift per record revealed by refresh, a set read from a zone file (edge:parseZoneFile), and destroy removing
 * exactly what the stack made.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_TOKEN, EdgeEmulator } from "../../emulators";
import { engineStack, ROOT } from "../../scripts/engine";
import { parseZoneFile } from "../../provider/edge/zone-file";
import { withoutEnvFallback, type EngineStack } from "../helpers/engine";
import { recordsAndIds, recordsFromText } from "../../provider/edge/dns-record-set/text";

let edge: EdgeEmulator;
let engine: EngineStack;
const zone = () => [...edge.zones.values()].find((z) => z.name === "example.com")!;
const names = () => [...zone().records.values()].map((r) => r.name.replace(".example.com", "")).sort();
/** The changes sent, a method each: a batch request counts as the changes it carried. */
const writes = () =>
  edge.log
    .filter((e) => e.method !== "GET" && !e.path.startsWith("/__"))
    .flatMap((e) => e.changes ?? [e.method])
    .sort();
const requests = () =>
  edge.log
    .filter((e) => e.method !== "GET" && !e.path.startsWith("/__"))
    .map((e) => `${e.method} ${e.path.replace(/^.*\/dns_records/, "dns_records").replace(/\/[0-9a-f]{32}$/, "/<id>")}`);
const setState = async () =>
  (await engine.stack.exportStack()).deployment.resources.find(
    (r: { type: string }) => r.type === "pulumi-nodejs:dynamic/edge:DnsRecordSet",
  );

beforeAll(async () => {
  withoutEnvFallback();
  edge = await new EdgeEmulator().start();
  engine = await engineStack(
    path.join(ROOT, "test/programs/record-set"),
    {
      "ops:edgeApiToken": { value: DEMO_TOKEN, secret: true },
      "ops:edgeBaseUrl": { value: edge.url },
      "record-set:count": { value: "20" },
    },
    "record-set",
    { PULUMI_OPS_QUIET: "1" },
  );
}, 300_000);

afterAll(async () => {
  await engine?.dispose();
  await edge?.stop();
});

describe("a DnsRecordSet through the engine", { timeout: 300_000 }, () => {
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
    await engine.stack.setAllConfig({
      "record-set:ttl": { value: "600" },
      "record-set:skip": { value: "5" },
      "record-set:count": { value: "21" },
    });
    const preview = await engine.stack.preview({ diff: true });
    expect(preview.changeSummary.update).toBe(1);
    expect(preview.stdout).toMatch(/host-20/);
    // The engine carries the records as one text, a line per record: the CLI's --diff and the pull request's comment
    // show the changed lines with three lines of context, and nothing of the records far from a change.
    const file = path.join(engine.scratch, "preview.txt");
    writeFileSync(file, preview.stdout);
    const comment = execFileSync(
      process.execPath,
      [path.join(ROOT, "examples/ci/report.mjs"), "--kind", "preview", "--stack", "record-set", "--status", "0", "--output", file],
      { encoding: "utf8" },
    );
    for (const shown of [preview.stdout, comment]) {
      for (const changed of [
        /^[-\s]+host-10 A host-10 300 203\.0\.0\.11$/m,
        /^[+\s]+host-10 A host-10 600 203\.0\.0\.11$/m,
        /^[-\s]+host-5 A host-5 300 203\.0\.0\.6$/m,
        /^[+\s]+host-20 A host-20 600 203\.0\.0\.21$/m,
      ])
        expect(shown).toMatch(changed);
      expect(shown).toMatch(/^\s+host-9 A host-9 300 203\.0\.0\.10$/m); // context
      expect(shown).not.toMatch(/host-15 /); // more than three lines from any change
    }
    expect(comment).toMatch(/^-\s+host-5 A /m);
    expect(comment).toMatch(/^\+\s+host-20 A /m);
    edge.log.length = 0;
    await engine.stack.up();
    expect(writes()).toEqual(["DELETE", "PATCH", "PATCH", "POST"]);
    expect(requests()).toEqual(["POST dns_records/batch"]); // in one batch request
    expect(names()).not.toContain("host-5");
    expect(names()).toContain("host-20");
  });

  it("3. a partial failure keeps exactly the records made in state, and the next up makes the rest, once", async () => {
    await engine.stack.setConfig("record-set:count", { value: "26" });
    // The batch refused (nothing applied), then two of its records refused again one by one.
    edge.inject({ match: { method: "POST", path: "dns_records/batch$" }, count: 1, kind: "status", status: 400 });
    edge.inject({ match: { method: "POST", path: "dns_records$" }, count: 2, kind: "status", status: 400 });
    const failed = await engine.stack.up().catch((e: Error) => e);
    expect(String(failed)).toMatch(/2 of 5 records could not be changed/);
    const state = await setState();
    expect(Object.keys(recordsAndIds(state.outputs.records).ids!)).toHaveLength(23); // 20 kept + the 3 made
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
    expect(recordsFromText((await setState()).outputs.records)["host-3"]).toMatchObject({ content: "198.51.100.3" });
    edge.log.length = 0;
    await engine.stack.up();
    expect(writes()).toEqual(["PATCH"]);
    expect(zone().records.get(rec.id)!.content).toBe("203.0.0.4");
  });

  it("5. a set read from a zone file: up makes its records; a changed line in the file changes that record alone", async () => {
    const file = path.join(engine.scratch, "zf.example.com.zone");
    const zoneText = (address: string) =>
      `$TTL 300\n$ORIGIN zf.example.com.\n@ IN A ${address}\nwww CNAME @\n@ MX 10 mail.example.com.\n@ TXT "v=spf1 -all"\n`;
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

  it("5b. a company's zone file with every record type: up makes each once; a no-op up, reordered lines and the set written back as a zone file change nothing; an inserted, a removed and a changed line send one request each", async () => {
    const file = path.join(engine.scratch, "zf.example.com.zone");
    // The fixture moved under zf.example.com, beside the program's other records in example.com.
    const company = readFileSync(path.join(ROOT, "test/unit/zone-files/company.zone"), "utf8")
      .replaceAll("example.com", "zf.example.com")
      .split("\n");
    const zf = () => [...zone().records.values()].filter((r) => r.name === "zf.example.com" || r.name.endsWith(".zf.example.com"));
    const write = async (lines: string[]) => {
      writeFileSync(file, lines.join("\n"));
      edge.log.length = 0;
      const up = await engine.stack.up();
      return { up, sent: writes() };
    };
    const first = await write(company);
    const types = new Set(zf().map((r) => r.type));
    for (const t of [
      "PTR",
      "OPENPGPKEY",
      "SRV",
      "CAA",
      "DS",
      "HTTPS",
      "SVCB",
      "TLSA",
      "SSHFP",
      "NAPTR",
      "CERT",
      "URI",
      "SMIMEA",
      "DNSKEY",
      "LOC",
    ])
      expect(types).toContain(t);
    const count = zf().length;
    expect(count).toBe(Object.keys(parseZoneFile(company.join("\n"), { origin: "example.com" }).records).length);
    expect(first.sent.filter((m) => m === "POST").length).toBeGreaterThan(30);
    edge.log.length = 0;
    await engine.stack.up({ expectNoChanges: true });
    expect(writes()).toEqual([]);

    // Lines of one type and name swapped, and whole records moved across the file: no change.
    const at = (pattern: string) => company.findIndex((l) => l.includes(pattern));
    const reordered = [...company];
    for (const [a, b] of [
      ["MX      10 mail", "MX      20 mail"],
      ["SRV     10 60", "SRV     20 0"],
      ["CAA     0 issue", "CAA     128"],
      ["mail    1d", "_dmarc"],
      ["host            SSHFP", "office          LOC"],
    ]) {
      const [i, j] = [at(a), at(b)];
      [reordered[i], reordered[j]] = [reordered[j], reordered[i]];
    }
    writeFileSync(file, reordered.join("\n"));
    await engine.stack.preview({ expectNoChanges: true });

    expect((await write([...company, "_sip._tcp SRV 30 10 5060 sip3.zf.example.com."])).sent).toEqual(["POST"]);
    expect((await write(company)).sent).toEqual(["DELETE"]);
    const changed = (await write(company.map((l) => l.replace('CAA     0 issue "letsencrypt.org"', 'CAA     0 issue "pki.goog"')))).sent;
    expect(changed).toEqual(["PATCH"]);
    expect(zf()).toHaveLength(count);

    // The set written back as a zone file is the file itself to parseZoneFile: up with it changes nothing.
    const exported = (await engine.stack.outputs()).exportedZone.value as string;
    writeFileSync(file, exported);
    await engine.stack.preview({ expectNoChanges: true });
  });

  it("5c. one bad TTL among 2,001 records fails the preview with one short line naming the record, not the map", async () => {
    await engine.stack.setAllConfig({ "record-set:count": { value: "2001" }, "record-set:badTtl": { value: "90000" } });
    edge.log.length = 0;
    const failed = await engine.stack.preview().catch((e: Error) => e);
    const text = String(failed);
    expect(text).toMatch(/records\.host-7\.ttl \(90000\): ttl must be 1 \(automatic\) or from 60 to 86400 seconds/);
    // The CLI's diagnostics hold the problem once, as one line under 1 KB.
    const diagnostics = text.slice(text.indexOf("Diagnostics:"), text.indexOf("Resources:"));
    expect(diagnostics.match(/records\.host-7\.ttl/g)).toHaveLength(1);
    const line = diagnostics.split("\n").find((l) => l.includes("records.host-7.ttl"))!;
    expect(line.length).toBeLessThan(1024);
    expect(text).not.toMatch(/host-1999/);
    expect(text.length).toBeLessThan(8 * 1024);
    expect(writes()).toEqual([]);
    await engine.stack.removeConfig("record-set:badTtl");
    await engine.stack.setConfig("record-set:count", { value: "26" });
  });

  it("5d. a CNAME beside a record of the set fails the preview naming both", async () => {
    await engine.stack.setConfig("record-set:cnameClash", { value: "true" });
    edge.log.length = 0;
    const failed = await engine.stack.preview().catch((e: Error) => e);
    // Named as the program's (when the set is checked first) or as the record the set made (when the CNAME is).
    expect(String(failed)).toMatch(
      /records\.host-1 \(A host-1 203\.0\.0\.2\) and the program's CNAME record host-1 \(example\.com\)|the program's CNAME record host-1 \(example\.com\) and (records\.host-1 \(A host-1 203\.0\.0\.2\)|the existing A record 203\.0\.0\.2 \(id [0-9a-f]+\)) are both at host-1\.example\.com/,
    );
    expect(writes()).toEqual([]);
    await engine.stack.removeConfig("record-set:cnameClash");
  });

  it("5e. a stack whose state holds the set's records as maps (written by 0.2.0) moves to the text with nothing sent and nothing replaced", async () => {
    await engine.stack.removeConfig("record-set:zoneFile").catch(() => undefined);
    await engine.stack.removeConfig("record-set:badTtl").catch(() => undefined);
    await engine.stack.removeConfig("record-set:cnameClash").catch(() => undefined);
    await engine.stack.up();
    // The state as 0.2.0 wrote it: records and ids as maps in the set's inputs and outputs.
    const state = await engine.stack.exportStack();
    const set = state.deployment.resources.find((r: { urn: string }) => r.urn.endsWith("DnsRecordSet::hosts"));
    for (const bag of [set.inputs, set.outputs]) {
      const { records, ids } = recordsAndIds(bag.records);
      bag.records = records;
      if (ids) bag.ids = ids;
    }
    await engine.stack.importStack(state);
    edge.log.length = 0;
    const preview = await engine.stack.preview();
    expect(preview.changeSummary).toMatchObject({ update: 1 });
    expect(preview.changeSummary.replace ?? 0).toBe(0);
    const up = await engine.stack.up();
    expect(up.summary.resourceChanges).toMatchObject({ update: 1 });
    expect(writes()).toEqual([]);
    expect(typeof (await setState()).outputs.records).toBe("string");
    await engine.stack.up({ expectNoChanges: true });
  });

  it("6. destroy removes exactly what the stack made", async () => {
    const strangerId = "stranger";
    zone().records.set(strangerId, {
      ...[...zone().records.values()][0],
      id: strangerId,
      name: "stranger.example.com",
      content: "192.0.2.1",
    });
    await engine.stack.destroy();
    expect(names()).toEqual(["stranger"]);
  });
});

/**
 * `pulumi-ops migrate` (issue 49) at the handlers: a zone made as the service's Terraform provider makes it
 * (test/helpers/cloudflare-states.ts), and the same zone as a v5 state, a v4 state and a pulumi-cloudflare v6 export.
 * Each is carried to the same resources, whose check passes and whose create (the first up) sends nothing; what is
 * not carried is named with its reason. The engine's own run of the written programs is test/engine/migrate-in.test.ts.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { DEMO_ACCOUNT, DEMO_TOKEN } from "../../emulators";
import { call } from "../../provider/door";
import { carry } from "../../provider/cli/migrate/carry";
import { readSource } from "../../provider/cli/migrate/source";
import { octodnsZone } from "../../provider/cli/migrate/octodns";
import { ROOT } from "../../scripts/engine";
import { OCTODNS_ZONE, pulumiCloudflareV6, RECORDS, SCRIPT, seedZone, terraformV4, terraformV5 } from "../helpers/cloudflare-states";
import { useEdge, zoneId } from "../helpers/edge";

const edge = useEdge();
const run = promisify(execFile); // async: the emulator answers from this process
const writes = () => edge.log.filter((e) => e.method !== "GET" && !e.path.startsWith("/__")).map((e) => `${e.method} ${e.path}`);

const STATES = { "Terraform v5": terraformV5, "Terraform v4": terraformV4, "pulumi-cloudflare v6": pulumiCloudflareV6 };

describe("moving in from Terraform and pulumi-cloudflare", () => {
  for (const [kind, state] of Object.entries(STATES)) {
    it(`${kind}: every object carried, its check passes, and taking it over sends nothing`, async () => {
      await seedZone(edge.url, DEMO_TOKEN, zoneId(edge), DEMO_ACCOUNT);
      const { found } = readSource(JSON.stringify(state(zoneId(edge), DEMO_ACCOUNT)), "state.json");
      const { carried, left } = carry(found);
      expect(carried.map((c) => c.type).sort()).toEqual(["edge:DnsRecordSet", "edge:PageRule", "edge:RulesetRule", "edge:WorkerRoute", "edge:WorkerScript", "edge:ZoneSetting", "edge:ZoneSetting"]);
      const set = carried.find((c) => c.type === "edge:DnsRecordSet")!;
      expect(Object.keys(set.inputs.records as object).sort()).toEqual(RECORDS.map(([name]) => name).sort());
      expect(left.map((l) => l.address).join(" ")).toMatch(kind === "Terraform v5" ? /cloudflare_zone_dnssec\.main/ : kind === "pulumi-cloudflare v6" ? /binding API_KEY/ : /^$/);
      edge.log.splice(0);
      for (const c of carried) {
        const { source, ...rest } = c.inputs;
        const inputs = c.type === "edge:WorkerScript" ? { ...rest, content: c.files![source as string] } : c.inputs;
        if (c.type === "edge:WorkerScript") expect(inputs.content).toBe(SCRIPT);
        const checked = await call(c.type, "check", [{}, inputs]);
        expect(checked.failures, `${c.type} ${c.name}`).toEqual([]);
        await call(c.type, "create", [checked.inputs]);
      }
      expect(writes()).toEqual([]);
    });
  }

  it("an octoDNS zone file: its records as one set keyed as a zone file's, ignored and apex NS left out, taken over with nothing sent", async () => {
    await seedZone(edge.url, DEMO_TOKEN, zoneId(edge), DEMO_ACCOUNT);
    const { carried, left } = octodnsZone(OCTODNS_ZONE, "example.com", "example.com.yaml");
    expect(left).toEqual([{ address: "example.com.yaml (apex) NS", reason: expect.stringMatching(/service's own/) }]);
    expect(carried).toHaveLength(1);
    const records = carried[0].inputs.records as Record<string, Record<string, unknown>>;
    expect(Object.keys(records).sort()).toEqual(["A:@", "A:api", "CAA:@", "CNAME:www", "MX:@", "TXT:@"]);
    expect(records["A:@"]).toMatchObject({ proxied: true, ttl: 1 });
    expect(records["A:api"]).toMatchObject({ ttl: 300 });
    edge.log.splice(0);
    const checked = await call("edge:DnsRecordSet", "check", [{}, carried[0].inputs]);
    expect(checked.failures).toEqual([]);
    const set = await call("edge:DnsRecordSet", "create", [checked.inputs]);
    expect(writes()).toEqual([]);
    // The service's comment on the TXT record, which octoDNS does not carry, is kept, and no later run fights it.
    expect([...edge.zones.get(zoneId(edge))!.records.values()].find((r) => r.type === "TXT")!.comment).toBe("mail sender policy");
    expect((await call("edge:DnsRecordSet", "diff", [set.id, set.outs, checked.inputs])).changes).toBe(false);
  });

  it("the command writes the program, the script's code and MIGRATION.md; YAML as well; a bad file is one line", async () => {
    await seedZone(edge.url, DEMO_TOKEN, zoneId(edge), DEMO_ACCOUNT);
    const dir = mkdtempSync(path.join(tmpdir(), "pulumi-ops-migrate-"));
    const file = path.join(dir, "terraform.tfstate");
    writeFileSync(file, JSON.stringify(terraformV5(zoneId(edge), DEMO_ACCOUNT)));
    const cli = path.join(ROOT, "dist/provider/cli/main.js");
    const ts = await run(process.execPath, [cli, "migrate", file, "--out", path.join(dir, "ts")]);
    expect(ts.stdout).toMatch(/7 resources written to .*index\.ts \(6 DNS records in 1 set\)/);
    expect(ts.stdout).toMatch(/not carried: cloudflare_zone_dnssec\.main: no pulumi-ops resource for cloudflare_zone_dnssec/);
    expect(readFileSync(path.join(dir, "ts/workers/site.js"), "utf8")).toBe(SCRIPT);
    const index = readFileSync(path.join(dir, "ts/index.ts"), "utf8");
    expect(index).toMatch(/new ops\.edge\.DnsRecordSet\("records", \{[^]*"adopt": true\n\}, \{ protect: true \}\);/);
    expect(readFileSync(path.join(dir, "ts/MIGRATION.md"), "utf8")).toMatch(/terraform state rm 'cloudflare_dns_record\.www'/);
    await run(process.execPath, [cli, "migrate", file, "--out", path.join(dir, "yaml"), "--language", "yaml"]);
    const program = parse(readFileSync(path.join(dir, "yaml/Pulumi.yaml"), "utf8"));
    expect(program.runtime).toBe("yaml");
    // The engine fills in ${VERSION}: escaped from Pulumi YAML's interpolation, as the README writes it.
    expect(readFileSync(path.join(dir, "yaml/Pulumi.yaml"), "utf8")).toMatch(/pluginDownloadURL: https:\/\/\S+\/v\$\$\{VERSION\}$/m);
    expect(program.resources.site).toMatchObject({ type: "ops:edge:WorkerScript", properties: { name: "site", content: { "fn::readFile": "./workers/site.js" } }, options: { protect: true } });
    expect(program.resources.records.properties.records.caa).toEqual({ type: "CAA", name: "example.com", data: { flags: 0, tag: "issue", value: "letsencrypt.org" }, ttl: 3600 });
    const octodns = path.join(dir, "example.com.yaml");
    writeFileSync(octodns, OCTODNS_ZONE);
    const zone = await run(process.execPath, [cli, "migrate", octodns, "--out", path.join(dir, "octodns")]);
    expect(zone.stdout).toMatch(/the zone of an octoDNS zone file read; 1 resources written to .*index\.ts \(6 DNS records in 1 set\)/);
    expect(readFileSync(path.join(dir, "octodns/MIGRATION.md"), "utf8")).toMatch(/Remove the zone from octoDNS's config/);
    writeFileSync(file, '{"not": "a state"}');
    const bad = await run(process.execPath, [cli, "migrate", file]).catch((e: { stderr: string; code: number }) => e);
    expect(bad).toMatchObject({ code: 1, stderr: expect.stringMatching(/is neither a Terraform state .* nor a Pulumi stack export/) });
  });
});

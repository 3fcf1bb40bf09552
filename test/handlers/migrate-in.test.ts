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
import {
  OCTODNS_ZONE,
  pulumiCloudflareV6,
  RECORDS,
  SCRIPT,
  seedZone,
  terraformV4,
  terraformV4SettingsOverride,
  terraformV5,
} from "../helpers/cloudflare-states";
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
      expect(carried.map((c) => c.type).sort()).toEqual([
        "edge:DnsRecordSet",
        "edge:PageRule",
        "edge:RulesetRule",
        "edge:WorkerRoute",
        "edge:WorkerScript",
        "edge:ZoneSetting",
        "edge:ZoneSetting",
      ]);
      const set = carried.find((c) => c.type === "edge:DnsRecordSet")!;
      expect(Object.keys(set.inputs.records as object).sort()).toEqual(RECORDS.map(([name]) => name).sort());
      expect(left.map((l) => l.address).join(" ")).toMatch(
        kind === "Terraform v5" ? /cloudflare_zone_dnssec\.main/ : kind === "pulumi-cloudflare v6" ? /binding API_KEY/ : /^$/,
      );
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
    expect(left).toEqual([
      { address: "example.com.yaml (apex) NS", reason: expect.stringMatching(/service's own/) },
      {
        address: "example.com.yaml _acme-challenge TXT",
        reason: expect.stringMatching(/^ignored in octoDNS: left on the service as it is/),
      },
    ]);
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

  it("a secret is never written: a variable kept as a secret leaves its script behind; an encrypted value or an action that cannot be carried leaves its object behind", async () => {
    const exported = pulumiCloudflareV6(zoneId(edge), DEMO_ACCOUNT) as { deployment: { resources: Record<string, any>[] } };
    const SIG = "4dabf18193072939515e22adb298388d";
    const byName = (n: string) => exported.deployment.resources.find((r) => String(r.urn).endsWith(`::${n}`))!;
    // A plain-text variable the stack held as a secret (pulumi.secret in the old program), opened by --show-secrets.
    byName("site").outputs.bindings[0].text = { [SIG]: "1b47061264138c4ac30d75fd1eb44270", plaintext: JSON.stringify("hunter2-the-edge") };
    // A record's content exported without --show-secrets.
    byName("api").outputs.content = { [SIG]: "1b47061264138c4ac30d75fd1eb44270", ciphertext: "AAAbbb" };
    // A page rule with cache key fields (nested blocks).
    byName("static").outputs.actions.cacheKeyFields = { queryString: { excludes: ["utm_source"] } };
    const { found } = readSource(JSON.stringify(exported), "stack.json");
    const { carried, left } = carry(found);
    expect(JSON.stringify(carried)).not.toContain("hunter2-the-edge");
    expect(carried.map((c) => c.type)).not.toContain("edge:WorkerScript");
    expect(carried.map((c) => c.type)).not.toContain("edge:PageRule");
    expect(Object.keys(carried.find((c) => c.type === "edge:DnsRecordSet")!.inputs.records as object)).not.toContain("api");
    expect(left).toEqual(
      expect.arrayContaining([
        {
          address: "cloudflare:index/workersScript:WorkersScript site",
          reason: expect.stringMatching(/holds a value the old tool kept as a secret, which is never written into a program/),
        },
        {
          address: "cloudflare:index/dnsRecord:DnsRecord api",
          reason: expect.stringMatching(/^encrypted in the export \(api\.content\): export with --show-secrets/),
        },
        {
          address: "cloudflare:index/pageRule:PageRule static",
          reason: expect.stringMatching(/its cache_key_fields action \(nested blocks\) is not carried/),
        },
      ]),
    );
    // A Terraform state's sensitive attributes, the same.
    const state = terraformV5(zoneId(edge), DEMO_ACCOUNT) as { resources: Record<string, any>[] };
    const script = state.resources.find((r) => r.type === "cloudflare_workers_script")!.instances[0];
    script.sensitive_attributes = [
      [
        { type: "get_attr", value: "bindings" },
        { type: "index", value: { value: 0, type: "number" } },
        { type: "get_attr", value: "text" },
      ],
    ];
    const fromState = carry(readSource(JSON.stringify(state), "state.json").found);
    expect(JSON.stringify(fromState.carried)).not.toContain("the edge");
    expect(fromState.left.map((l) => l.address)).toContain("cloudflare_workers_script.site");
  });

  it("a v4 settings override read whole (28 settings) carries the three the old program changed, never a setting the service no longer lists, and takes them over with nothing sent (issue 57)", async () => {
    const z = edge.zones.get(zoneId(edge))!;
    // The zone as the old program left it.
    Object.assign(z.settings, {
      ssl: { value: "full", modified_on: null },
      min_tls_version: { value: "1.2", modified_on: null },
      always_use_https: { value: "on", modified_on: null },
    });
    const { carried, left } = carry(readSource(JSON.stringify(terraformV4SettingsOverride(zoneId(edge))), "terraform.tfstate").found);
    expect(carried.map((c) => `${c.inputs.settingId}=${c.inputs.value}`).sort()).toEqual([
      "always_use_https=on",
      "min_tls_version=1.2",
      "ssl=full",
    ]);
    expect(left).toEqual([
      {
        address: "cloudflare_zone_settings_override.main.settings.binary_ast",
        reason: expect.stringMatching(/binary_ast is not a zone setting the service lists today/),
      },
    ]);
    edge.log.splice(0);
    for (const c of carried) {
      const checked = await call("edge:ZoneSetting", "check", [{}, c.inputs]);
      expect(checked.failures).toEqual([]);
      await call("edge:ZoneSetting", "create", [checked.inputs]);
    }
    expect(writes()).toEqual([]);
  });

  it("octoDNS URLFWD becomes the redirect rule --page-rules-as-rules writes, its check passes, and MIGRATION.md says the page rule is its to delete (issue 57)", async () => {
    const zone = `${OCTODNS_ZONE}old:\n  type: URLFWD\n  value:\n    code: 302\n    masking: 2\n    path: /shop/*\n    query: 0\n    target: https://shop.example.net/$1\n`;
    const { carried, left } = octodnsZone(zone, "example.com", "example.com.yaml");
    expect(left.map((l) => l.address)).not.toContain("example.com.yaml old URLFWD");
    const redirect = carried.find((c) => c.type === "edge:RulesetRule")!;
    expect(redirect).toMatchObject({
      name: "redirect-old",
      from: ["example.com.yaml old URLFWD"],
      inputs: {
        zoneName: "example.com",
        phase: "http_request_dynamic_redirect",
        action: "redirect",
        actionParameters: { from_value: { status_code: 302 } },
      },
      note: expect.stringMatching(/delete the forwarding page rule octoDNS made/),
    });
    expect(JSON.stringify(redirect.inputs)).toContain("old.example.com");
    expect((await call("edge:RulesetRule", "check", [{}, redirect.inputs])).failures).toEqual([]);
    const dir = mkdtempSync(path.join(tmpdir(), "pulumi-ops-migrate-"));
    writeFileSync(path.join(dir, "example.com.yaml"), zone);
    const cli = path.join(ROOT, "dist/provider/cli/main.js");
    const out = await run(process.execPath, [cli, "migrate", path.join(dir, "example.com.yaml"), "--out", path.join(dir, "zone")]);
    expect(out.stdout).toMatch(/2 resources written/);
    const report = readFileSync(path.join(dir, "zone/MIGRATION.md"), "utf8");
    expect(report).toMatch(
      /## Written anew\n\n- edge:RulesetRule `redirect-old`: a new redirect rule for old\.example\.com\/shop\/\* -> https:\/\/shop\.example\.net\/\$1 \(302\)/,
    );
    expect(report).toMatch(/## Letting go of one record later[^]*retainOnDelete: true[^]*pulumi state delete/);
    expect(readFileSync(path.join(dir, "zone/Pulumi.yaml"), "utf8")).toMatch(/^name: example-com$/m);
  });

  it("the project is named for the zone (or --name), so zones migrated one by one are projects of their own (issue 57)", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "pulumi-ops-migrate-"));
    const file = path.join(dir, "terraform.tfstate");
    writeFileSync(file, JSON.stringify(terraformV5(zoneId(edge), DEMO_ACCOUNT)));
    const cli = path.join(ROOT, "dist/provider/cli/main.js");
    await run(process.execPath, [cli, "migrate", file, "--out", path.join(dir, "edge")]);
    expect(readFileSync(path.join(dir, "edge/Pulumi.yaml"), "utf8")).toMatch(/^name: example-com$/m);
    expect(JSON.parse(readFileSync(path.join(dir, "edge/package.json"), "utf8")).name).toBe("example-com");
    await run(process.execPath, [cli, "migrate", file, "--out", path.join(dir, "named"), "--name", "shop-dns", "--language", "yaml"]);
    expect(parse(readFileSync(path.join(dir, "named/Pulumi.yaml"), "utf8")).name).toBe("shop-dns");
    const bad = await run(process.execPath, [cli, "migrate", file, "--out", path.join(dir, "bad"), "--name", "shop dns"]).catch(
      (e: { stderr: string; code: number }) => e,
    );
    expect(bad).toMatchObject({ code: 2, stderr: expect.stringMatching(/--name "shop dns" is not a project name Pulumi takes/) });
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
    expect(program.resources.site).toMatchObject({
      type: "ops:edge:WorkerScript",
      properties: { name: "site", content: { "fn::readFile": "./workers/site.js" } },
      options: { protect: true },
    });
    expect(program.resources.records.properties.records.caa).toEqual({
      type: "CAA",
      name: "example.com",
      data: { flags: 0, tag: "issue", value: "letsencrypt.org" },
      ttl: 3600,
    });
    const octodns = path.join(dir, "example.com.yaml");
    writeFileSync(octodns, OCTODNS_ZONE);
    const zone = await run(process.execPath, [cli, "migrate", octodns, "--out", path.join(dir, "octodns")]);
    expect(zone.stdout).toMatch(/the zone of an octoDNS zone file read; 1 resources written to .*index\.ts \(6 DNS records in 1 set\)/);
    expect(readFileSync(path.join(dir, "octodns/MIGRATION.md"), "utf8")).toMatch(/Remove the zone from octoDNS's config/);
    // The old project's own folder is not written over unasked.
    const again = await run(process.execPath, [cli, "migrate", file, "--out", path.join(dir, "ts")]).catch(
      (e: { stderr: string; code: number }) => e,
    );
    expect(again).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(
        /holds index\.ts, Pulumi\.yaml, package\.json, MIGRATION\.md already: give an empty folder with --out <dir> \(or --force/,
      ),
    });
    writeFileSync(file, '{"not": "a state"}');
    const bad = await run(process.execPath, [cli, "migrate", file]).catch((e: { stderr: string; code: number }) => e);
    expect(bad).toMatchObject({ code: 1, stderr: expect.stringMatching(/is neither a Terraform state .* nor a Pulumi stack export/) });
  });
});

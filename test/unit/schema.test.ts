import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { functions } from "../../provider/function-registry";
import { schemaText } from "../../scripts/gen-schema";

describe("schema.json", () => {
  it("is what the zod schemas generate today (run `npm run gen` after changing a schema)", () => {
    const committed = readFileSync(path.resolve(__dirname, "../../schema.json"), "utf8");
    expect(committed).toBe(schemaText());
  });

  it("carries the metadata that drives the engine: required inputs, defaults, replace-on-change", () => {
    const schema = JSON.parse(schemaText());
    const dns = schema.resources["ops:edge:DnsRecord"];
    expect(dns.requiredInputs).toEqual(["name", "type"]); // content or data, by type: check says which
    expect(dns.inputProperties.type.replaceOnChanges).toBe(true);
    expect(dns.inputProperties.zoneName.replaceOnChanges).toBe(true);
    expect(dns.inputProperties.proxied.default).toBe(false);
    expect(dns.properties.hostname.type).toBe("string");
    expect(schema.resources["ops:edge:ZoneSetting"].inputProperties.settingId.replaceOnChanges).toBe(true);
  });

  it("declares the provider's config and its provider resource: one set of keys, secrets marked, the environment as default", () => {
    const schema = JSON.parse(schemaText());
    const vars = schema.config.variables;
    expect(vars.edgeApiToken).toMatchObject({
      type: "string",
      secret: true,
      defaultInfo: { environment: ["EDGE_API_TOKEN", "CLOUDFLARE_API_TOKEN"] },
    });
    expect(vars.edgeRateLimit).toMatchObject({ type: "integer", default: 1200 });
    expect(vars.postsAdoptExisting).toMatchObject({ type: "boolean", default: false });
    expect(vars.accounts).toMatchObject({ type: "object", secret: true });
    expect(Object.keys(schema.provider.inputProperties)).toEqual(Object.keys(vars));
    // Every resource may name its account; changing it replaces the resource.
    for (const r of Object.values(schema.resources) as {
      isComponent?: boolean;
      inputProperties: Record<string, { replaceOnChanges?: boolean }>;
    }[])
      // A component passes it to its resources, which are replaced; the component itself never is.
      expect(r.inputProperties.account.replaceOnChanges).toBe(r.isComponent ? undefined : true);
  });

  it("has every read-only function, with its arguments, result and the named types of nested objects", () => {
    const schema = JSON.parse(schemaText());
    expect(Object.keys(schema.functions)).toEqual(
      Object.keys(functions)
        .sort()
        .map((t) => `ops:${t}`),
    );
    const getZone = schema.functions["ops:edge:getZone"];
    expect(getZone.inputs).toEqual({
      properties: {
        name: { type: "string", description: "The zone's domain name." },
        account: expect.objectContaining({ type: "string" }),
      },
      required: ["name"],
    });
    expect(getZone.outputs.required).toEqual(["id", "name", "status"]);
    expect(Object.keys(schema.functions["ops:edge:verifyToken"].inputs.properties)).toEqual(["account"]); // every function may name an account
    const stats = schema.functions["ops:edge:getCacheStats"].outputs.properties.colos;
    expect(stats).toEqual({ type: "array", items: { $ref: "#/types/ops:edge:GetCacheStatsResultColo" }, description: expect.any(String) });
    expect(schema.types["ops:edge:GetCacheStatsResultColo"].properties.requests).toEqual({
      $ref: "#/types/ops:edge:GetCacheStatsResultColoRequests",
      description: "Requests the location answered.",
    });
    // A union of one primitive type keeps that type and its default: "now" or a time is a string.
    expect(schema.functions["ops:edge:getZoneAnalytics"].inputs.properties.until).toMatchObject({ type: "string", default: "now" });
  });
});

describe("schema.json against the Pulumi CLI's own schema checks", () => {
  /**
   * `pulumi package gen-sdk` validates the schema against Pulumi's metaschema and binds it (types, defaults,
   * tokens) before it asks the language host to write code. The Python host buildable here (v3.68.0) predates that
   * call, so the test reads how far the CLI got: past the schema, to the code generator. An invalid schema stops
   * it earlier with the errors listed. (The SDK itself is generated and used in test/engine/python.test.ts.)
   */
  it("passes the metaschema and binding (the CLI gets as far as the code generator)", () => {
    const cli = path.resolve(__dirname, "../../.tools/pulumi/bin/pulumi");
    const home = mkdtempSync(path.join(tmpdir(), "pulumi-ops-schema-"));
    const run = spawnSync(
      cli,
      ["package", "gen-sdk", path.resolve(__dirname, "../../schema.json"), "--language", "python", "--out", path.join(home, "sdk")],
      {
        encoding: "utf8",
        env: { ...process.env, PULUMI_HOME: home, PULUMI_SKIP_UPDATE_CHECK: "true", PATH: "/usr/bin:/bin" },
      },
    );
    const said = `${run.stdout}${run.stderr}`;
    expect(said).not.toMatch(/doesn't validate|cannot have a constant value|#\/resources/);
    expect(said).toMatch(/no language plugin 'pulumi-language-python'|method GeneratePackage not implemented/);
  });
});

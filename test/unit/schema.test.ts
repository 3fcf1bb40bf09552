import { readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { schemaText } from "../../scripts/gen-schema";

describe("schema.json", () => {
  it("is what the zod schemas generate today (run `npm run gen-schema` after changing a schema)", () => {
    const committed = readFileSync(path.resolve(__dirname, "../../schema.json"), "utf8");
    expect(committed).toBe(schemaText());
  });

  it("carries the metadata that drives the engine: required inputs, defaults, replace-on-change", () => {
    const schema = JSON.parse(schemaText());
    const dns = schema.resources["ops:edge:DnsRecord"];
    expect(dns.requiredInputs).toEqual(["content", "name", "type"]);
    expect(dns.inputProperties.type.replaceOnChanges).toBe(true);
    expect(dns.inputProperties.zoneName.replaceOnChanges).toBe(true);
    expect(dns.inputProperties.proxied.default).toBe(false);
    expect(dns.properties.hostname.type).toBe("string");
    expect(schema.resources["ops:edge:ZoneSetting"].inputProperties.settingId.replaceOnChanges).toBe(true);
  });
});

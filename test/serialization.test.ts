/**
 * The serialized provider, tested where serialization is real: a plain node process (vitest rewrites imports).
 * It must capture nothing but its type token, stay small, and work when loaded the way the provider host loads it.
 */
import { execFileSync } from "node:child_process";
import * as path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "..");

function serialize(type: string, news: object) {
  const out = execFileSync(path.join(ROOT, "node_modules/.bin/node"), [path.join(ROOT, "test/helpers/serialize-provider.js"), type, JSON.stringify(news)], {
    cwd: ROOT,
    encoding: "utf8",
  });
  return JSON.parse(out) as { size: number; text: string; result: { inputs: object; failures: object[] } };
}

describe("serialized dynamic providers", () => {
  it.each(["edge:DnsRecord", "edge:ZoneSetting"])("%s captures only its type token and requires the door at call time", (type) => {
    const { size, text } = serialize(type, {});
    expect(size).toBeLessThan(4096);
    expect(text).toContain(`type: "${type}"`);
    expect(text).toContain('require("pulumi-ops/dist/provider/door")');
    for (const leaked of ["undici", "EdgeClient", "zod", "Map(", "apiToken"]) expect(text).not.toContain(leaked);
  });

  it("works once loaded: check runs the package's handler", () => {
    const { result } = serialize("edge:DnsRecord", { zoneName: "example.com", type: "MX", name: "@", content: "mail.example.net" });
    expect(result.failures).toEqual([{ property: "priority", reason: "an MX record needs a priority (0 to 65535)" }]);
  });
});

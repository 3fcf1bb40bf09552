/**
 * The serialized provider, tested where serialization is real: a plain node process (vitest rewrites imports).
 * Installed under node_modules (as users install it), a provider is stored as a `require` of its module; linked
 * from outside node_modules (as in this repository), it is stored by value and must capture nothing but its type.
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "..");

function serialize(type: string, news: object, cwd = ROOT, env: Record<string, string> = {}) {
  const out = execFileSync(
    path.join(ROOT, "node_modules/.bin/node"),
    [path.join(ROOT, "test/helpers/serialize-provider.js"), type, JSON.stringify(news)],
    { cwd, encoding: "utf8", env: { ...process.env, ...env } },
  );
  return JSON.parse(out) as { size: number; text: string; result: { inputs: object; failures: object[] }; loaded: string[] };
}

/** A program directory with pulumi-ops copied into its node_modules (the other packages linked). */
function installedProgram(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "installed-"));
  mkdirSync(path.join(dir, "node_modules"));
  for (const entry of readdirSync(path.join(ROOT, "node_modules"))) {
    if (entry === "pulumi-ops" || entry.startsWith(".")) continue;
    symlinkSync(path.join(ROOT, "node_modules", entry), path.join(dir, "node_modules", entry));
  }
  const pkg = path.join(dir, "node_modules", "pulumi-ops");
  mkdirSync(pkg);
  cpSync(path.join(ROOT, "package.json"), path.join(pkg, "package.json"));
  cpSync(path.join(ROOT, "dist"), path.join(pkg, "dist"), { recursive: true });
  writeFileSync(path.join(dir, "package.json"), '{"name":"program","private":true}');
  return dir;
}

const installed = installedProgram();
afterAll(() => rmSync(installed, { recursive: true, force: true }));

describe("serialized dynamic providers", () => {
  it.each(["edge:DnsRecord", "edge:ZoneSetting", "control:RemoteCommand"])(
    "%s, installed under node_modules, is stored as a require of its module",
    (type) => {
      const { size, text } = serialize(type, {}, installed);
      const [module, name] = type.split(":");
      expect(text).toMatch(new RegExp(`require\\("pulumi-ops/dist/provider/providers/${module}-${name}(\\.js)?"\\)`));
      expect(text).not.toContain("async function");
      expect(size).toBeLessThan(600);
    },
  );

  it.each(["edge:DnsRecord", "edge:ZoneSetting"])("%s, linked from outside node_modules, captures only its type token", (type) => {
    const { size, text } = serialize(type, {});
    expect(size).toBeLessThan(4096);
    expect(text).toContain(`type: "${type}"`);
    expect(text).toContain('require("pulumi-ops/dist/provider/door")');
    for (const leaked of ["undici", "EdgeClient", "zod", "Map(", "apiToken"]) expect(text).not.toContain(leaked);
  });

  it("works once loaded, either way: check runs the package's handler", () => {
    const news = { zoneName: "example.com", type: "MX", name: "@", content: "mail.example.net" };
    const want = [{ property: "priority", reason: "an MX record needs a priority (0 to 65535)" }];
    expect(serialize("edge:DnsRecord", news).result.failures).toEqual(want);
    expect(serialize("edge:DnsRecord", news, installed).result.failures).toEqual(want);
  });

  it("loads only what the call needs: its own type's handler, and no HTTP library before a request", () => {
    // The engine starts a provider process for every command; a preview of DNS records should not pay for the
    // other modules' handlers and clients, the read-only functions, or undici (about 60 ms), which it never uses.
    const news = { zoneName: "example.com", type: "A", name: "www", content: "192.0.2.1" };
    // Offline (no credentials here): with credentials the preview checks would send their reads, undici included.
    const { result, loaded } = serialize("edge:DnsRecord", news, installed, { PULUMI_OPS_PREVIEW_CHECKS: "false" });
    expect(result.failures ?? []).toEqual([]);
    const ours = loaded.filter((m) => m.startsWith("pulumi-ops/dist/provider/"));
    expect(ours).toContain("pulumi-ops/dist/provider/edge/dns-record/handler.js");
    expect(ours.filter((m) => m.endsWith("/handler.js") && !m.endsWith("/provider/handler.js"))).toEqual([
      "pulumi-ops/dist/provider/edge/dns-record/handler.js",
    ]);
    expect(
      ours.filter(
        (m) => /\/(functions|function-registry|client)\.js$/.test(m) && !m.endsWith("/edge/client.js") && !m.endsWith("/http/client.js"),
      ),
    ).toEqual([]);
    expect(loaded.filter((m) => m.startsWith("undici/"))).toEqual([]);
  });
});

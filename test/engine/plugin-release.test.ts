/**
 * The plugin's release assets for every platform Pulumi users run on, as scripts/build-plugin.ts makes them: one
 * tarball per platform named as the engine looks for it, holding one executable of that platform with the plugin
 * inside. Only linux-amd64 can run here (test/engine/python.test.ts and yaml.test.ts run it through the engine);
 * for the others this checks what can be checked without their machines: the executable's format and CPU (ELF,
 * Mach-O, PE headers), the single-executable fuse flipped, and the bundle and schema embedded.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildPlugin, PLATFORMS, tarballName } from "../../scripts/build-plugin";
import { VERSION } from "../helpers/release-host";

const scratch = mkdtempSync(path.join(tmpdir(), "pulumi-ops-release-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** What a platform's executable header must say: its format and CPU. */
function header(exe: Buffer): string {
  if (exe.readUInt32BE(0) === 0x7f454c46)
    return `elf-${({ 0x3e: "amd64", 0xb7: "arm64" } as Record<number, string>)[exe.readUInt16LE(18)] ?? "other"}`;
  if (exe.readUInt32LE(0) === 0xfeedfacf)
    return `macho-${({ 0x01000007: "amd64", 0x0100000c: "arm64" } as Record<number, string>)[exe.readUInt32LE(4)] ?? "other"}`;
  if (exe.toString("latin1", 0, 2) === "MZ") {
    const pe = exe.readUInt32LE(0x3c);
    if (exe.toString("latin1", pe, pe + 4) === "PE\0\0") return `pe-${exe.readUInt16LE(pe + 4) === 0x8664 ? "amd64" : "other"}`;
  }
  return "unknown";
}

const EXPECTED: Record<string, string> = {
  "linux-amd64": "elf-amd64",
  "linux-arm64": "elf-arm64",
  "darwin-amd64": "macho-amd64",
  "darwin-arm64": "macho-arm64",
  "windows-amd64": "pe-amd64",
};

describe("the plugin's release assets", { timeout: 900_000 }, () => {
  it("cover the five platforms the issue names", () => {
    expect(Object.keys(PLATFORMS).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  let built: string[] | undefined;
  const tarballs = () => (built ??= buildPlugin()); // built once per change of bundle or schema, reused after (.tools/release)

  it.each(Object.keys(EXPECTED))(
    "%s: one executable of that platform, named as the engine looks for it, with the plugin inside",
    (platform) => {
      const tarball = tarballs().find((t) => path.basename(t) === tarballName(VERSION, platform))!;
      expect(tarball, `no ${tarballName(VERSION, platform)}`).toBeDefined();
      const dir = path.join(scratch, platform);
      mkdirSync(dir);
      execFileSync("tar", ["xzf", tarball, "-C", dir]);
      const name = platform.startsWith("windows") ? "pulumi-resource-ops.exe" : "pulumi-resource-ops";
      expect(readdirSync(dir)).toEqual([name]);
      const file = path.join(dir, name);
      expect(statSync(file).mode & 0o111, "executable").not.toBe(0);
      const exe = readFileSync(file);
      expect(header(exe)).toBe(EXPECTED[platform]);
      // Node starts the embedded program only when postject flipped the fuse (":0" is a plain Node).
      expect(exe.includes("NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2:1")).toBe(true);
      // The bundle (the plugin's own code) and schema.json, the asset the plugin answers GetSchema from.
      expect(exe.includes("provider/plugin-standalone")).toBe(true); // esbuild's comment naming the bundle's entry
      expect(exe.includes(`"pluginDownloadURL": "https://`)).toBe(true);
      expect(exe.includes(`"version": "${VERSION}"`)).toBe(true);
    },
  );
});

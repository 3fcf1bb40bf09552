/**
 * `npm run release [-- --out <dir>]`: every artifact of this version, made from this clone into a folder outside it
 * (by default `../pulumi-ops-v<version>` beside the clone), with nothing written into the clone:
 *
 *   pulumi-ops-<v>.tgz                            the npm package (`npm pack`)
 *   pulumi-resource-ops-v<v>-<os>-<arch>.tar.gz   the plugin, one per platform (scripts/build-plugin.ts)
 *   pulumi_ops-<v>-py3-none-any.whl               the Python package, and its sdist pulumi_ops-<v>.tar.gz
 *   go/                                           the Go module sdk/go at v<v>, in the module proxy's layout
 *   maven/                                        the Java package io.github.pulumi-ops:pulumi-ops:<v>, in a Maven
 *                                                 repository's layout (jar and pom)
 *   schema.json                                   the package schema the SDKs were generated from
 *   SHA256SUMS                                    `sha256sum -c SHA256SUMS` checks every file above
 *
 * Reproducible: every time inside an artifact is SOURCE_DATE_EPOCH (by default the last commit's time), so the same
 * commit gives the same bytes (npm pack fixes its own times; see build-plugin.ts and tools/pulumi-cli/gomodule).
 * Before it makes anything it checks what a release needs: one version in package.json, schema.json, the Python
 * package, CHANGELOG.md's first section and the SDKs generated from today's schema (docs/releasing.md).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { buildPlugin, PLATFORMS } from "./build-plugin";
import { filesBelow, ROOT } from "./root";

const PYTHON = path.join(ROOT, ".tools/release-python/bin/python");
const GOMODULE = path.join(ROOT, ".tools/pulumi/bin/pulumi-ops-gomodule");

/** What a maintainer must fix before a release, in one line with its remedy. */
export class NotReleasable extends Error {}

const readJson = (file: string) => JSON.parse(readFileSync(path.join(ROOT, file), "utf8")) as { version: string };

/** The version every place a release carries agrees on, or why there is none. */
export function releaseVersion(): string {
  const version = readJson("package.json").version;
  const differ = (where: string, found: string | undefined, remedy: string) => {
    if (found !== version) throw new NotReleasable(`${where} says ${found ?? "no version"}, package.json ${version}: ${remedy}`);
  };
  differ("schema.json", readJson("schema.json").version, "run `npm run gen`");
  const pyproject = readFileSync(path.join(ROOT, "sdk/python/pyproject.toml"), "utf8");
  differ("sdk/python/pyproject.toml", /^\s*version = "([^"]+)"/m.exec(pyproject)?.[1], "run `npm run gen`");
  const changelog = readFileSync(path.join(ROOT, "CHANGELOG.md"), "utf8");
  differ(
    "CHANGELOG.md's first section",
    /^## \[?v?(\d+\.\d+\.\d+[^\]\s]*)/m.exec(changelog)?.[1],
    `add a section for ${version} at its top`,
  );
  return version;
}

/** The last commit's time, the time inside every artifact unless SOURCE_DATE_EPOCH says otherwise. */
function sourceDateEpoch(): string {
  if (process.env.SOURCE_DATE_EPOCH) return process.env.SOURCE_DATE_EPOCH;
  return execFileSync("git", ["log", "-1", "--format=%ct"], { cwd: ROOT, encoding: "utf8" }).trim();
}

function run(file: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): string {
  const r = spawnSync(file, args, { cwd: opts.cwd ?? ROOT, env: { ...process.env, ...opts.env }, encoding: "utf8", maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`${path.basename(file)} ${args.join(" ")} failed (exit ${r.status}):\n${r.stderr || r.stdout}`);
  return r.stdout;
}

/** `npm pack` of the package as built in dist/ (npm fixes every entry's time itself). */
function npmPackage(out: string): string {
  const [packed] = JSON.parse(run("npm", ["pack", "--json", "--pack-destination", out], { env: { npm_config_loglevel: "error" } })) as {
    filename: string;
  }[];
  return packed.filename;
}

/** The sdist and the wheel of sdk/python, built from a copy (a build leaves build/ and *.egg-info where it runs). */
function pythonPackage(out: string, epoch: string): string[] {
  const stage = mkdtempSync(path.join(tmpdir(), "pulumi-ops-python-"));
  try {
    cpSync(path.join(ROOT, "sdk/python"), stage, { recursive: true, filter: (src) => !/(\/build|\.egg-info|__pycache__)$/.test(src) });
    const before = new Set(readdirSync(out));
    // --no-isolation: the pinned build tools of .tools/release-python (scripts/install-release.sh), not the newest.
    // PYTHONDONTWRITEBYTECODE off: with it setuptools warns that it skips byte-compiling (nothing a wheel holds).
    const env = { SOURCE_DATE_EPOCH: epoch, PYTHONDONTWRITEBYTECODE: undefined };
    run(PYTHON, ["-m", "build", "--no-isolation", "--sdist", "--wheel", "--outdir", out, stage], { env });
    const made = readdirSync(out).filter((f) => !before.has(f));
    for (const sdist of made.filter((f) => f.endsWith(".tar.gz")))
      run(PYTHON, [path.join(ROOT, "scripts/reproducible-sdist.py"), path.join(out, sdist)], { env });
    return made;
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

/** sdk/go as the module proxy serves v<version> of it: `GOPROXY=file://<out>/go` installs it as a published tag does. */
function goModule(out: string, version: string, epoch: string): string[] {
  const at = new Date(Number(epoch) * 1000).toISOString().replace(/\.\d+Z$/, "Z");
  run(GOMODULE, [path.join(ROOT, "sdk/go"), `v${version}`, at, path.join(out, "go")]);
  return filesBelow(path.join(out, "go")).map((f) => path.relative(out, f));
}

/** sdk/java built by Maven from a copy (a build leaves target/ where it runs), laid out as a Maven repository. */
function javaPackage(out: string, version: string, epoch: string): string[] {
  const stage = mkdtempSync(path.join(tmpdir(), "pulumi-ops-java-"));
  try {
    cpSync(path.join(ROOT, "sdk/java"), stage, { recursive: true, filter: (src) => !src.endsWith("/target") });
    const at = new Date(Number(epoch) * 1000).toISOString().replace(/\.\d+Z$/, "Z");
    run("mvn", [
      "-q",
      "-B",
      "--no-transfer-progress",
      "-f",
      path.join(stage, "pom.xml"),
      "package",
      `-Dproject.build.outputTimestamp=${at}`,
    ]);
    const dir = path.join("maven", "io/github/pulumi-ops/pulumi-ops", version);
    mkdirSync(path.join(out, dir), { recursive: true });
    const made = [
      [path.join(stage, "target", `pulumi-ops-${version}.jar`), `pulumi-ops-${version}.jar`],
      [path.join(stage, "pom.xml"), `pulumi-ops-${version}.pom`],
    ].flatMap(([from, name]) => {
      const file = path.join(dir, name);
      cpSync(from, path.join(out, file));
      // Maven checks a download against its .sha1 beside it.
      writeFileSync(path.join(out, `${file}.sha1`), createHash("sha1").update(readFileSync(from)).digest("hex"));
      return [file, `${file}.sha1`];
    });
    return made;
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

/** `sha256sum`'s format, so `sha256sum -c SHA256SUMS` checks a download. */
function checksums(out: string, files: string[]): string {
  return files
    .sort()
    .map(
      (f) =>
        `${createHash("sha256")
          .update(readFileSync(path.join(out, f)))
          .digest("hex")}  ${f}\n`,
    )
    .join("");
}

export interface Release {
  version: string;
  dir: string;
  /** Every artifact, relative to dir, SHA256SUMS last. */
  files: string[];
}

/**
 * Makes the release into `out` (made anew: it must not exist, or be empty). `platforms` narrows the plugin's
 * platforms (all of PLATFORMS by default); everything else is always made.
 */
export function release(out: string, platforms = Object.keys(PLATFORMS)): Release {
  const version = releaseVersion();
  const dir = path.resolve(out);
  const relative = path.relative(ROOT, dir);
  if (!relative.startsWith("..") && !path.isAbsolute(relative))
    throw new NotReleasable(`--out ${out} is inside the clone: name a folder outside it (the default is ../pulumi-ops-v${version})`);
  if (existsSync(dir) && readdirSync(dir).length > 0) throw new NotReleasable(`${dir} is not empty: remove it, or name another --out`);
  for (const tool of [PYTHON, GOMODULE])
    if (!existsSync(tool)) throw new NotReleasable(`${tool} is missing: run \`bash scripts/install-release.sh\` (npm run release runs it)`);
  if (spawnSync("mvn", ["--version"]).status !== 0)
    throw new NotReleasable("no Maven (mvn) on PATH: the Java package needs Maven 3.6+ and a JDK 11+");
  const epoch = sourceDateEpoch();
  // Made in a folder beside `out`, renamed into place whole: a failed release leaves no half of one.
  mkdirSync(path.dirname(dir), { recursive: true });
  const work = mkdtempSync(`${dir}.making-`);
  try {
    const files = [
      npmPackage(work),
      ...buildPlugin(platforms, work, epoch).map((f) => path.basename(f)),
      ...pythonPackage(work, epoch),
      ...goModule(work, version, epoch),
      ...javaPackage(work, version, epoch),
    ];
    cpSync(path.join(ROOT, "schema.json"), path.join(work, "schema.json"));
    files.push("schema.json");
    writeFileSync(path.join(work, "SHA256SUMS"), checksums(work, files));
    rmSync(dir, { recursive: true, force: true });
    renameSync(work, dir);
    return { version, dir, files: [...files.sort(), "SHA256SUMS"] };
  } catch (e) {
    rmSync(work, { recursive: true, force: true });
    throw e;
  }
}

if (require.main === module) {
  const args = process.argv.slice(2);
  const flag = (name: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  try {
    const version = releaseVersion();
    const made = release(flag("--out") ?? path.join(ROOT, "..", `pulumi-ops-v${version}`), flag("--platforms")?.split(","));
    console.log(`release ${made.version} in ${made.dir}:`);
    for (const f of made.files) console.log(`  ${f}`);
  } catch (e) {
    if (!(e instanceof NotReleasable)) throw e;
    console.error(`release: ${e.message}`);
    process.exitCode = 1;
  }
}

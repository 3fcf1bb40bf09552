/**
 * What a new user meets first: every relative link of README.md and docs/ resolves (the file, and the heading an
 * anchor names), and `pulumi-ops --help` / `pulumi-ops emulators --help` list the commands and every setting the
 * emulators read, starting nothing (plain node on the built package, as `npx pulumi-ops` runs it).
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../..");
const markdown = (dir: string): string[] =>
  readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? markdown(path.join(dir, e.name)) : e.name.endsWith(".md") ? [path.join(dir, e.name)] : [],
  );
/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
const slug = (h: string) =>
  h
    .trim()
    .toLowerCase()
    .replace(/[`*_]/g, "")
    .replace(/[^\p{L}\p{N}\s-]/gu, "")
    .replace(/\s/g, "-");
const anchors = (file: string) =>
  new Set(
    readFileSync(file, "utf8")
      .split("\n")
      .filter((l) => /^#{1,6} /.test(l))
      .map((l) => slug(l.replace(/^#+ /, ""))),
  );

describe("links", () => {
  for (const doc of ["README.md", "CHANGELOG.md", ...markdown("docs")]) {
    it(`${doc}: every relative link resolves`, () => {
      const text = readFileSync(path.join(ROOT, doc), "utf8").replace(/```[\s\S]*?```/g, "");
      const broken: string[] = [];
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/i.test(target)) continue; // https:, mailto:
        const [file, anchor] = target.split("#");
        const resolved = file ? path.resolve(path.dirname(path.join(ROOT, doc)), file) : path.join(ROOT, doc);
        if (!existsSync(resolved)) broken.push(`${target} (no such file)`);
        else if (anchor && resolved.endsWith(".md") && !anchors(resolved).has(anchor)) broken.push(`${target} (no such heading)`);
      }
      expect(broken).toEqual([]);
    });
  }
});

describe("the command's help", () => {
  const run = (...args: string[]) =>
    spawnSync(process.execPath, [path.join(ROOT, "dist/provider/cli/main.js"), ...args], { encoding: "utf8", timeout: 20_000 });

  it("pulumi-ops --help lists the commands and exits 0", () => {
    const r = run("--help");
    expect(r.status).toBe(0);
    for (const command of ["emulators", "import", "--help"]) expect(r.stdout).toContain(command);
  });

  it("pulumi-ops emulators --help lists every setting the emulators read, starts nothing, exits 0", () => {
    const r = run("emulators", "--help");
    expect(r.status).toBe(0); // it returned: nothing was left listening
    // Read as process.env.X, or by name through the port helper: port("X_EMULATOR_PORT", ...).
    const read = [
      ...readFileSync(path.join(ROOT, "emulators/main.ts"), "utf8").matchAll(/process\.env\.([A-Z_]+)|"([A-Z]+_EMULATOR_[A-Z_]+)"/g),
    ].map((m) => m[1] ?? m[2]);
    expect(new Set(read).size).toBeGreaterThanOrEqual(8);
    for (const variable of new Set(read)) expect(r.stdout).toContain(variable);
  });

  it("an unknown argument is refused with the usage, exit 2", () => {
    const r = run("emulators", "--port", "9000");
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/unknown argument "--port".*environment variables/);
  });
});

describe("pulumi-ops import's dependency line", () => {
  it("follows how the running copy was installed: npm's recorded tarball, URL or registry version; a project's own line; a clone by its path", async () => {
    const { dependencySpec } = await import("../../provider/cli/project");
    const { mkdirSync, mkdtempSync, writeFileSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const project = mkdtempSync(path.join(tmpdir(), "pulumi-ops-spec-"));
    const out = path.join(project, "imported");
    // Run from a clone (this repository): the clone, by its path, which `npm install` links.
    expect(dependencySpec(out, project)).toBe(`file:${path.relative(out, ROOT)}`);
    writeFileSync(
      path.join(project, "package.json"),
      JSON.stringify({ dependencies: { "pulumi-ops": "file:vendor/pulumi-ops-0.2.0.tgz" } }),
    );
    expect(dependencySpec(out, project)).toBe("file:../vendor/pulumi-ops-0.2.0.tgz");
    writeFileSync(
      path.join(project, "package.json"),
      JSON.stringify({ devDependencies: { "pulumi-ops": "git+https://example.com/pulumi-ops.git#v0.2.0" } }),
    );
    expect(dependencySpec(out, project)).toBe("git+https://example.com/pulumi-ops.git#v0.2.0");
    // Installed in another project (npx pulumi-ops from there, the command run from anywhere): what npm recorded.
    const user = mkdtempSync(path.join(tmpdir(), "pulumi-ops-user-"));
    const installed = path.join(user, "node_modules", "pulumi-ops");
    mkdirSync(installed, { recursive: true });
    writeFileSync(path.join(installed, "package.json"), JSON.stringify({ name: "pulumi-ops", version: "0.6.0" }));
    const lock = (resolved: string) =>
      writeFileSync(
        path.join(user, "node_modules", ".package-lock.json"),
        JSON.stringify({ packages: { "node_modules/pulumi-ops": { version: "0.6.0", resolved } } }),
      );
    lock("file:vendor/pulumi-ops-0.6.0.tgz");
    expect(dependencySpec(out, tmpdir(), installed)).toBe(`file:${path.relative(out, path.join(user, "vendor/pulumi-ops-0.6.0.tgz"))}`);
    lock("https://github.com/pulumi-ops/pulumi-ops/releases/download/v0.6.0/pulumi-ops-0.6.0.tgz");
    expect(dependencySpec(out, tmpdir(), installed)).toBe(
      "https://github.com/pulumi-ops/pulumi-ops/releases/download/v0.6.0/pulumi-ops-0.6.0.tgz",
    );
    lock("https://registry.npmjs.org/pulumi-ops/-/pulumi-ops-0.6.0.tgz");
    expect(dependencySpec(out, tmpdir(), installed)).toBe("^0.6.0");
  });
});

describe("one version everywhere", () => {
  const version = (JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string }).version;

  it("CHANGELOG's newest section is package.json's version", () => {
    const first = readFileSync(path.join(ROOT, "CHANGELOG.md"), "utf8").match(/^## (.+)$/m)?.[1];
    expect(first, "CHANGELOG.md's first section names the version package.json gives").toBe(version);
  });

  it("every version the README, the docs, the SDKs and the test programs name for pulumi-ops is package.json's", () => {
    const below = (dir: string): string[] =>
      readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? (e.name === "node_modules" || e.name === "venv" ? [] : below(path.join(dir, e.name))) : [path.join(dir, e.name)],
      );
    const files = [
      "README.md",
      "schema.json",
      "sdk/python/pyproject.toml",
      "sdk/python/pulumi_ops/pulumi-plugin.json",
      ...below("docs").filter((f) => f.endsWith(".md")),
      ...below("test/programs").filter((f) => /(Pulumi\.yaml|requirements\.txt)$/.test(f)),
    ];
    // The places a version of pulumi-ops is written: a tarball, a release URL, a plugin, a wheel, a YAML resource option.
    const named =
      /pulumi-ops-(\d+\.\d+\.\d+)\.tgz|releases\/download\/v(\d+\.\d+\.\d+)|resource ops (\d+\.\d+\.\d+)|resource-ops-v(\d+\.\d+\.\d+)|pulumi_ops-(\d+\.\d+\.\d+)|pulumi-ops>=(\d+\.\d+\.\d+)|^\s+version: (\d+\.\d+\.\d+)|"version": "(\d+\.\d+\.\d+)"|^\s*version = "(\d+\.\d+\.\d+)"/gm;
    const found: string[] = [];
    for (const f of files)
      for (const m of readFileSync(path.join(ROOT, f), "utf8").matchAll(named)) found.push(`${f}: ${m.slice(1).find(Boolean)}`);
    expect(found.length).toBeGreaterThanOrEqual(15);
    expect(found.filter((f) => !f.endsWith(`: ${version}`))).toEqual([]);
  });
});

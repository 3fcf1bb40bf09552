/**
 * `npm run release` as a maintainer runs it (scripts/release.ts), and its artifacts installed as users install them
 * with nothing but the release folder: no clone on any path, no `node_modules/.bin` on PATH, an empty PULUMI_HOME.
 *
 * The release: every artifact and SHA256SUMS; each platform's plugin executable of that platform (format and CPU
 * from its header, the single-executable fuse flipped, the bundle and schema inside: only linux-amd64 can run here);
 * the wheel's metadata as PyPI shows it; the npm package without the tests; the Go module served from the folder by
 * the go command; a second release of the same commit byte for byte the same.
 *
 * The installs run README's Install commands as written, with RELEASE set to the folder, each in a clean folder with
 * one DNS record and one page post taken through preview (no write), up and destroy by the real engine: Python
 * (README's "From Python" section as written, its files and its commands by bash: `pulumi plugin install ... --file`
 * the tarball, `pulumi install` finding the wheel, the stack's output), Pulumi YAML (the plugin fetched
 * from a mirror of the release folder through PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: README's line, pointed here),
 * TypeScript (`npm install` of the package tarball), Go (`go get` of the module from the folder's module proxy
 * layout, the plugin from its tarball, the program built by the Go language host: README's "From Go" says which),
 * Java (the jar and pom into Maven's local repository with `mvn install:install-file`, the program run by Maven through
 * Pulumi's Java host).
 */
import { execFile, execFileSync, spawnSync } from "node:child_process";
import {
  createReadStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ControlEmulator, DEMO_TOKEN, EdgeEmulator, PAGE_ID, PAGES_USER_TOKEN, PagesEmulator } from "../../emulators";
import { PLATFORMS } from "../../scripts/build-plugin";
import { engineStack, ROOT, type EngineStack } from "../../scripts/engine";
import { filesBelow } from "../../scripts/root";
import { NotReleasable, release, type Release } from "../../scripts/release";
import { withoutEnvFallback } from "../helpers/engine";
import { fileOf, keepBackendMarker, newUserEnv, readmeBlocks } from "../helpers/readme";
import { VERSION } from "../helpers/release-host";

const run = promisify(execFile); // async: the emulators answer from this process
const scratch = mkdtempSync(path.join(tmpdir(), "pulumi-ops-release-"));
const BIN = path.join(ROOT, ".tools/pulumi/bin"); // the CLI and its language hosts, as a user installs them
const MESSAGE = "Opening hours from the release";
/** A newer @pulumi/pulumi than the one this repository pins, as a user's program would move to. */
const USER_SDK = "3.270.0";
const TYPESCRIPT_PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import * as ops from "pulumi-ops";

const config = new pulumi.Config();
const zone = ops.edge.getZoneOutput({ name: "example.com" });
const args: ops.edge.DnsRecordArgs = { zoneId: zone.id, type: "A", name: "www", content: pulumi.output("203.0.113.10"), ttl: 300 };
const www = new ops.edge.DnsRecord("www", args);
new ops.edge.PageRule("static", { zoneId: zone.id, targets: [pulumi.interpolate\`\${www.hostname}/static/*\`], actions: [{ id: "cache_level", value: pulumi.output("cache_everything") }] });
const marker = new ops.control.RemoteCommand("marker", {
  create: "echo $GREETING > /tmp/installed-marker",
  delete: "rm -f /tmp/installed-marker",
  environment: { GREETING: config.requireSecret("greeting") },
});
new ops.pages.PagePost("hours", { pageId: "${PAGE_ID}", message: "${MESSAGE}", published: false });
const found: Promise<ops.edge.GetZoneResult> = ops.edge.getZone({ name: "example.com" });

export const hostname = www.hostname;
export const zoneStatus = pulumi.output(found).status;
export const exitCode = marker.exitCode;
`;
let made: Release;
let edge: EdgeEmulator, pages: PagesEmulator, control: ControlEmulator;
let mirror: Server;
let mirrored: string[] = [];

const artifact = (name: string) => path.join(made.dir, name);
const writes = () => [...edge.log, ...pages.log].filter((e) => e.method !== "GET");
const records = () =>
  [...[...edge.zones.values()].find((z) => z.name === "example.com")!.records.values()].filter((r) => r.name === "www.example.com");
const posts = () => [...pages.posts.values()].filter((p) => p.message === MESSAGE);
const CONFIG = () => ({
  "ops:edgeBaseUrl": { value: edge.url },
  "ops:edgeApiToken": { value: DEMO_TOKEN, secret: true },
  "ops:pagesBaseUrl": { value: pages.url },
  "ops:pagesAccessToken": { value: PAGES_USER_TOKEN, secret: true },
});

/** What a program's PATH holds: the CLI and its hosts, and the one interpreter its language needs, nothing of the clone. */
function userPath(name: string, ...tools: { as: string; is: string }[]): string {
  const bin = path.join(scratch, `${name}-bin`);
  mkdirSync(bin);
  for (const t of tools) symlinkSync(t.is, path.join(bin, t.as));
  return `${bin}:${BIN}`;
}

/** A tool of this machine, by its real path. */
const machineTool = (name: string) => ({
  as: name,
  is: execFileSync("/bin/sh", ["-c", `readlink -f "$(command -v ${name})"`], { encoding: "utf8" }).trim(),
});

/**
 * preview (nothing sent), up (the record and the post made, once), destroy (both gone). `more`: a program of more
 * resources than those two, its config, how many the preview creates (with the stack) and what to hold after up.
 */
async function previewUpDestroy(
  dir: string,
  stackName: string,
  env: Record<string, string>,
  before?: (cli: { command: string; env: Record<string, string>; cwd: string }) => Promise<unknown>,
  more: {
    config?: Record<string, { value: string; secret?: boolean }>;
    creates?: number;
    afterUp?: (e: EngineStack) => Promise<void>;
  } = {},
) {
  const engine = await engineStack(dir, { ...CONFIG(), ...more.config }, stackName, { PULUMI_OPS_QUIET: "0", ...env });
  try {
    await before?.(engine.cli);
    edge.log.length = 0;
    pages.log.length = 0;
    const preview = await engine.stack.preview();
    expect(preview.changeSummary.create).toBe(more.creates ?? 3); // the record, the post, the stack
    expect(writes()).toEqual([]);
    await engine.stack.up();
    expect(records().map((r) => r.content)).toEqual(["203.0.113.10"]);
    expect(posts()).toHaveLength(1);
    await more.afterUp?.(engine);
    await engine.stack.destroy();
    expect(records()).toEqual([]);
    expect(posts()).toEqual([]);
    expect(engine.backendText()).not.toContain(PAGES_USER_TOKEN);
  } finally {
    await engine.dispose();
  }
}

beforeAll(async () => {
  withoutEnvFallback();
  made = release(path.join(scratch, "release"));
  [edge, pages, control] = await Promise.all([new EdgeEmulator().start(), new PagesEmulator().start(), new ControlEmulator().start()]);
  // A mirror of the release page: the release folder served as a web server serves files.
  mirror = createServer((req, res) => {
    mirrored.push(req.url ?? "");
    const file = path.join(made.dir, path.basename(req.url ?? ""));
    if (!existsSync(file)) return void res.writeHead(404).end();
    res.writeHead(200, { "content-length": statSync(file).size });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => mirror.listen(0, "127.0.0.1", resolve));
}, 900_000);

afterAll(async () => {
  mirror?.close();
  await Promise.all([edge?.stop(), pages?.stop(), control?.stop()]);
  rmSync(scratch, { recursive: true, force: true });
});

describe("npm run release", { timeout: 600_000 }, () => {
  it("writes every artifact of the version, and SHA256SUMS that sha256sum -c accepts", () => {
    const plugins = Object.keys(PLATFORMS).map((p) => `pulumi-resource-ops-v${VERSION}-${p}.tar.gz`);
    const go = `go/github.com/pulumi-ops/pulumi-ops/sdk/go/@v/v${VERSION}`;
    expect(made.files.sort()).toEqual(
      [
        `pulumi-ops-${VERSION}.tgz`,
        ...plugins,
        `pulumi_ops-${VERSION}-py3-none-any.whl`,
        `pulumi_ops-${VERSION}.tar.gz`,
        `${go}.info`,
        `${go}.mod`,
        `${go}.zip`,
        "go/github.com/pulumi-ops/pulumi-ops/sdk/go/@v/list",
        ...["jar", "jar.sha1", "pom", "pom.sha1"].map((e) => `maven/io/github/pulumi-ops/pulumi-ops/${VERSION}/pulumi-ops-${VERSION}.${e}`),
        "schema.json",
        "SHA256SUMS",
      ].sort(),
    );
    const check = spawnSync("sha256sum", ["-c", "SHA256SUMS"], { cwd: made.dir, encoding: "utf8" });
    expect(check.status, check.stdout + check.stderr).toBe(0);
    expect(check.stdout.trim().split("\n")).toHaveLength(made.files.length - 1);
  });

  it("refuses what is not a release: a folder inside the clone, or one already holding files", () => {
    expect(() => release(path.join(ROOT, "release-here"))).toThrow(NotReleasable);
    expect(() => release(path.join(ROOT, "release-here"))).toThrow(/inside the clone: name a folder outside it/);
    expect(() => release(made.dir)).toThrow(/is not empty: remove it, or name another --out/);
    expect(existsSync(path.join(ROOT, "release-here"))).toBe(false);
  });

  /** What a platform's executable header says: its format and CPU. */
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

  it("covers the platforms Pulumi users run on", () => {
    expect(Object.keys(PLATFORMS).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(Object.keys(EXPECTED))(
    "%s: one executable of that platform, named as the engine looks for it, with the plugin inside",
    (platform) => {
      const dir = path.join(scratch, "unpacked", platform);
      mkdirSync(dir, { recursive: true });
      execFileSync("tar", ["xzf", artifact(`pulumi-resource-ops-v${VERSION}-${platform}.tar.gz`), "-C", dir]);
      const name = platform.startsWith("windows") ? "pulumi-resource-ops.exe" : "pulumi-resource-ops";
      expect(readdirSync(dir)).toEqual([name]);
      expect(statSync(path.join(dir, name)).mode & 0o111, "executable").not.toBe(0);
      const exe = readFileSync(path.join(dir, name));
      expect(header(exe)).toBe(EXPECTED[platform]);
      // Node starts the embedded program only when postject flipped the fuse (":0" is a plain Node).
      expect(exe.includes("NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2:1")).toBe(true);
      // The bundle (the plugin's own code) and schema.json, the asset the plugin answers GetSchema from.
      expect(exe.includes("provider/plugin-standalone")).toBe(true); // esbuild's comment naming the bundle's entry
      expect(exe.includes(`"version": "${VERSION}"`)).toBe(true);
      rmSync(dir, { recursive: true });
    },
  );

  it("the wheel says what PyPI shows (license, readme, classifiers, Python versions) and pins the plugin's version", () => {
    const read = (member: string) =>
      execFileSync(
        "python3",
        [
          "-c",
          "import sys, zipfile; print(zipfile.ZipFile(sys.argv[1]).read(sys.argv[2]).decode())",
          artifact(`pulumi_ops-${VERSION}-py3-none-any.whl`),
          member,
        ],
        {
          encoding: "utf8",
        },
      );
    const metadata = read(`pulumi_ops-${VERSION}.dist-info/METADATA`);
    expect(metadata).toMatch(new RegExp(`^Version: ${VERSION.replace(/\./g, "\\.")}$`, "m"));
    expect(metadata).toMatch(/^License: Apache-2\.0$/m);
    expect(metadata).toMatch(/^Requires-Python: >=3\.9$/m);
    expect(metadata).toMatch(/^Classifier: License :: OSI Approved :: Apache Software License$/m);
    expect(metadata).toMatch(/^Description-Content-Type: text\/markdown$/m);
    expect(metadata).toMatch(/^Requires-Dist: pulumi<4\.0\.0,>=3\.\d+\.\d+$/m);
    expect(JSON.parse(read("pulumi_ops/pulumi-plugin.json"))).toMatchObject({ resource: true, name: "ops", version: VERSION });
  });

  it("the npm package holds the built code, the docs and the examples, and no tests", () => {
    const listed = execFileSync("tar", ["tzf", artifact(`pulumi-ops-${VERSION}.tgz`)], { encoding: "utf8", maxBuffer: 1 << 26 }).split(
      "\n",
    );
    expect(listed).toContain("package/dist/sdk/index.js");
    expect(listed).toContain("package/dist/provider/plugin.js");
    expect(listed).toContain("package/schema.json");
    expect(listed.filter((f) => /^package\/(test|scripts|tools|provider)\//.test(f))).toEqual([]);
  });

  it("sdk/java is what Pulumi's Java generator makes of schema.json today (npm run gen)", async () => {
    const fresh = mkdtempSync(path.join(scratch, "java-gen-"));
    await run(
      path.join(BIN, "pulumi"),
      ["package", "gen-sdk", path.join(ROOT, "schema.json"), "--language", "java", "--local", "--out", fresh],
      {
        env: {
          ...process.env,
          PATH: `${BIN}:${process.env.PATH}`,
          PULUMI_HOME: path.join(fresh, ".pulumi"),
          PULUMI_SKIP_UPDATE_CHECK: "true",
        },
      },
    );
    const files = (dir: string) =>
      filesBelow(dir)
        .map((f) => path.relative(dir, f))
        .filter((f) => !f.startsWith(`target${path.sep}`));
    const generated = files(path.join(fresh, "java")).sort();
    const committed = path.join(ROOT, "sdk/java");
    expect(
      files(committed)
        .filter((f) => f !== "pom.xml")
        .sort(),
      "regenerate: npm run gen",
    ).toEqual(generated);
    for (const f of generated)
      expect(readFileSync(path.join(committed, f), "utf8"), `sdk/java/${f} is stale: npm run gen`).toBe(
        readFileSync(path.join(fresh, "java", f), "utf8"),
      );
    expect(readFileSync(path.join(committed, "pom.xml"), "utf8")).toContain(`<version>${VERSION}</version>`);
  });

  it("made again from the same commit, every artifact is the same bytes", () => {
    const again = release(path.join(scratch, "again"), ["linux-amd64"]);
    const sums = (dir: string) =>
      new Map(
        readFileSync(path.join(dir, "SHA256SUMS"), "utf8")
          .trim()
          .split("\n")
          .map((l) => [l.slice(66), l.slice(0, 64)] as const),
      );
    const first = sums(made.dir);
    const second = sums(again.dir);
    expect(second.size).toBe(first.size - 4); // four platforms fewer
    for (const [file, sum] of second) expect(sum, `${file} differs between two releases of one commit`).toBe(first.get(file));
  });
});

/** README's Install commands for a language, as written (the block after the line that names it). */
function readmeCommands(label: RegExp): string {
  const block = readmeBlocks("## Install").find((b) => b.lang === "sh" && label.test(b.label + b.text));
  if (!block) throw new Error(`README's Install has no block matching ${label}`);
  return block.text;
}

/** Runs README commands by bash in a program's folder, with the release folder as RELEASE, as a user pastes them; what they print. */
async function paste(commands: string, dir: string, env: Record<string, string>): Promise<string> {
  const { stdout, stderr } = await run("/bin/bash", ["-c", `set -euo pipefail\n${commands}`], {
    cwd: dir,
    env: { ...env, RELEASE: made.dir },
    timeout: 600_000,
  });
  return stdout + stderr;
}

describe("installed from the release folder alone, with README's Install commands", { timeout: 600_000 }, () => {
  it("Python: README's From Python as written (the plugin from its tarball, the wheel found by pip): preview writes nothing, up makes, destroy removes", async () => {
    const dir = path.join(scratch, "python");
    mkdirSync(dir);
    const blocks = readmeBlocks("### From Python");
    for (const b of blocks.filter((b) => b.lang !== "sh")) writeFileSync(path.join(dir, fileOf(b)), `${b.text}\n`);
    const commands = blocks.find((b) => b.lang === "sh")!.text.split("\n");
    // The section's install lines are Install's for Python; YAML's is the same first line: the plugin from its tarball.
    const install = readmeCommands(/^Python/).split("\n");
    for (const line of install) expect(commands.some((c) => c.startsWith(line))).toBe(true);
    expect(install[0]).toBe(readmeCommands(/^YAML/));
    const python = execFileSync("python3", ["-c", "import sys; print(sys._base_executable)"], { encoding: "utf8" }).trim();
    const user = path.join(scratch, "python-user");
    for (const d of ["home/.pulumi", "state"]) mkdirSync(path.join(user, d), { recursive: true });
    const { PULUMI_CONFIG_PASSPHRASE: _p, PIP_FIND_LINKS: _f, ...shell } = newUserEnv(user);
    const env = {
      ...shell,
      PATH: userPath("python", { as: "python3", is: python }),
      // The emulators' export lines, as pasted.
      EDGE_BASE_URL: edge.url,
      EDGE_API_TOKEN: DEMO_TOKEN,
      PAGES_BASE_URL: pages.url,
      PAGES_ACCESS_TOKEN: PAGES_USER_TOKEN,
      PULUMI_OPS_QUIET: "0",
    };
    const restoreBackendMarker = keepBackendMarker();
    try {
      edge.log.length = 0;
      pages.log.length = 0;
      const upAt = commands.findIndex((c) => c.startsWith("pulumi up"));
      const previewed = await paste(commands.slice(0, upAt).join("\n"), dir, env);
      expect(previewed).toMatch(/\+ 3 to create/); // the record, the post and the stack (get_zone is a function)
      expect(previewed).not.toMatch(/using pulumi-resource-ops from \$PATH/);
      expect(writes()).toEqual([]);
      const rest = await paste(commands.slice(0, 1).concat(commands.slice(upAt)).join("\n"), dir, env);
      expect(rest).toMatch(/^www\.example\.com$/m);
      expect(rest).toMatch(/- 3 deleted/);
      const sent = writes().map((e) => `${e.method} ${e.path}`);
      expect(sent).toEqual(
        expect.arrayContaining([expect.stringMatching(/^POST .*\/dns_records$/), expect.stringMatching(/^POST .*\/feed$/)]),
      );
      expect(sent.filter((w) => w.startsWith("DELETE"))).toHaveLength(2);
      expect(records()).toEqual([]);
    } finally {
      restoreBackendMarker();
    }
    expect(existsSync(path.join(dir, "venv/bin/python"))).toBe(true);
  });

  it("Pulumi YAML: the plugin fetched from a mirror of the release page; preview writes nothing, up makes, destroy removes", async () => {
    const dir = path.join(scratch, "yaml");
    mkdirSync(dir);
    const options = `    options:\n      version: ${VERSION}\n      pluginDownloadURL: https://github.com/pulumi-ops/pulumi-ops/releases/download/v$\${VERSION}\n`;
    writeFileSync(
      path.join(dir, "Pulumi.yaml"),
      [
        "name: from-release-yaml",
        "runtime: yaml",
        "resources:",
        "  www:",
        "    type: ops:edge:DnsRecord",
        "    properties: { zoneName: example.com, type: A, name: www, content: 203.0.113.10, ttl: 300 }",
        options,
        "  hours:",
        "    type: ops:pages:PagePost",
        `    properties: { pageId: "${PAGE_ID}", message: "${MESSAGE}", published: false }`,
        options,
      ].join("\n"),
    );
    // README's mirror line, pointed at the mirror here instead of mirror.example.com.
    const line = readmeCommands(/PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES/);
    const port = (mirror.address() as { port: number }).port;
    const overrides = /^export PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES='(.+)'$/
      .exec(line)![1]
      .replace("https://mirror.example.com", `http://127.0.0.1:${port}`);
    mirrored = [];
    await previewUpDestroy(dir, "yaml", {
      PATH: userPath("yaml"),
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "false",
      PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: overrides,
    });
    expect(mirrored).toEqual([`/pulumi-ops/pulumi-resource-ops-v${VERSION}-linux-amd64.tar.gz`]);
  });

  it("TypeScript: npm installs the package tarball, the program's own newer @pulumi/pulumi the one copy; strict types; preview writes nothing, up makes, a second up changes nothing, destroy removes", async () => {
    const dir = path.join(scratch, "typescript");
    mkdirSync(dir);
    writeFileSync(path.join(dir, "Pulumi.yaml"), "name: from-release-typescript\nruntime: nodejs\n");
    writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "from-release", private: true, main: "index.ts" }));
    // What `tsc --init` gives, made strict; nothing that hides a library's typing errors.
    writeFileSync(
      path.join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: { strict: true, target: "ES2022", module: "commonjs", moduleResolution: "node", noEmit: true },
        files: ["index.ts"],
      }),
    );
    // The SDK used as a generated Pulumi SDK is: named `XxxArgs`, outputs nested in inputs (a secret in
    // `environment`, a list of outputs in `targets`), `getX` and `getXOutput`.
    writeFileSync(path.join(dir, "index.ts"), TYPESCRIPT_PROGRAM);
    // npm from the machine (it is no part of the clone), its cache first.
    const npmEnv = {
      ...(process.env as Record<string, string>),
      npm_config_prefer_offline: "true",
      npm_config_loglevel: "error",
      npm_config_fund: "false",
      npm_config_audit: "false",
    };
    await paste(readmeCommands(/^TypeScript/), dir, npmEnv);
    // A program moves to a newer SDK than the one pulumi-ops is tested with: a peer dependency, so one copy, its own.
    await run("npm", ["install", `@pulumi/pulumi@${USER_SDK}`], { cwd: dir, env: npmEnv, timeout: 240_000 });
    const copies = (await run("npm", ["ls", "@pulumi/pulumi", "--all", "--parseable"], { cwd: dir, env: npmEnv })).stdout
      .trim()
      .split("\n");
    expect([...new Set(copies)]).toEqual([path.join(dir, "node_modules/@pulumi/pulumi")]);
    expect(JSON.parse(readFileSync(path.join(dir, "node_modules/@pulumi/pulumi/package.json"), "utf8")).version).toBe(USER_SDK);
    // Every link README makes into docs/, examples/ or to schema.json resolves in the installed package.
    const installed = path.join(dir, "node_modules/pulumi-ops");
    const links = [
      ...readFileSync(path.join(installed, "README.md"), "utf8").matchAll(/\]\(((?:docs\/|examples\/|schema\.json)[^)#\s]*)/g),
    ];
    expect(links.length).toBeGreaterThan(5);
    expect(links.map((m) => m[1]).filter((t) => !existsSync(path.join(installed, t)))).toEqual([]);
    // It compiles under a default strict tsconfig (no skipLibCheck, no esModuleInterop); the typings never name zod.
    const compiled = await run(path.join(dir, "node_modules/.bin/tsc"), ["-p", "."], { cwd: dir }).then(
      (r) => r.stdout,
      (e: { stdout?: string }) => String(e.stdout),
    );
    expect(compiled).toBe("");
    const typings = filesBelow(path.join(installed, "dist/sdk")).filter((f) => f.endsWith(".d.ts"));
    expect(typings.length).toBeGreaterThan(10);
    expect(typings.filter((f) => readFileSync(f, "utf8").includes("zod"))).toEqual([]);

    await previewUpDestroy(dir, "typescript", { PATH: userPath("typescript", { as: "node", is: process.execPath }) }, undefined, {
      config: {
        "ops:controlUrl": { value: control.url },
        "from-release-typescript:greeting": { value: "hello-from-a-secret", secret: true },
      },
      creates: 5, // the record, the page rule, the command, the post and the stack
      async afterUp(engine) {
        const outputs = await engine.stack.outputs();
        expect(outputs).toMatchObject({ hostname: { value: "www.example.com" }, zoneStatus: { value: "active" }, exitCode: { value: 0 } });
        expect(control.machine.files.get("/tmp/installed-marker")).toBe("hello-from-a-secret\n");
        await engine.stack.up({ expectNoChanges: true });
        // Installed under node_modules, the provider is stored in state as a require of its module, not as code.
        const state = await engine.stack.exportStack();
        const record = state.deployment.resources.find((r: { type: string }) => r.type === "pulumi-nodejs:dynamic/edge:DnsRecord");
        expect(record.outputs.__provider).toMatch(/require\("pulumi-ops\/dist\/provider\/providers\/edge-DnsRecord(\.js)?"\)/);
        expect(engine.backendText()).not.toContain("hello-from-a-secret"); // the secret nested in environment stayed secret
      },
    });
    expect(control.machine.files.has("/tmp/installed-marker")).toBe(false);
  });

  it("Go: the module from the folder with go get; the program built by the Go host; preview writes nothing, up makes, destroy removes", async () => {
    const dir = path.join(scratch, "go");
    mkdirSync(dir);
    writeFileSync(path.join(dir, "Pulumi.yaml"), "name: from-release-go\nruntime: go\n");
    writeFileSync(
      path.join(dir, "main.go"),
      [
        "package main",
        "",
        "import (",
        '\t"github.com/pulumi-ops/pulumi-ops/sdk/go/ops/edge"',
        '\t"github.com/pulumi-ops/pulumi-ops/sdk/go/ops/pages"',
        '\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi"',
        ")",
        "",
        "func main() {",
        "\tpulumi.Run(func(ctx *pulumi.Context) error {",
        '\t\t_, err := edge.NewDnsRecord(ctx, "www", &edge.DnsRecordArgs{ZoneName: pulumi.StringPtr("example.com"), Type: pulumi.String("A"), Name: pulumi.String("www"), Content: pulumi.StringPtr("203.0.113.10"), Ttl: pulumi.IntPtr(300)})',
        "\t\tif err != nil {",
        "\t\t\treturn err",
        "\t\t}",
        `\t\t_, err = pages.NewPagePost(ctx, "hours", &pages.PagePostArgs{PageId: pulumi.String("${PAGE_ID}"), Message: pulumi.StringPtr("${MESSAGE}"), Published: pulumi.BoolPtr(false)})`,
        "\t\treturn err",
        "\t})",
        "}",
        "",
      ].join("\n"),
    );
    // Deviations: the dependencies come from this machine's module cache before the module proxy (no network needed),
    // the sum database is not asked, and the module cache is a new one (a later release of this version must not
    // meet it); -trimpath lets the build cache serve the Pulumi SDK compiled from another module cache.
    const machineCache = `file://${execFileSync("go", ["env", "GOMODCACHE"], { encoding: "utf8" }).trim()}/cache/download`;
    const goEnv = {
      GOMODCACHE: path.join(scratch, "go-modcache"),
      GOFLAGS: "-mod=mod -modcacherw -trimpath",
      GOSUMDB: "off",
      GOTOOLCHAIN: "local",
      GOPROXY: `file://${made.dir}/go,${machineCache},https://proxy.golang.org`,
      GOCACHE: execFileSync("go", ["env", "GOCACHE"], { encoding: "utf8" }).trim(),
      HOME: process.env.HOME ?? scratch,
    };
    await run("go", ["mod", "init", "example.com/program"], { cwd: dir, env: { ...(process.env as Record<string, string>), ...goEnv } });
    const go = execFileSync("/bin/sh", ["-c", "command -v go"], { encoding: "utf8" }).trim();
    const commands = readmeCommands(/^Go/).replace("https://proxy.golang.org", `${machineCache},https://proxy.golang.org`);
    await previewUpDestroy(dir, "go", { PATH: userPath("go", { as: "go", is: go }), ...goEnv }, (cli) => paste(commands, dir, cli.env));
    expect(readFileSync(path.join(dir, "go.mod"), "utf8")).toContain(`github.com/pulumi-ops/pulumi-ops/sdk/go v${VERSION}`);
  });
  it("Java: the package into Maven's local repository, the plugin from its tarball; preview writes nothing, up makes, destroy removes", async () => {
    const dir = path.join(scratch, "java");
    mkdirSync(path.join(dir, "src/main/java/myproject"), { recursive: true });
    writeFileSync(path.join(dir, "Pulumi.yaml"), "name: from-release-java\nruntime: java\n");
    const dependency = (group: string, artifact: string, version: string) =>
      `<dependency><groupId>${group}</groupId><artifactId>${artifact}</artifactId><version>${version}</version></dependency>`;
    writeFileSync(
      path.join(dir, "pom.xml"),
      [
        '<project xmlns="http://maven.apache.org/POM/4.0.0">',
        "  <modelVersion>4.0.0</modelVersion>",
        "  <groupId>com.example</groupId><artifactId>from-release-java</artifactId><version>1.0</version>",
        "  <properties><maven.compiler.release>11</maven.compiler.release><project.build.sourceEncoding>UTF-8</project.build.sourceEncoding></properties>",
        `  <dependencies>${dependency("com.pulumi", "pulumi", "1.12.0")}${dependency("io.github.pulumi-ops", "pulumi-ops", VERSION)}</dependencies>`,
        "  <build><plugins>",
        "    <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-compiler-plugin</artifactId><version>3.13.0</version></plugin>",
        "    <plugin><groupId>org.codehaus.mojo</groupId><artifactId>exec-maven-plugin</artifactId><version>3.5.0</version>",
        "      <configuration><mainClass>myproject.App</mainClass><cleanupDaemonThreads>false</cleanupDaemonThreads></configuration></plugin>",
        "  </plugins></build>",
        "</project>",
        "",
      ].join("\n"),
    );
    writeFileSync(
      path.join(dir, "src/main/java/myproject/App.java"),
      [
        "package myproject;",
        "",
        "import com.pulumi.Pulumi;",
        "import io.github.pulumiops.ops.edge.DnsRecord;",
        "import io.github.pulumiops.ops.edge.DnsRecordArgs;",
        "import io.github.pulumiops.ops.pages.PagePost;",
        "import io.github.pulumiops.ops.pages.PagePostArgs;",
        "",
        "public class App {",
        "    public static void main(String[] args) {",
        "        Pulumi.run(ctx -> {",
        '            new DnsRecord("www", DnsRecordArgs.builder().zoneName("example.com").type("A").name("www").content("203.0.113.10").ttl(300).build());',
        `            new PagePost("hours", PagePostArgs.builder().pageId("${PAGE_ID}").message("${MESSAGE}").published(false).build());`,
        "        });",
        "    }",
        "}",
        "",
      ].join("\n"),
    );
    // Maven and its shell script need the machine's tools (/usr/bin); Java programs need no Node, and run none.
    const env = { PATH: `${userPath("java", machineTool("java"), machineTool("mvn"))}:/usr/bin:/bin`, HOME: process.env.HOME ?? scratch };
    await previewUpDestroy(dir, "java", env, (cli) => paste(readmeCommands(/install:install-file/), dir, cli.env));
  });
});

/**
 * pulumi-ops installed the way users install it: `npm pack`, then the npm client installs the tarball into a fresh
 * program outside the repository (no links, no repository paths) beside the program's own, newer @pulumi/pulumi.
 * @pulumi/pulumi is a peer dependency, so the program has exactly one copy of the SDK (a pinned dependency made
 * two). The program uses the SDK as a generated Pulumi SDK is used — named `XxxArgs`, outputs nested in inputs (a
 * secret in `environment`, a list of outputs in `targets`), `getX`/`getXOutput` — and compiles with `tsc` under a
 * default strict tsconfig (no `skipLibCheck`, no `esModuleInterop`). The emulators run from the same install
 * (`npx pulumi-ops emulators`), and the real engine takes the program through preview, up, a no-op up and destroy.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_TOKEN } from "../../emulators";
import { engineStack, ROOT } from "../../scripts/engine";
import { withoutEnvFallback, type EngineStack } from "../helpers/engine";

/** A newer SDK than the one this repository pins, as a user's program would have. */
const USER_SDK = "3.270.0";
const scratch = mkdtempSync(path.join(tmpdir(), "pulumi-ops-install-"));
const program = path.join(scratch, "program");
let emulators: ChildProcess;
let urls: Record<string, string>;
let engine: EngineStack;

const PROGRAM = `import * as pulumi from "@pulumi/pulumi";
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
const found: Promise<ops.edge.GetZoneResult> = ops.edge.getZone({ name: "example.com" });

export const hostname = www.hostname;
export const zoneStatus = pulumi.output(found).status;
export const exitCode = marker.exitCode;
`;

/** Starts `npx pulumi-ops emulators` in the program (any free ports) and reads the URLs it prints. */
async function startEmulators(): Promise<Record<string, string>> {
  const ports = Object.fromEntries(
    ["EDGE", "PAGES", "POSTS", "RUNNER", "SKILLS", "CLAUDE", "CONTROL"].map((s) => [`${s}_EMULATOR_PORT`, "0"]),
  );
  // The installed command itself (as `npx pulumi-ops emulators` runs it), so that stopping it stops the emulators.
  emulators = spawn(path.join(program, "node_modules/.bin/pulumi-ops"), ["emulators"], {
    cwd: program,
    env: { ...process.env, ...ports },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  return new Promise((resolve, reject) => {
    emulators.on("exit", (code) => reject(new Error(`emulators exited with ${code}: ${out}`)));
    emulators.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes("test hooks:")) resolve(Object.fromEntries([...out.matchAll(/export (\w+)=(\S+)/g)].map((m) => [m[1], m[2]])));
    });
  });
}

beforeAll(async () => {
  withoutEnvFallback();
  const tarball = execFileSync("npm", ["pack", "--silent", "--pack-destination", scratch], { cwd: ROOT, encoding: "utf8" })
    .trim()
    .split("\n")
    .pop()!;
  execFileSync("mkdir", ["-p", program]);
  writeFileSync(path.join(program, "Pulumi.yaml"), "name: installed\nruntime: nodejs\n");
  writeFileSync(
    path.join(program, "package.json"),
    JSON.stringify({
      name: "installed",
      private: true,
      main: "index.ts",
      dependencies: {
        "pulumi-ops": `file:${path.join(scratch, tarball)}`,
        "@pulumi/pulumi": USER_SDK,
        typescript: "5.9.3",
        "@types/node": "^22.19.0",
      },
    }),
  );
  // What `tsc --init` gives, made strict; nothing that hides a library's typing errors.
  writeFileSync(
    path.join(program, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: { strict: true, target: "ES2022", module: "commonjs", moduleResolution: "node", noEmit: true },
      files: ["index.ts"],
    }),
  );
  writeFileSync(path.join(program, "index.ts"), PROGRAM);
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"], {
    cwd: program,
    stdio: "pipe",
    timeout: 240_000,
  });
  urls = await startEmulators();
  engine = await engineStack(
    program,
    {
      "ops:edgeBaseUrl": { value: urls.EDGE_BASE_URL },
      "ops:edgeApiToken": { value: DEMO_TOKEN, secret: true },
      "ops:controlUrl": { value: urls.CONTROL_URL },
      "installed:greeting": { value: "hello-from-a-secret", secret: true },
    },
    "installed",
  );
}, 300_000);

afterAll(async () => {
  await engine?.stack.destroy().catch(() => undefined);
  await engine?.dispose();
  emulators?.kill();
  rmSync(scratch, { recursive: true, force: true });
});

describe("installed from the packed tarball", { timeout: 300_000 }, () => {
  it("the program has one copy of @pulumi/pulumi: its own", () => {
    // Every installed copy, by its directory (a deduped reference is listed once).
    const copies = execFileSync("npm", ["ls", "@pulumi/pulumi", "--all", "--parseable"], { cwd: program, encoding: "utf8" })
      .trim()
      .split("\n");
    expect([...new Set(copies)]).toEqual([path.join(program, "node_modules/@pulumi/pulumi")]);
    expect(
      JSON.parse(
        execFileSync("node", ["-p", "JSON.stringify(require('@pulumi/pulumi/package.json').version)"], { cwd: program, encoding: "utf8" }),
      ),
    ).toBe(USER_SDK);
  });

  it("ships the docs and examples README links to: every link into docs/, examples/ or to schema.json resolves in the installed package", () => {
    const installed = path.join(program, "node_modules/pulumi-ops");
    const readme = readFileSync(path.join(installed, "README.md"), "utf8");
    const targets = [...readme.matchAll(/\]\(((?:docs\/|examples\/|schema\.json)[^)#\s]*)/g)].map((m) => m[1]);
    expect(targets.length).toBeGreaterThan(5);
    expect(targets.filter((t) => !existsSync(path.join(installed, t)))).toEqual([]);
  });

  it("compiles under a default strict tsconfig: no skipLibCheck, no esModuleInterop", () => {
    const tsc = path.join(program, "node_modules/.bin/tsc");
    let said = "";
    try {
      execFileSync(tsc, ["-p", "."], { cwd: program, encoding: "utf8" });
    } catch (e) {
      said = String((e as { stdout?: string }).stdout);
    }
    expect(said).toBe("");
    // The public typings never mention zod.
    const typings = readdirSync(path.join(program, "node_modules/pulumi-ops/dist/sdk"), { recursive: true, encoding: "utf8" }).filter((f) =>
      f.endsWith(".d.ts"),
    );
    expect(typings.length).toBeGreaterThan(10);
    expect(typings.filter((f) => readFileSync(path.join(program, "node_modules/pulumi-ops/dist/sdk", f), "utf8").includes("zod"))).toEqual(
      [],
    );
  });

  it("previews, applies, changes nothing on a second up, and destroys through the engine", async () => {
    const hooks = (url: string) => fetch(`${url}/__emulator/log`).then((r) => r.json() as Promise<{ method: string }[]>);
    const preview = await engine.stack.preview();
    expect(preview.changeSummary.create).toBe(4);
    expect((await hooks(urls.EDGE_BASE_URL)).filter((e) => e.method !== "GET")).toEqual([]);
    const up = await engine.stack.up();
    expect(up.outputs.hostname.value).toBe("www.example.com");
    expect(up.outputs.zoneStatus.value).toBe("active");
    expect(up.outputs.exitCode.value).toBe(0);
    await engine.stack.up({ expectNoChanges: true });
    // Installed under node_modules, the provider is stored in state as a require of its module, not as code.
    const state = await engine.stack.exportStack();
    const record = state.deployment.resources.find((r: { type: string }) => r.type === "pulumi-nodejs:dynamic/edge:DnsRecord");
    expect(record.outputs.__provider).toMatch(/require\("pulumi-ops\/dist\/provider\/providers\/edge-DnsRecord(\.js)?"\)/);
    expect(engine.backendText()).not.toContain("hello-from-a-secret"); // the secret nested in environment stayed secret
    const destroy = await engine.stack.destroy();
    expect(destroy.summary.resourceChanges).toMatchObject({ delete: 4 });
  });
});

/**
 * The reference's YAML examples, every resource's and function's, made into one Pulumi YAML program (each example's
 * names prefixed, so they share it) and run by the YAML language host through the provider plugin against the six
 * emulators: the host holds each property to the plugin's schema, the preview checks every resource and runs every
 * function with the example's arguments, the up makes every resource, the destroy removes them. The files the
 * examples name (worker.js, a SKILL.md, a handbook) are written beside the program, as a reader would have them.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POSTS_USER_TOKEN, SKILLS_PUBLISH_TOKEN } from "../../emulators";
import { everyServiceConfig, startEveryService, stopEveryService, type EveryService } from "../../emulators/every-service";
import { buildPlugin } from "../../scripts/build-plugin";
import { engineStack, ROOT, type EngineStack } from "../../scripts/engine";
import { isWrite, SERVICES } from "../../scripts/demo-report";
import { yamlSections, yamlText } from "../../scripts/example-render";
import { FUNCTION_EXAMPLES, RESOURCE_EXAMPLES } from "../../scripts/reference-examples";
import { components } from "../../provider/component-registry";
import { withoutEnvFallback } from "../helpers/engine";
import { VERSION } from "../helpers/release-host";

const BIN = path.join(ROOT, ".tools/pulumi/bin");
const all = [...Object.entries(RESOURCE_EXAMPLES), ...Object.entries(FUNCTION_EXAMPLES)];
let services: EveryService;
let engine: EngineStack;
let dir: string;
let printed = "";

/** The YAML blocks the reference shows are these examples' own: the program below is made from what readers see. */
function shownYaml(): string[] {
  return readdirYaml().map((b) => b.trim());
}
function readdirYaml(): string[] {
  return ["control", "edge", "pages", "posts", "runner", "skills"].flatMap((m) =>
    [...readFileSync(path.join(ROOT, "docs/reference", `${m}.md`), "utf8").matchAll(/```yaml\n([\s\S]*?)```/g)].map((x) => x[1]),
  );
}

beforeAll(async () => {
  withoutEnvFallback();
  services = await startEveryService();
  dir = mkdtempSync(path.join(tmpdir(), "reference-yaml-"));
  const program = { name: "reference-examples", runtime: "yaml", resources: {}, variables: {}, outputs: {} } as Record<
    string,
    Record<string, unknown> | string
  >;
  all.forEach(([token, example], i) => {
    for (const [section, entries] of Object.entries(yamlSections(token, example, `e${i}_`)))
      Object.assign(program[section] as object, entries);
  });
  writeFileSync(path.join(dir, "Pulumi.yaml"), yamlText(program));
  writeFileSync(path.join(dir, "worker.js"), 'export default { fetch() { return new Response("hello"); } };\n');
  mkdirSync(path.join(dir, "skills/oven-care"), { recursive: true });
  copyFileSync(path.join(ROOT, "examples/ai-host/skills/oven-care/SKILL.md"), path.join(dir, "skills/oven-care/SKILL.md"));
  mkdirSync(path.join(dir, "docs"));
  writeFileSync(
    path.join(dir, "docs/oven.md"),
    ["deck-oven-handbook.md", "bake-schedule.md"]
      .map((f) => readFileSync(path.join(ROOT, "examples/ai-host/sources", f), "utf8"))
      .join("\n"),
  );
  // What an account in use has: a skill someone else published, and a short post.
  await fetch(`${services.skills.url}/api/skills/bread-proofing`, {
    method: "PUT",
    headers: { authorization: `Bearer ${SKILLS_PUBLISH_TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify({
      name: "bread-proofing",
      description: "Proofing times and temperatures for the bakery's doughs.",
      instruction: "# Bread proofing\n\nProof at 26 C.",
      category: "ops",
    }),
  });
  const container = (await (
    await fetch(
      `${services.posts.url}/v1.0/me/threads?${new URLSearchParams({ media_type: "TEXT", text: "Open at 7.", access_token: POSTS_USER_TOKEN })}`,
      { method: "POST" },
    )
  ).json()) as { id: string };
  await fetch(
    `${services.posts.url}/v1.0/me/threads_publish?${new URLSearchParams({ creation_id: container.id, access_token: POSTS_USER_TOKEN })}`,
    { method: "POST" },
  );
  expect(services.posts.posts.size).toBe(1);
  for (const name of SERVICES) services[name].log.splice(0); // what the seeding sent is not the program's

  engine = await engineStack(
    dir,
    {
      ...everyServiceConfig(services),
      "ops:controlVncPassword": { value: "kiosk-password-1", secret: true },
    },
    "examples",
    { PATH: BIN, PULUMI_OPS_QUIET: "0" },
  );
  // No registry serves the plugin: it is installed from the release tarball, as the README says for YAML.
  const [tarball] = buildPlugin(["linux-amd64"]);
  execFileSync(path.join(BIN, "pulumi"), ["plugin", "install", "resource", "ops", VERSION, "--file", tarball], {
    env: { PATH: BIN, PULUMI_HOME: path.join(engine.scratch, "home"), PULUMI_SKIP_UPDATE_CHECK: "true" },
    stdio: "pipe",
  });
}, 600_000);

afterAll(async () => {
  await engine?.dispose();
  if (services) await stopEveryService(services);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("the reference's YAML examples through the engine", { timeout: 300_000 }, () => {
  it("are the blocks the reference shows", () => {
    const made = all.map(([token, example]) => {
      const sections = yamlSections(token, example);
      return yamlText(Object.fromEntries(Object.entries(sections).filter(([, v]) => Object.keys(v).length)));
    });
    expect(shownYaml().sort()).toEqual(made.sort());
  });

  it("preview checks every resource and runs every function, writing nothing", async () => {
    const preview = await engine.stack.preview({ onOutput: (o) => (printed += o) }).catch((e: Error) => {
      throw new Error(`${e.message}\n${printed}`);
    });
    // A component (a Thread) is shown with the resources the plugin's construct made under it: one Post per text.
    const children = all.reduce(
      (n, [token, example]) => n + (components[token.slice(4)] ? (example.step.args.posts as unknown[]).length : 0),
      0,
    );
    const resources =
      all.flatMap(([token, example]) => [...(example.before ?? []), { token }].filter((s) => /:[A-Z]/.test(s.token))).length + children;
    expect(preview.changeSummary.create).toBe(resources + 1); // and the stack
    const writes = SERVICES.flatMap((name) =>
      services[name].log.filter((e) => isWrite(name, e)).map((e) => `${name} ${e.method} ${e.path}`),
    );
    expect(writes).toEqual([]);
    expect(services.control.calls.filter((c) => c.tool === "run_command")).toEqual([]);
  });

  let first: string, second: string, third: string;
  it("up makes every resource, and each function's answer reaches the outputs", async () => {
    const up = await engine.stack.up({ onOutput: (o) => (printed += o) }).catch((e: Error) => {
      throw new Error(`${e.message}\n${printed.slice(-6000)}`);
    });
    expect(up.summary.result).toBe("succeeded");
    const out = (k: string) => up.outputs[Object.keys(up.outputs).find((o) => o.endsWith(`_${k}`))!]?.value;
    const zone = [...services.edge.zones.values()].find((z) => z.name === "example.com")!;
    expect(out("zoneId")).toBe(zone.id);
    expect(out("pageName")).toBe("Example Bakery");
    expect(out("username")).toBe("examplebakery");
    expect(out("skillDescription")).toMatch(/Proofing times/);
    expect(out("zoneFileText")).toMatch(/^\$ORIGIN example\.com\.\nwww\s+300\s+IN\s+A\s+203\.0\.113\.10$/m);
    expect(typeof out("views")).toBe("number");
    expect([...services.runner.models.keys()].sort()).toEqual(["baker:latest", "llama3.2:latest", "qwen2.5:0.5b"]);
    expect([...services.skills.skills.keys()].sort()).toEqual(["bread-proofing", "oven-care", "oven-runbook"]);
    // The Thread, built by the plugin (construct): its three posts published in order, each replying to the one before.
    [first, second, third] = out("threadPostIds") as string[];
    expect(services.posts.posts.get(first)).toMatchObject({ text: "Our sourdough, step by step" });
    expect(services.posts.posts.get(second)).toMatchObject({ text: "1. Feed the starter the night before.", replied_to: first });
    expect(services.posts.posts.get(third)).toMatchObject({ text: "2. Mix, rest, fold.", replied_to: second, root_post: first });
  });

  it("destroy removes what it made", async () => {
    const destroy = await engine.stack.destroy({ onOutput: (o) => (printed += o) });
    expect(destroy.summary.result).toBe("succeeded");
    const zone = [...services.edge.zones.values()].find((z) => z.name === "example.com")!;
    expect(zone.records.size).toBe(0);
    expect(services.runner.models.size).toBe(0);
    for (const id of [first, second, third]) expect(services.posts.posts.has(id)).toBe(false); // the thread's posts
  });
});

/**
 * Skill on the Claude API's skills endpoints (ops:skillsKind = claude), against the emulator of them: the whole
 * folder uploaded (SKILL.md, a script, a reference), a change as a new version, read back without drift, a version
 * made elsewhere said at refresh, a skill the workspace holds taken only with adopt, the API's own rules at check,
 * its refusals as one line, destroy deleting the skill (versions first where the workspace asks it).
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CLAUDE_API_KEY, ClaudeSkillsEmulator } from "../../emulators";
import { call } from "../../provider/door";
import { collectWarnings } from "../../provider/log";
import { forgetPreviewChecks, previewCheck } from "../../provider/preflight";

const FIXTURE = path.resolve(__dirname, "../fixtures/claude-skill/oven-care");
let claude: ClaudeSkillsEmulator;
let folder: string;

beforeAll(async () => (claude = await new ClaudeSkillsEmulator().start()));
afterAll(() => claude.stop());
beforeEach(() => {
  claude.reset();
  claude.log.splice(0);
  folder = path.join(mkdtempSync(path.join(tmpdir(), "claude-skill-")), "oven-care");
  cpSync(FIXTURE, folder, { recursive: true });
  Object.assign(process.env, { SKILLS_KIND: "claude", ANTHROPIC_BASE_URL: claude.url, ANTHROPIC_API_KEY: CLAUDE_API_KEY });
  forgetPreviewChecks();
});
afterAll(() => {
  for (const k of ["SKILLS_KIND", "ANTHROPIC_BASE_URL", "ANTHROPIC_API_KEY"]) delete process.env[k];
});

async function checked(args: Record<string, unknown>, olds: Record<string, unknown> = {}) {
  const { inputs, failures } = await call("skills:Skill", "check", [olds, args]);
  expect(failures).toEqual([]);
  return inputs;
}

async function make(args: Record<string, unknown>) {
  const inputs = await checked(args);
  return { inputs, ...(await call("skills:Skill", "create", [inputs])) };
}

describe("Skill on the Claude API", () => {
  it("uploads the whole folder as the first version; a changed script is a new version; read back without drift; destroy deletes it", async () => {
    const s = await make({ slug: "oven-care", source: path.join(folder, "SKILL.md") });
    expect(s.inputs).toMatchObject({ publishTo: "claude", filesHash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(s.id).toMatch(/^skill_01/);
    const held = claude.skills.get(s.id)!;
    expect(held.displayName).toBe("oven-care");
    expect([...held.versions[0].files.keys()].sort()).toEqual(["SKILL.md", "references/temperatures.md", "scripts/check_oven.py"]);
    expect(s.outs).toMatchObject({
      versionId: held.versions[0].id,
      files: ["oven-care/SKILL.md", "oven-care/references/temperatures.md", "oven-care/scripts/check_oven.py"],
    });
    expect(s.outs.lines).toBe(held.versions[0].files.get("SKILL.md")!.toString().replace(/\n+$/, "").split("\n").length);
    expect(claude.log.find((e) => e.method === "POST")).toBeDefined();

    // Read back: no drift, nothing written.
    expect(await call("skills:Skill", "read", [s.id, s.outs])).toEqual({ id: s.id, props: s.outs });

    // A script changes: the folder's hash changes, the update uploads a new version (the skill's id stays).
    writeFileSync(path.join(folder, "scripts/check_oven.py"), "print('within 5 degrees')\n");
    const changed = await checked({ slug: "oven-care", source: path.join(folder, "SKILL.md") }, s.inputs);
    expect(changed.filesHash).not.toBe(s.inputs.filesHash);
    expect(await call("skills:Skill", "diff", [s.id, s.outs, changed])).toMatchObject({ changes: true, replaces: [] });
    const u = await call("skills:Skill", "update", [s.id, s.outs, changed]);
    expect(held.versions).toHaveLength(2);
    expect(u.outs.versionId).toBe(held.versions[1].id);
    expect(held.versions[1].files.get("scripts/check_oven.py")!.toString()).toBe("print('within 5 degrees')\n");
    expect(await call("skills:Skill", "diff", [s.id, u.outs, changed])).toMatchObject({ changes: false });

    await call("skills:Skill", "delete", [s.id, u.outs]);
    expect(claude.custom()).toEqual([]);
  });

  it("a version made outside the stack is said at refresh (which, when, what changed) and marked for the next up", async () => {
    const s = await make({ slug: "oven-care", source: path.join(folder, "SKILL.md") });
    const held = claude.skills.get(s.id)!;
    held.versions.push({
      ...held.versions[0],
      id: "skver_01HandMadeHandMadeHandMade",
      description: "Edited in the console.",
      createdAt: "2026-11-27T10:00:00Z",
    });
    const reading = collectWarnings(() => call("skills:Skill", "read", [s.id, s.outs]));
    const read = await reading.result;
    expect(reading.warnings.join("\n")).toMatch(
      /"oven-care" \(skill_01\w+\) changed on the Claude API: a version made outside this stack \(skver_01HandMadeHandMadeHandMade, 2026-11-27T10:00:00Z\); description "Use when a deck oven.*" → "Edited in the console\."/,
    );
    expect(read.inputs.description).toBe("Edited in the console.");
    const again = await checked({ slug: "oven-care", source: path.join(folder, "SKILL.md") }, read.inputs);
    expect(await call("skills:Skill", "diff", [s.id, read.props, again])).toMatchObject({ changes: true, replaces: [] });
  });

  it("a skill the workspace holds under the name is refused at preview and up without adopt, and taken over (a new version) with it", async () => {
    const other = await make({ slug: "oven-care", source: path.join(folder, "SKILL.md") }); // uploaded by someone else
    const inputs = await checked({ slug: "oven-care", source: path.join(folder, "SKILL.md") });
    await expect(previewCheck("skills:Skill", undefined, inputs)).rejects.toThrow(
      /already holds a skill named "oven-care" \(skill_01\w+\).*adopt: true/,
    );
    await expect(call("skills:Skill", "create", [inputs])).rejects.toThrow(/already holds a skill named "oven-care"/);
    const adopted = await make({ slug: "oven-care", source: path.join(folder, "SKILL.md"), adopt: true });
    expect(adopted.id).toBe(other.id);
    expect(claude.skills.get(other.id)!.versions).toHaveLength(2);
    expect(claude.custom()).toHaveLength(1);
  });

  it("refuses at check what the API surely refuses (a reserved word, an XML tag); a renamed skill is replaced (names are fixed); the API's own refusal is one line", async () => {
    const inline = { slug: "kitchen", instruction: "# Kitchen\n\nSteps.", followGuide: false };
    const reserved = await call("skills:Skill", "check", [{}, { ...inline, name: "claude-helper", description: "Helps." }]);
    expect(reserved.failures).toEqual([
      expect.objectContaining({ property: "name", reason: expect.stringMatching(/reserved word "claude", which the Claude API refuses/) }),
    ]);
    const tagged = await call("skills:Skill", "check", [{}, { ...inline, name: "kitchen", description: "Use <b>this</b>." }]);
    expect(tagged.failures).toEqual([expect.objectContaining({ property: "description", reason: expect.stringMatching(/XML tag/) })]);
    // Inline fields become the uploaded SKILL.md.
    const s = await make({ ...inline, name: "kitchen", description: "Runs the kitchen.", license: "MIT" });
    const doc = claude.skills.get(s.id)!.versions[0].files.get("SKILL.md")!.toString();
    expect(doc).toMatch(/^---\nname: kitchen\ndescription: Runs the kitchen\.\nlicense: MIT\n---\n\n# Kitchen/);
    const renamed = await checked({ ...inline, name: "pantry", description: "Runs the kitchen." });
    expect(await call("skills:Skill", "diff", [s.id, s.outs, renamed])).toMatchObject({ replaces: ["name"] });
    // What the service alone refuses (a name it does not take: here, one of another script) comes back as one line.
    const other = await checked({ ...inline, slug: "cafe", name: "café", description: "Runs the café." });
    await expect(call("skills:Skill", "create", [other])).rejects.toThrow(
      /^skills: HTTP 400.*the Claude API refused: Skill name in SKILL\.md can only contain lowercase letters, numbers, and hyphens\. \(invalid_request_error\)/,
    );
  });

  it("a folder that is the program's own is refused; what running a script leaves (__pycache__, *.pyc) is not uploaded", async () => {
    writeFileSync(path.join(folder, "Pulumi.yaml"), "name: x\nruntime: nodejs\n");
    const own = await call("skills:Skill", "check", [{}, { slug: "oven-care", source: path.join(folder, "SKILL.md") }]);
    expect(own.failures).toEqual([
      expect.objectContaining({
        property: "source",
        reason: expect.stringMatching(/in the program's own folder, which would be uploaded with it/),
      }),
    ]);
    rmSync(path.join(folder, "Pulumi.yaml"));
    const before = (await checked({ slug: "oven-care", source: path.join(folder, "SKILL.md") })).filesHash;
    mkdirSync(path.join(folder, "scripts/__pycache__"));
    writeFileSync(path.join(folder, "scripts/__pycache__/check_oven.cpython-311.pyc"), "bytecode");
    expect((await checked({ slug: "oven-care", source: path.join(folder, "SKILL.md") })).filesHash).toBe(before);
  });

  it("a registry skill moves to the Claude API when ops:skillsKind changes: replaced, made there first", async () => {
    delete process.env.SKILLS_KIND;
    const onRegistry = await checked({ slug: "oven-care", source: path.join(folder, "SKILL.md") });
    expect(onRegistry.publishTo).toBeUndefined();
    process.env.SKILLS_KIND = "claude";
    const onClaude = await checked({ slug: "oven-care", source: path.join(folder, "SKILL.md") }, onRegistry);
    expect(await call("skills:Skill", "diff", ["oven-care", { ...onRegistry, lines: 10 }, onClaude])).toMatchObject({
      changes: true,
      replaces: ["publishTo"],
    });
  });

  it("an upload whose answer is lost is found (its name, made since it was sent) and kept: one skill, nothing refused", async () => {
    claude.inject({ match: { method: "POST", path: "^/v1/skills$" }, count: 1, kind: "drop-after" });
    const s = await make({ slug: "oven-care", source: path.join(folder, "SKILL.md") });
    expect(claude.custom()).toHaveLength(1);
    expect(s.id).toBe(claude.custom()[0].id);
    expect(s.outs.versionId).toBe(claude.custom()[0].versions[0].id);
  });

  it("an upload whose answer is lost while the service cannot be asked is left pending, and the next refresh settles it to the skill it made", async () => {
    claude.inject({ match: { method: "POST", path: "^/v1/skills$" }, count: 1, kind: "drop-after" });
    // Once the upload is sent, the list that would find it fails (the service in trouble).
    const stop = claude.onRequest((e) => {
      if (e.method === "POST") claude.inject({ match: { method: "GET", path: "^/v1/skills$" }, count: 20, kind: "status", status: 500 });
    });
    const inputs = await checked({ slug: "oven-care", source: path.join(folder, "SKILL.md") });
    const err = (await call("skills:Skill", "create", [inputs]).catch((e: Error) => e)) as Error & {
      id?: string;
      properties?: Record<string, unknown>;
    };
    stop();
    claude.clearFaults();
    expect(err.message).toMatch(/recorded it as pending/);
    expect(err.id).toMatch(/^pending-\d+$/);
    claude.clearFaults();
    const read = await call("skills:Skill", "read", [err.id, err.properties]);
    expect(read.id).toBe(claude.custom()[0].id);
    expect(read.props.versionId).toBe(claude.custom()[0].versions[0].id);
    expect(claude.custom()).toHaveLength(1);
  });

  it("a workspace still on the beta's delete rule: the versions are deleted, then the skill", async () => {
    const legacy = await new ClaudeSkillsEmulator({ legacyDelete: true }).start();
    process.env.ANTHROPIC_BASE_URL = legacy.url;
    try {
      const s = await make({ slug: "oven-care", source: path.join(folder, "SKILL.md") });
      await call("skills:Skill", "delete", [s.id, s.outs]);
      expect(legacy.custom()).toEqual([]);
      expect(legacy.log.filter((e) => e.method === "DELETE").map((e) => e.path.replace(/skill_\w+|skver_\w+/g, "X"))).toEqual([
        "/v1/skills/X",
        "/v1/skills/X/versions/X",
        "/v1/skills/X",
      ]);
    } finally {
      await legacy.stop();
    }
  });

  it("pulumi-ops import --skills writes each of the workspace's skills with adopt and a folder to fill, saying its files cannot be read back; the first up takes it over", async () => {
    const s = await make({ slug: "oven-care", source: path.join(folder, "SKILL.md") });
    const out = mkdtempSync(path.join(tmpdir(), "claude-import-"));
    const { importCommand } = await import("../../provider/cli/import");
    const said: string[] = [];
    const log = console.log;
    console.log = (m: string) => said.push(String(m));
    try {
      expect(await importCommand(["--skills", "--out", out])).toBe(0);
    } finally {
      console.log = log;
    }
    expect(said.join("\n")).toMatch(
      new RegExp(`Claude skill ${s.id} \\("oven-care"\\): its files cannot be read back; put them in skills/oven-care/`),
    );
    const program = readFileSync(path.join(out, "index.ts"), "utf8");
    const written = JSON.parse(/new ops\.skills\.Skill\("oven-care", (\{[\s\S]*?\n\})/.exec(program)![1]);
    expect(written).toEqual({ slug: "oven-care", source: "skills/oven-care/SKILL.md", adopt: true, followGuide: false });
    expect(JSON.parse(readFileSync(path.join(out, "import.json"), "utf8")).resources).toEqual([]); // its files cannot come from a read
    // Left as written, the placeholder is refused at check: up would upload it as the skill's newest version.
    const placeholder = await call("skills:Skill", "check", [{}, { ...written, source: path.join(out, written.source) }]);
    expect(placeholder.failures).toEqual([
      expect.objectContaining({
        property: "source",
        reason: expect.stringMatching(/placeholder `pulumi-ops import` wrote: put the skill's own files in/),
      }),
    ]);
    // The folder filled with the skill's files, the first up takes the skill over as a new version.
    cpSync(folder, path.join(out, "skills/oven-care"), { recursive: true });
    const taken = await make({ ...written, source: path.join(out, written.source) });
    expect(taken.id).toBe(s.id);
    expect(claude.skills.get(s.id)!.versions).toHaveLength(2);
  });
});

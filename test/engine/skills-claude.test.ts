/**
 * A skill folder on the Claude API's skills endpoints through the real Pulumi engine (ops:skillsKind = claude,
 * against the emulator of them): the preview sends nothing; up uploads SKILL.md with its script and reference; the
 * official TypeScript SDK lists what was made; a changed reference is a new version; the next up and a refresh change
 * nothing; a version uploaded by hand is said at refresh and replaced by the program's at up; a GeneratedSkill (the
 * runner emulator's model writing it) uploaded there too, read by the official SDK, and read back without drift;
 * destroy leaves no skill.
 */
import { cpSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import Anthropic, { toFile } from "@anthropic-ai/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { engineStack, ROOT } from "../../scripts/engine";
import { CLAUDE_API_KEY, ClaudeSkillsEmulator, RunnerEmulator } from "../../emulators";
import { withoutEnvFallback, type EngineStack } from "../helpers/engine";

let claude: ClaudeSkillsEmulator;
let runner: RunnerEmulator;
let engine: EngineStack;
let sdk: Anthropic;
const folder = path.join(mkdtempSync(path.join(tmpdir(), "claude-skill-")), "oven-care");
const writes = () => claude.log.filter((e) => e.method !== "GET");

beforeAll(async () => {
  withoutEnvFallback();
  cpSync(path.join(ROOT, "test/fixtures/claude-skill/oven-care"), folder, { recursive: true });
  [claude, runner] = await Promise.all([new ClaudeSkillsEmulator().start(), new RunnerEmulator().start()]);
  sdk = new Anthropic({ apiKey: CLAUDE_API_KEY, baseURL: claude.url, maxRetries: 0 });
  engine = await engineStack(
    path.join(ROOT, "test/programs/skills-claude"),
    {
      skillSource: { value: path.join(folder, "SKILL.md") },
      "ops:skillsKind": { value: "claude" },
      "ops:skillsClaudeUrl": { value: claude.url },
      "ops:skillsClaudeApiKey": { value: CLAUDE_API_KEY, secret: true },
      "ops:runnerHost": { value: runner.url },
    },
    "skills-claude",
    { PULUMI_OPS_QUIET: "0" },
  );
}, 600_000);

afterAll(async () => {
  await engine?.dispose();
  await Promise.all([claude?.stop(), runner?.stop()]);
});

async function listed() {
  const out = [];
  for await (const s of sdk.skills.list({ source: "custom" })) out.push(s);
  return out;
}

describe("a skill folder on the Claude API, through the engine", { timeout: 300_000 }, () => {
  it("1. preview sends nothing", async () => {
    const preview = await engine.stack.preview();
    expect(preview.changeSummary.create).toBe(2);
    expect(writes()).toEqual([]);
  });

  it("2. up uploads the folder; the official SDK lists the skill and its files are there", async () => {
    const up = await engine.stack.up();
    expect(up.summary.resourceChanges).toMatchObject({ create: 2 });
    expect(up.outputs.files.value).toEqual([
      "oven-care/SKILL.md",
      "oven-care/references/temperatures.md",
      "oven-care/scripts/check_oven.py",
    ]);
    const skills = await listed();
    expect(skills).toEqual([
      expect.objectContaining({ id: up.outputs.skillId.value, display_name: "oven-care", latest_version_id: up.outputs.versionId.value }),
    ]);
    expect([...claude.skills.get(up.outputs.skillId.value)!.versions[0].files.keys()].sort()).toEqual([
      "SKILL.md",
      "references/temperatures.md",
      "scripts/check_oven.py",
    ]);
    expect(engine.backendText()).not.toContain(CLAUDE_API_KEY);
  });

  it("3. a changed reference file is a new version of the same skill", async () => {
    writeFileSync(
      path.join(folder, "references/temperatures.md"),
      "# Baking temperatures\n\n| Bake | Celsius |\n|---|---|\n| Sourdough | 245 |\n",
    );
    const up = await engine.stack.up();
    expect(up.summary.resourceChanges).toMatchObject({ update: 1 });
    const held = claude.skills.get(up.outputs.skillId.value)!;
    expect(held.versions).toHaveLength(2);
    expect(held.versions[1].files.get("references/temperatures.md")!.toString()).toContain("| Sourdough | 245 |");
    expect((await sdk.skills.versions.retrieve("latest", { skill_id: held.id })).id).toBe(up.outputs.versionId.value);
  });

  it("4. the next up changes nothing; a refresh reads it back without drift", async () => {
    const before = writes().length;
    await engine.stack.up({ expectNoChanges: true });
    const refresh = await engine.stack.refresh();
    expect(refresh.summary.resourceChanges).toEqual({ same: 2 });
    expect(writes().length).toBe(before);
  });

  it("5. a version uploaded by hand is said at refresh, and the next up uploads the program's again", async () => {
    const id = (await engine.stack.outputs()).skillId.value;
    const doc = `---\nname: oven-care\ndescription: Edited by hand in the console.\n---\n\n# Oven care\n`;
    const hand = await sdk.skills.versions.create(id, { files: [await toFile(Buffer.from(doc), "oven-care/SKILL.md")] });
    let said = "";
    await engine.stack.refresh({ onOutput: (o) => (said += o), onError: (o) => (said += o) });
    expect(said).toMatch(new RegExp(`a version made outside this stack \\(${hand.id}`));
    expect(said).toMatch(/description ".*" → "Edited by hand in the console\."/);
    const up = await engine.stack.up();
    expect(up.summary.resourceChanges).toMatchObject({ update: 1 });
    const latest = await sdk.skills.versions.retrieve("latest", { skill_id: id });
    expect(latest.description).toMatch(/^Use when a deck oven/);
    expect(claude.skills.get(id)!.versions).toHaveLength(4);
  });

  it("6. a GeneratedSkill: the model's document uploaded as a skill the official SDK reads; the next up and a refresh change nothing", async () => {
    await engine.stack.setConfig("skills-claude:generatedFrom", { value: path.join(ROOT, "examples/ai-host/sources") });
    const preview = await engine.stack.preview();
    expect(preview.changeSummary.create).toBe(2); // the model and the generated skill
    const sent = writes().length;
    const up = await engine.stack.up();
    expect(up.summary.resourceChanges).toMatchObject({ create: 2 });
    expect(writes().length).toBe(sent + 1); // one upload
    const id = up.outputs.runbookId.value;
    expect((await listed()).map((s) => s.display_name).sort()).toEqual(["oven-care", "oven-runbook"]);
    const latest = await sdk.skills.versions.retrieve("latest", { skill_id: id });
    expect(latest).toMatchObject({ id: up.outputs.runbookVersionId.value, name: "oven-runbook" });
    expect(latest.description).toMatch(/deck ovens/);
    expect(claude.skills.get(id)!.versions[0].files.get("SKILL.md")!.toString()).toMatch(
      /^---\nname: oven-runbook\n[^]*## Troubleshooting/,
    );
    await engine.stack.up({ expectNoChanges: true });
    expect((await engine.stack.refresh()).summary.resourceChanges).toEqual({ same: 4 });
    expect(writes().length).toBe(sent + 1);
  });

  it("7. destroy leaves no skill", async () => {
    await engine.stack.destroy();
    expect(await listed()).toEqual([]);
    expect(runner.models.size).toBe(0);
  });
});

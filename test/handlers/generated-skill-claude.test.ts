/**
 * GeneratedSkill on the Claude API's skills endpoints (ops:skillsKind = claude), as Skill is there: what the runner
 * model wrote uploaded as a skill's SKILL.md (the format's fields in its front matter), read back without drift, a
 * changed source generated again as a new version, a version made outside the stack said at refresh and generated
 * again at the next up, a skill the workspace holds taken only with adopt, a generation the API would refuse
 * generated again, destroy deleting it; the registry is never written to.
 */
import * as path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CLAUDE_API_KEY, ClaudeSkillsEmulator } from "../../emulators";
import { call } from "../../provider/door";
import { collectWarnings } from "../../provider/log";
import { forgetPreviewChecks, previewCheck } from "../../provider/preflight";
import { useAi } from "../helpers/ai";

const { runner, skills } = useAi();
const EX = path.resolve(__dirname, "../../examples/ai-host");
const sources = [path.join(EX, "sources/deck-oven-handbook.md"), path.join(EX, "sources/bake-schedule.md")];
const ARGS = { slug: "oven-runbook", sources, model: "qwen2.5:0.5b", topic: "running the deck ovens", license: "MIT" };
let claude: ClaudeSkillsEmulator;

beforeAll(async () => (claude = await new ClaudeSkillsEmulator().start()));
afterAll(async () => {
  await claude.stop();
  for (const k of ["SKILLS_KIND", "ANTHROPIC_BASE_URL", "ANTHROPIC_API_KEY"]) delete process.env[k];
});
beforeEach(async () => {
  claude.reset();
  claude.log.splice(0);
  Object.assign(process.env, { SKILLS_KIND: "claude", ANTHROPIC_BASE_URL: claude.url, ANTHROPIC_API_KEY: CLAUDE_API_KEY });
  forgetPreviewChecks();
  const model = await call("runner:RunnerModel", "check", [{}, { name: "qwen2.5:0.5b" }]);
  await call("runner:RunnerModel", "create", [model.inputs]);
});

async function checked(args: Record<string, unknown>, olds: Record<string, unknown> = {}) {
  const { inputs, failures } = await call("skills:GeneratedSkill", "check", [olds, args]);
  expect(failures).toEqual([]);
  return inputs;
}
async function make(args: Record<string, unknown>) {
  const inputs = await checked(args);
  return { inputs, ...(await call("skills:GeneratedSkill", "create", [inputs])) };
}
const documentOf = (id: string, at = -1) => claude.skills.get(id)!.versions.at(at)!.files.get("SKILL.md")!.toString();

describe("GeneratedSkill on the Claude API", () => {
  it("uploads what the model wrote as a skill's SKILL.md; read back without drift; a changed source is a new version; destroy deletes it", async () => {
    const g = await make(ARGS);
    expect(g.inputs.publishTo).toBe("claude");
    expect(g.id).toMatch(/^skill_01/);
    const held = claude.skills.get(g.id)!;
    expect(held.displayName).toBe("oven-runbook");
    expect([...held.versions[0].files.keys()]).toEqual(["SKILL.md"]);
    const doc = documentOf(g.id);
    expect(doc).toMatch(/^---\nname: oven-runbook\ndescription: [^]*deck ovens[^]*\nlicense: MIT\n---\n\n# Running the deck ovens\n/);
    expect(g.outs).toMatchObject({ publishTo: "claude", versionId: held.versions[0].id, name: "oven-runbook", attempts: 1 });
    expect(g.outs.lines).toBe(doc.replace(/\n+$/, "").split("\n").length);
    expect(skills.log.filter((e) => e.method !== "GET")).toEqual([]); // the registry is not written to

    expect(await call("skills:GeneratedSkill", "read", [g.id, g.outs])).toEqual({ id: g.id, props: g.outs });
    expect((await call("skills:GeneratedSkill", "diff", [g.id, g.outs, await checked(ARGS)])).changes).toBe(false);
    // The registry's own metadata is not the Claude API's: a category alone changes nothing there.
    expect((await call("skills:GeneratedSkill", "diff", [g.id, g.outs, await checked({ ...ARGS, category: "ops" })])).changes).toBe(false);

    const chats = runner.count("POST", /chat/);
    const other = await checked({ ...ARGS, topic: "the ovens at night" });
    expect(await call("skills:GeneratedSkill", "diff", [g.id, g.outs, other])).toMatchObject({ changes: true, replaces: [] });
    const u = await call("skills:GeneratedSkill", "update", [g.id, g.outs, other]);
    expect(runner.count("POST", /chat/)).toBeGreaterThan(chats);
    expect(held.versions).toHaveLength(2);
    expect(u.outs.versionId).toBe(held.versions[1].id);
    expect(documentOf(g.id)).toMatch(/ovens at night/);

    await call("skills:GeneratedSkill", "delete", [g.id, u.outs]);
    expect(claude.custom()).toEqual([]);
  });

  it("a version made outside the stack is said at refresh and generated again at the next up", async () => {
    const g = await make(ARGS);
    const held = claude.skills.get(g.id)!;
    held.versions.push({
      ...held.versions[0],
      id: "skver_01HandMadeHandMadeHandMade",
      description: "Edited.",
      createdAt: "2026-11-27T10:00:00Z",
    });
    const reading = collectWarnings(() => call("skills:GeneratedSkill", "read", [g.id, g.outs]));
    const read = await reading.result;
    expect(reading.warnings.join("\n")).toMatch(
      /"oven-runbook" \(skill_01\w+\) changed on the Claude API: a version made outside this stack \(skver_01HandMadeHandMadeHandMade, 2026-11-27T10:00:00Z\); description .* → "Edited\."; the next up generates it again/,
    );
    expect(await call("skills:GeneratedSkill", "diff", [g.id, read.props, await checked(ARGS)])).toMatchObject({
      changes: true,
      replaces: [],
    });
    const u = await call("skills:GeneratedSkill", "update", [g.id, read.props, await checked(ARGS)]);
    expect(held.versions).toHaveLength(3);
    expect(u.outs.versionId).toBe(held.versions[2].id);
    expect(await call("skills:GeneratedSkill", "read", [g.id, u.outs])).toEqual({ id: g.id, props: u.outs });
  });

  it("a skill the workspace holds under the slug is refused at preview and up without adopt, and taken over (a new version) with it", async () => {
    const other = await make(ARGS); // uploaded by someone else
    const inputs = await checked(ARGS);
    await expect(previewCheck("skills:GeneratedSkill", undefined, inputs)).rejects.toThrow(
      /already holds a skill named "oven-runbook" \(skill_01\w+\).*adopt: true/,
    );
    await expect(call("skills:GeneratedSkill", "create", [inputs])).rejects.toThrow(/already holds a skill named "oven-runbook"/);
    const adopted = await make({ ...ARGS, adopt: true });
    expect(adopted.id).toBe(other.id);
    expect(claude.skills.get(other.id)!.versions).toHaveLength(2);
    expect(claude.custom()).toHaveLength(1);
  });

  it("a generation the Claude API would refuse (a reserved word in its name) is generated again, then given up on with the reason; nothing uploaded", async () => {
    await expect(make({ ...ARGS, slug: "claude-oven-runbook", maxAttempts: 2 })).rejects.toThrow(
      /no valid skill after 2 generations; the last answer: the name holds "claude", a word the Claude API reserves/,
    );
    expect(runner.count("POST", /chat/)).toBe(2);
    expect(claude.custom()).toEqual([]);
  });

  it("moves between the registry and the Claude API as ops:skillsKind changes: replaced, made at the new place", async () => {
    delete process.env.SKILLS_KIND;
    const g = await make(ARGS);
    expect(skills.skills.has("oven-runbook")).toBe(true);
    process.env.SKILLS_KIND = "claude";
    const moved = await checked(ARGS, g.inputs);
    expect(await call("skills:GeneratedSkill", "diff", [g.id, g.outs, moved])).toMatchObject({ changes: true, replaces: ["publishTo"] });
    const made = await call("skills:GeneratedSkill", "create", [moved]);
    expect(made.id).toMatch(/^skill_01/);
    // The replaced one is the registry's to remove (this registry has no delete: it is left published, and said).
    const deleting = collectWarnings(() => call("skills:GeneratedSkill", "delete", [g.id, g.outs]));
    await deleting.result;
    expect(deleting.warnings.join("\n")).toMatch(/the registry offers no delete, so skill "oven-runbook" stays published/);
    expect(claude.custom()).toHaveLength(1);
  });
});

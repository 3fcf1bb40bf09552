import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { call } from "../../provider/door";
import { collectWarnings } from "../../provider/log";
import { useAi } from "../helpers/ai";

const { runner, skills } = useAi();
const EX = path.resolve(__dirname, "../../examples/ai-host");

async function make(type: string, args: Record<string, unknown>) {
  const { inputs, failures } = await call(type, "check", [{}, args]);
  expect(failures).toEqual([]);
  return { inputs, ...(await call(type, "create", [inputs])) };
}

describe("RunnerModel", () => {
  it("pulls by name, normalised to :latest, reads, and removes (absent is fine)", async () => {
    const m = await make("runner:RunnerModel", { name: "TinyLlama" });
    expect(m.id).toBe("tinyllama:latest");
    expect(m.outs).toMatchObject({ family: "llama", parameterSize: "1B", quantizationLevel: "Q4_0" });
    expect((await call("runner:RunnerModel", "read", [m.id, m.outs])).inputs).toBeUndefined();
    await call("runner:RunnerModel", "delete", [m.id, m.outs]);
    await call("runner:RunnerModel", "delete", [m.id, m.outs]);
    expect(await call("runner:RunnerModel", "read", [m.id, m.outs])).toEqual({});
  });

  it("creates from a definition file (pulling the base), updates in place when the definition changes", async () => {
    const m = await make("runner:RunnerModel", { name: "baker", definitionFile: path.join(EX, "baker.model") });
    expect(runner.models.get("baker:latest")).toMatchObject({
      system: expect.stringMatching(/bakery's assistant/),
      parameters: { temperature: 0.2, num_ctx: 4096 },
    });
    expect(runner.models.has("qwen2.5:0.5b")).toBe(true);
    const changed = (
      await call("runner:RunnerModel", "check", [
        {},
        { name: "baker", from: "qwen2.5:0.5b", system: "Be terse.", parameters: { temperature: 0.5 } },
      ])
    ).inputs;
    expect(await call("runner:RunnerModel", "diff", [m.id, m.outs, changed])).toMatchObject({ changes: true, replaces: [] });
    // Another spelling of the same model is not a replacement (made first, the old one's delete would remove it).
    const respelled = (
      await call("runner:RunnerModel", "check", [{}, { name: "baker:latest", definitionFile: path.join(EX, "baker.model") }])
    ).inputs;
    expect(await call("runner:RunnerModel", "diff", [m.id, m.outs, respelled])).toMatchObject({ replaces: [] });
    const { outs } = await call("runner:RunnerModel", "update", [m.id, m.outs, changed]);
    expect(runner.models.get("baker:latest")!.system).toBe("Be terse.");
    expect(outs.digest).not.toBe(m.outs.digest);
  });

  it("finds a model replaced out of band and marks it to be made again", async () => {
    const m = await make("runner:RunnerModel", { name: "qwen2.5:0.5b" });
    runner.models.get("qwen2.5:0.5b")!.digest = "f".repeat(64);
    const read = await call("runner:RunnerModel", "read", [m.id, m.outs]);
    expect(await call("runner:RunnerModel", "diff", [m.id, read.props, m.inputs])).toMatchObject({ changes: true });
  });

  it("a created model changed out of band is said field by field (system prompt, parameter), and those fields kept as the runner has them for the restoring preview", async () => {
    const m = await make("runner:RunnerModel", {
      name: "drifty",
      from: "qwen2.5:0.5b",
      system: "Be brief.",
      parameters: { temperature: 0.2 },
    });
    const held = runner.models.get("drifty:latest")!;
    Object.assign(held, { system: "Be verbose.", parameters: { ...held.parameters, temperature: 0.9 }, digest: "e".repeat(64) });
    const reading = collectWarnings(() => call("runner:RunnerModel", "read", [m.id, m.outs]));
    const read = await reading.result;
    expect(reading.warnings.join("\n")).toMatch(
      /drifty:latest was replaced out of band \(digest eeeeeeeeeeee, expected [0-9a-f]{12}\): the system prompt "Be brief\." → "Be verbose\."; parameter temperature "0\.2" → "0\.9"/,
    );
    expect(read.inputs).toMatchObject({ system: "Be verbose.", parameters: { temperature: 0.9 } });
    expect(await call("runner:RunnerModel", "diff", [m.id, read.props, m.inputs])).toMatchObject({ changes: true });
  });

  it("explains an unknown model, a full disk and an unreachable runner", async () => {
    await expect(make("runner:RunnerModel", { name: "no-such-model" })).rejects.toThrow(/file does not exist.*Check the model name/);
    const { RunnerEmulator } = await import("../../emulators");
    const small = await new RunnerEmulator({ diskBytes: 100_000_000 }).start();
    process.env.RUNNER_HOST = small.url;
    await expect(make("runner:RunnerModel", { name: "tinyllama" })).rejects.toThrow(/no space left.*free storage/);
    expect(small.models.size).toBe(0);
    await small.stop();
    process.env.RUNNER_HOST = "127.0.0.1:9";
    await expect(make("runner:RunnerModel", { name: "tinyllama" })).rejects.toThrow(
      /does not answer.*loopback address only unless OLLAMA_HOST is set where it runs/,
    );
  });

  it("refuses at check: a bad name, parameters without a base, a parameter name that is not one, a broken definition file", async () => {
    const check = (a: object) => call("runner:RunnerModel", "check", [{}, a]);
    expect((await check({ name: "bad name!" })).failures[0].property).toBe("name");
    expect((await check({ name: "x", system: "hi" })).failures[0]).toMatchObject({ property: "from" });
    expect((await check({ name: "x", from: "qwen2.5:0.5b", parameters: { "warm th": 1 } })).failures[0].reason).toMatch(
      /parameter name "warm th" must be letters, digits and _/,
    );
    expect((await check({ name: "x", definitionFile: path.join(EX, "SKILL-missing.model") })).failures[0].reason).toMatch(/ENOENT/);
    expect(runner.log).toEqual([]);
  });
});

describe("Skill", () => {
  it("publishes from a SKILL.md, updates on edit, reads drift and deletion", async () => {
    const s = await make("skills:Skill", {
      slug: "oven-care",
      source: path.join(EX, "skills/oven-care/SKILL.md"),
      category: "ops",
      tags: ["oven"],
    });
    expect(skills.skills.get("oven-care")).toMatchObject({ name: "oven-care", category: "ops", tags: ["oven"] });
    expect((await call("skills:Skill", "read", [s.id, s.outs])).inputs).toBeUndefined();
    const tagged = (
      await call("skills:Skill", "check", [
        {},
        { slug: "oven-care", source: path.join(EX, "skills/oven-care/SKILL.md"), category: "ops", tags: ["oven", "safety"] },
      ])
    ).inputs;
    expect(await call("skills:Skill", "diff", [s.id, s.outs, tagged])).toMatchObject({ changes: true, replaces: [] });
    skills.skills.get("oven-care")!.instruction += "\nEdited by hand.";
    expect((await call("skills:Skill", "read", [s.id, s.outs])).inputs.contentHash).not.toBe(s.outs.contentHash);
    skills.skills.delete("oven-care");
    expect(await call("skills:Skill", "read", [s.id, s.outs])).toEqual({});
  });

  it("get() of a skill nothing has fails clearly instead of reading nothing", async () => {
    await expect(call("skills:Skill", "read", ["no-such-skill", {}])).rejects.toThrow(
      /Skill\.get: nothing has the id no-such-skill.*docs\/reference\/skills\.md/,
    );
  });

  it("leaves the skill published when the registry has no delete", async () => {
    const s = await make("skills:Skill", { slug: "oven-care", source: path.join(EX, "skills/oven-care/SKILL.md") });
    await call("skills:Skill", "delete", [s.id, s.outs]);
    expect(skills.skills.has("oven-care")).toBe(true);
  });

  it("deletes when the registry offers DELETE", async () => {
    const { SkillsEmulator, SKILLS_PUBLISH_TOKEN } = await import("../../emulators");
    const withDelete = await new SkillsEmulator({ publishToken: SKILLS_PUBLISH_TOKEN, allowDelete: true }).start();
    process.env.SKILLS_URL = withDelete.url;
    try {
      const s = await make("skills:Skill", { slug: "oven-care", source: path.join(EX, "skills/oven-care/SKILL.md") });
      await call("skills:Skill", "delete", [s.id, s.outs]);
      expect(withDelete.skills.has("oven-care")).toBe(false);
      expect(withDelete.count("DELETE")).toBe(1);
    } finally {
      await withDelete.stop();
    }
  });

  it("fails at preview on hard problems with their line, before anything is sent", async () => {
    const r = await call("skills:Skill", "check", [{}, { slug: "Bad_Slug", name: "Bad Name", description: "", instruction: "no title" }]);
    expect(r.failures.map((f: { property: string }) => f.property)).toEqual(["slug"]);
    const doc = await call("skills:Skill", "check", [
      {},
      { slug: "x", name: "x", description: "d", instruction: "# X\n\nOverview.\n\n## Recipes\n- r\n" },
    ]);
    expect(doc.failures.map((f: { reason: string }) => f.reason)).toContainEqual(
      expect.stringMatching(/^line \d+: the prerequisites section/),
    );
    expect(skills.log).toEqual([]);
  });
});

describe("GeneratedSkill", () => {
  const sources = [path.join(EX, "sources/deck-oven-handbook.md"), path.join(EX, "sources/bake-schedule.md")];

  it("generates with the runner, retries an invalid answer, publishes, and regenerates only on change", async () => {
    await make("runner:RunnerModel", { name: "qwen2.5:0.5b" });
    runner.invalidSkillAnswers = 1;
    const g = await make("skills:GeneratedSkill", {
      slug: "oven-runbook",
      sources,
      model: "qwen2.5:0.5b",
      topic: "running the deck ovens",
    });
    expect(g.outs.attempts).toBe(2);
    expect(skills.skills.get("oven-runbook")).toMatchObject({ name: "oven-runbook", description: expect.stringMatching(/deck ovens/) });
    const again = (
      await call("skills:GeneratedSkill", "check", [
        {},
        { slug: "oven-runbook", sources, model: "qwen2.5:0.5b", topic: "running the deck ovens" },
      ])
    ).inputs;
    expect((await call("skills:GeneratedSkill", "diff", [g.id, g.outs, again])).changes).toBe(false);
    const other = (
      await call("skills:GeneratedSkill", "check", [
        {},
        { slug: "oven-runbook", sources, model: "llama3.2", topic: "running the deck ovens" },
      ])
    ).inputs;
    expect((await call("skills:GeneratedSkill", "diff", [g.id, g.outs, other])).changes).toBe(true);
  });

  it("a change of metadata alone republishes what was generated, without asking the model", async () => {
    await make("runner:RunnerModel", { name: "qwen2.5:0.5b" });
    const g = await make("skills:GeneratedSkill", { slug: "oven-runbook", sources, model: "qwen2.5:0.5b", category: "ops" });
    const generated = skills.skills.get("oven-runbook")!;
    const chats = runner.count("POST", /chat/);
    const news = (
      await call("skills:GeneratedSkill", "check", [
        {},
        { slug: "oven-runbook", sources, model: "qwen2.5:0.5b", category: "dev", tags: ["ovens"] },
      ])
    ).inputs;
    expect((await call("skills:GeneratedSkill", "diff", [g.id, g.outs, news])).changes).toBe(true);
    const { outs } = await call("skills:GeneratedSkill", "update", [g.id, g.outs, news]);
    expect(runner.count("POST", /chat/)).toBe(chats); // no generation
    expect(skills.skills.get("oven-runbook")).toMatchObject({
      category: "dev",
      tags: ["ovens"],
      instruction: generated.instruction,
      description: generated.description,
    });
    expect(outs).toMatchObject({ category: "dev", tags: ["ovens"], contentHash: g.outs.contentHash });
    // The model changed: generated anew.
    const other = (
      await call("skills:GeneratedSkill", "check", [
        {},
        { slug: "oven-runbook", sources, model: "qwen2.5:0.5b", category: "dev", tags: ["ovens"], topic: "another topic" },
      ])
    ).inputs;
    await call("skills:GeneratedSkill", "update", [g.id, outs, other]);
    expect(runner.count("POST", /chat/)).toBeGreaterThan(chats);
  });

  it("gives up after maxAttempts invalid answers, publishing nothing", async () => {
    await make("runner:RunnerModel", { name: "qwen2.5:0.5b" });
    runner.invalidSkillAnswers = 5;
    await expect(make("skills:GeneratedSkill", { slug: "oven-runbook", sources, model: "qwen2.5:0.5b", maxAttempts: 2 })).rejects.toThrow(
      /no valid skill after 2 generations.*troubleshooting/,
    );
    expect(skills.skills.size).toBe(0);
  });

  it("checks the sources' size at preview", async () => {
    const r = await call("skills:GeneratedSkill", "check", [{}, { slug: "tiny", sources: [path.join(EX, "baker.model")], model: "m" }]);
    expect(r.failures[0]).toMatchObject({
      property: "sources",
      reason: expect.stringMatching(/target is 10000 to 40000: add source text/),
    });
  });
});

describe("runner and skills functions", () => {
  it("list models and search skills", async () => {
    const runnerFns = await import("../../provider/runner/functions");
    const skillFns = await import("../../provider/skills/functions");
    await make("runner:RunnerModel", { name: "qwen2.5:0.5b" });
    expect((await runnerFns.listModels()).map((m) => m.name)).toEqual(["qwen2.5:0.5b"]);
    expect(await runnerFns.listRunningModels()).toEqual([]);
    await make("skills:Skill", { slug: "oven-care", source: path.join(EX, "skills/oven-care/SKILL.md") });
    expect((await skillFns.searchSkills({ q: "calibration" })).map((s) => s.slug)).toEqual(["oven-care"]);
    expect((await skillFns.getSkill({ slug: "oven-care" })).name).toBe("oven-care");
    expect(await skillFns.getSkillMarkdown({ slug: "oven-care" })).toMatch(/^---\nname: oven-care\n/);
  });
});

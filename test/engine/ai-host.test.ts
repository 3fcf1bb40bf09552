/**
 * The ai-host example through the real Pulumi engine against the runner and skills emulators: preview without
 * writes, a pull that fails mid-way (full disk) leaving no half state and converging once storage is freed,
 * no-op up, definition and skill edits updating in place, a model removed out of band, destroy.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RunnerEmulator, SKILLS_PUBLISH_TOKEN, SkillsEmulator } from "../../emulators";
import { exampleStack, ROOT, timed, timings, withoutEnvFallback, type EngineStack } from "../helpers/engine";

let runner: RunnerEmulator;
let skills: SkillsEmulator;
let engine: EngineStack;
const writes = () => [...runner.log, ...skills.log].filter((e) => e.method !== "GET" && !(e.method === "POST" && e.path === "/api/show"));

beforeAll(async () => {
  withoutEnvFallback();
  // Room for nothing at first: the first pull fails part way through.
  runner = await new RunnerEmulator({ diskBytes: 200_000_000 }).start();
  skills = await new SkillsEmulator({ publishToken: SKILLS_PUBLISH_TOKEN }).start();
  engine = await exampleStack("ai-host", {
    "ops:runnerHost": { value: runner.url },
    "ops:skillsUrl": { value: skills.url },
    "ops:skillsToken": { value: SKILLS_PUBLISH_TOKEN, secret: true },
  });
}, 300_000);

afterAll(async () => {
  await engine?.dispose();
  await runner?.stop();
  await skills?.stop();
  console.log(`ai-host engine timings (ms): ${JSON.stringify(timings)}`);
});

describe("ai-host example through the Pulumi engine", { timeout: 300_000 }, () => {
  it("1. preview lists the creates and sends no write request", async () => {
    const preview = await timed("preview", () => engine.stack.preview());
    expect(preview.changeSummary.create).toBe(5);
    expect(writes()).toEqual([]);
  });

  it("2. a pull that fails mid-way leaves no half state; with storage freed, the next up converges", async () => {
    let printed = "";
    const failed = await engine.stack.up({ onOutput: (o) => (printed += o) }).catch((e: Error) => e);
    expect(String(failed)).toMatch(/no space left on device/);
    expect(printed).toMatch(/free storage/);
    expect(runner.models.size).toBe(0); // nothing half-pulled
    const state = await engine.stack.exportStack();
    expect(state.deployment.resources.filter((r: { type: string }) => r.type.includes("RunnerModel"))).toEqual([]);

    runner.options.diskBytes = 50 * 1024 ** 3;
    let progress = "";
    const up = await timed("up", () => engine.stack.up({ onOutput: (o) => (progress += o) }));
    expect(up.summary.resourceChanges).toMatchObject({ create: 3, same: 2 }); // the stack and the hand-written skill made it the first time
    expect(progress).toMatch(/pull qwen2\.5:0\.5b: pulling \w+ \d+% \(\d+ of \d+ MB\)/);
    expect([...runner.models.keys()].sort()).toEqual(["baker:latest", "qwen2.5:0.5b"]);
    expect([...skills.skills.keys()].sort()).toEqual(["oven-care", "oven-runbook"]);
    expect(up.outputs.models.value).toEqual(expect.arrayContaining(["baker:latest", "qwen2.5:0.5b"]));

    const before = writes().length;
    const again = await timed("up (no-op)", () => engine.stack.up({ expectNoChanges: true }));
    expect(again.summary.resourceChanges).toEqual({ same: 5 });
    expect(writes().slice(before)).toEqual([]);
  });

  it("2b. a second stack declaring the same model and skill fails its preview, naming adopt or the skill's owner; nothing is written", async () => {
    const other = await exampleStack(
      "ai-host",
      {
        "ops:runnerHost": { value: runner.url },
        "ops:skillsUrl": { value: skills.url },
        "ops:skillsToken": { value: SKILLS_PUBLISH_TOKEN, secret: true },
      },
      "other",
    );
    try {
      const before = writes().length;
      const MODEL = /already has a model qwen2\.5:0\.5b \(pulled by hand or made by another stack\)\. Set `adopt: true`/;
      // The skill carries the first stack's label: it is refused naming that stack (adopt would not take it).
      const SKILL = /the registry's skill "oven-care" belongs to stack [\w.-]+\/test \(resource oven-care\), which published it/;
      const previewFails = async () => {
        let printed = "";
        await expect(other.stack.preview({ onOutput: (o) => (printed += o) })).rejects.toThrow();
        return printed;
      };
      // The engine stops at the first failed resource, whichever it checks first: with one kind taken over by its
      // recovery switch, the other kind's refusal shows.
      expect(await previewFails()).toMatch(new RegExp(`${MODEL.source}|${SKILL.source}`));
      await other.stack.setConfig("ops:runnerAdoptExisting", { value: "true" });
      expect(await previewFails()).toMatch(SKILL);
      // A recovery switch takes no other stack's labelled skill either: whichever the engine checks first still fails.
      await other.stack.setAllConfig({ "ops:runnerAdoptExisting": { value: "false" }, "ops:skillsAdoptExisting": { value: "true" } });
      expect(await previewFails()).toMatch(new RegExp(`${MODEL.source}|${SKILL.source}`));
      expect(writes().slice(before)).toEqual([]);
    } finally {
      await other.dispose();
    }
  });

  it("3. a definition change and a skill edit update in place; preview --diff shows the document's changed lines", async () => {
    const digest = runner.models.get("baker:latest")!.digest;
    const edited = path.join(mkdtempSync(path.join(tmpdir(), "skill-")), "SKILL.md");
    const original = readFileSync(path.join(ROOT, "examples/ai-host/skills/oven-care/SKILL.md"), "utf8");
    const line = original.split("\n").find((l) => /^\d+\. /.test(l))!;
    writeFileSync(edited, original.replace(line, `${line} Wear the heat-proof gloves.`));
    await engine.stack.setAllConfig({ skillSource: { value: edited } });
    let shown = "";
    await engine.stack.preview({ diff: true, onOutput: (o) => (shown += o) });
    expect(shown).toContain(`- ${line}`);
    expect(shown).toContain(`+ ${line} Wear the heat-proof gloves.`);
    expect(shown).not.toMatch(/Prerequisites[\s\S]*Prerequisites/); // the changed lines, not the document twice
    await engine.stack.setAllConfig({ bakerDefinition: { value: "baker-strict.model" }, skillVersion: { value: "1.1.0" } });
    const up = await timed("up (updates)", () => engine.stack.up());
    expect(up.summary.resourceChanges).toMatchObject({ update: 2 });
    expect(runner.models.get("baker:latest")!.system).toMatch(/one sentence/);
    expect(runner.models.get("baker:latest")!.digest).not.toBe(digest);
    expect(skills.skills.get("oven-care")!.version).toBe("1.1.0");
  });

  it("4. a model removed out of band is revealed by refresh and made again by up", async () => {
    runner.models.delete("baker:latest");
    const refresh = await timed("refresh (removed)", () => engine.stack.refresh());
    expect(refresh.summary.resourceChanges).toMatchObject({ delete: 1 });
    const up = await timed("up (recreate)", () => engine.stack.up());
    expect(up.summary.resourceChanges).toMatchObject({ create: 1 });
    expect(runner.models.has("baker:latest")).toBe(true);
  });

  it("5. destroy removes the models; the registry has no delete, so the skills stay published and the CLI says so", async () => {
    let printed = "";
    const destroy = await timed("destroy", () => engine.stack.destroy({ onOutput: (o) => (printed += o) }));
    expect(destroy.summary.resourceChanges).toMatchObject({ delete: 5 });
    expect(runner.models.size).toBe(0);
    expect(skills.skills.size).toBe(2);
    expect(printed).toMatch(/skill "oven-care" stays published/);
    expect(engine.backendText()).not.toContain(SKILLS_PUBLISH_TOKEN);
  });
});

/**
 * The skills registry emulator refuses what the SKILL.md format (agentskills.io) types otherwise, with a 400 and what was wrong, and takes a
 * well-typed skill (upsert by slug). Driven over HTTP as any client would.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SkillsEmulator } from "../../emulators";

let skills: SkillsEmulator;
beforeAll(async () => (skills = await new SkillsEmulator().start()));
afterAll(() => skills.stop());

const put = (body: unknown) =>
  fetch(`${skills.url}/api/skills/oven-care`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
const valid = {
  name: "oven-care",
  description: "Use when the oven needs care.",
  instruction: "# Oven care",
  category: "ops",
  tags: ["ovens"],
  version: "1.0.0",
};

describe("skills registry emulator", () => {
  it("publishes a skill typed as the document says", async () => {
    expect((await put(valid)).status).toBe(201);
    expect((await put(valid)).status).toBe(200); // an upsert
  });

  it.each([
    ["tags not an array", { tags: "ovens" }, /tags must be an array of strings/],
    ["version not a string", { version: 1 }, /version must be a string/],
    ["a name that is not kebab-case", { name: "Oven Care" }, /name must be kebab-case/],
    ["an unknown category", { category: "kitchen" }, /category must be one of dev, infrastructure, content, ops, social/],
    ["agents with a number", { agents: ["a", 2] }, /agents must be an array of strings/],
    ["instruction missing", { instruction: undefined }, /instruction must be a string/],
  ])("refuses %s with a 400 and the reason", async (_what, change, reason) => {
    const res = await put({ ...valid, ...change });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toMatch(reason);
  });
});

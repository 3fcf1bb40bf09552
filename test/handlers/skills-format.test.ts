/**
 * Skills as the ecosystem writes them: the Agent Skills format's other front-matter fields (license, compatibility,
 * metadata, allowed-tools) kept, published and read back; the skill check held to the format's own validator,
 * skills-ref (PyPI, installed by scripts/install-python.sh), document by document; the registry's SKILL.md valid.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { call, checkForEngine } from "../../provider/door";
import { ROOT } from "../../scripts/engine";
import { useAi } from "../helpers/ai";

const { skills } = useAi();
const AGENTSKILLS = path.join(ROOT, ".tools/python/bin/agentskills");
const BODY = readFileSync(path.join(ROOT, "examples/ai-host/skills/oven-care/SKILL.md"), "utf8").replace(/^---[\s\S]*?---\n/, "");

/** A skill folder named as its skill (the format's rule), holding `front` as its SKILL.md's front matter. */
function skillDir(name: string, front: string): string {
  const dir = path.join(mkdtempSync(path.join(tmpdir(), "skill-")), name);
  mkdirSync(dir);
  writeFileSync(path.join(dir, "SKILL.md"), `---\n${front}\n---\n${BODY}`);
  return dir;
}

/** skills-ref's verdict on a folder: its errors, none when valid. */
function skillsRef(dir: string): string {
  try {
    execFileSync(AGENTSKILLS, ["validate", dir], { encoding: "utf8", stdio: "pipe" });
    return "";
  } catch (e) {
    return String((e as { stdout?: string; stderr?: string }).stdout ?? "") + String((e as { stderr?: string }).stderr ?? "");
  }
}

const FULL = [
  "name: oven-care",
  "description: Use when an oven needs lighting, cleaning or its seals checked.",
  "license: Apache-2.0",
  "compatibility: Needs the bakery's oven controller on the local network.",
  "metadata:",
  "  author: bakery-ops",
  '  version: "1.2"',
  "allowed-tools: Bash(ovenctl:*) Read",
].join("\n");

describe("the skill format's other fields", () => {
  it("a skill with license, compatibility, metadata and allowed-tools round-trips through the registry", async () => {
    const dir = skillDir("oven-care", FULL);
    const { inputs, failures } = await call("skills:Skill", "check", [{}, { slug: "oven-care", source: path.join(dir, "SKILL.md") }]);
    expect(failures).toEqual([]);
    const { id, outs } = await call("skills:Skill", "create", [inputs]);
    const fields = {
      license: "Apache-2.0",
      compatibility: "Needs the bakery's oven controller on the local network.",
      metadata: { author: "bakery-ops", version: "1.2" },
      allowedTools: ["Bash(ovenctl:*)", "Read"],
    };
    expect(outs).toMatchObject(fields);
    expect(skills.skills.get("oven-care")).toMatchObject(fields);
    // Read back: no drift.
    const read = await call("skills:Skill", "read", [id, outs]);
    expect(read.inputs).toBeUndefined();
    // The registry's SKILL.md of it is a valid skill for the format's validator, with the same fields.
    const served = await (await fetch(`${skills.url}/api/skills/oven-care/skill.md`)).text();
    const copy = skillDir("oven-care", served.replace(/^---\n([\s\S]*?)\n---[\s\S]*$/, "$1"));
    expect(skillsRef(copy)).toBe("");
    const props = JSON.parse(execFileSync(AGENTSKILLS, ["read-properties", copy], { encoding: "utf8" }));
    expect(props).toMatchObject({
      license: "Apache-2.0",
      metadata: { author: "bakery-ops", version: "1.2" },
      "allowed-tools": "Bash(ovenctl:*) Read",
    });
  });

  it("an edit of a format field alone is a change, published in place", async () => {
    const first = await call("skills:Skill", "check", [
      {},
      { slug: "oven-care", source: path.join(skillDir("oven-care", FULL), "SKILL.md") },
    ]);
    const made = await call("skills:Skill", "create", [first.inputs]);
    const edited = await call("skills:Skill", "check", [
      {},
      { slug: "oven-care", source: path.join(skillDir("oven-care", FULL.replace("Apache-2.0", "MIT")), "SKILL.md") },
    ]);
    expect(await call("skills:Skill", "diff", ["oven-care", made.outs, edited.inputs])).toMatchObject({ changes: true, replaces: [] });
    await call("skills:Skill", "update", ["oven-care", made.outs, edited.inputs]);
    expect(skills.skills.get("oven-care")!.license).toBe("MIT");
  });

  it.each([
    ["every field of the format", FULL],
    ["name and description only", "name: oven-care\ndescription: Use when an oven needs care."],
    ["a field the format does not know", "name: oven-care\ndescription: Use when an oven needs care.\nauthor: bakery-ops"],
    [
      "a compatibility over 500 characters",
      `name: oven-care\ndescription: Use when an oven needs care.\ncompatibility: ${"x".repeat(501)}`,
    ],
    ["a name in capitals", "name: Oven-Care\ndescription: Use when an oven needs care."],
    ["a name with two hyphens in a row", "name: oven--care\ndescription: Use when an oven needs care."],
    ["a name in lowercase letters of another script", "name: café-notes\ndescription: Use when an oven needs care."],
    ["a name in fullwidth letters (the same after NFKC)", "name: ｏｖｅｎ-care\ndescription: Use when an oven needs care."],
    ["a name starting with a hyphen", "name: -oven\ndescription: Use when an oven needs care."],
    ["a name with an underscore", "name: oven_care\ndescription: Use when an oven needs care."],
    ["no description", "name: oven-care"],
    ["an empty description", 'name: oven-care\ndescription: ""'],
  ])("%s: the check agrees with skills-ref", async (_what, front) => {
    const name = /^name: (.*)$/m.exec(front)![1];
    const dir = skillDir(name, front);
    const refused = skillsRef(dir);
    const { failures } = await call("skills:Skill", "check", [{}, { slug: "oven-care", source: path.join(dir, "SKILL.md") }]);
    expect({ valid: failures.length === 0, ours: failures.map((f: { reason: string }) => f.reason) }).toMatchObject({
      valid: refused === "",
    });
  });
});

describe("a registry that does not keep the format's fields", () => {
  it("shows no drift on them: what was sent is kept", async () => {
    const dir = skillDir("oven-care", FULL);
    const { inputs } = await call("skills:Skill", "check", [{}, { slug: "oven-care", source: path.join(dir, "SKILL.md") }]);
    const { id, outs } = await call("skills:Skill", "create", [inputs]);
    const held = skills.skills.get("oven-care")!;
    for (const k of ["license", "compatibility", "metadata", "allowedTools"] as const) delete held[k];
    expect((await call("skills:Skill", "read", [id, outs])).inputs).toBeUndefined();
  });
});

describe("a document that breaks several rules", () => {
  it("gets one failure listing each rule by its line, not one failure per rule each carrying the document", async () => {
    const body = "# Oven care\n\nKeeps ovens running.\n\n## Troubleshooting\n- t\n";
    const { failures } = await call("skills:Skill", "check", [
      {},
      { slug: "oven-care", name: "oven-care", description: "Use when an oven needs care.", instruction: body },
    ]);
    expect(failures).toHaveLength(1);
    expect(failures[0].property).toBe("instruction");
    expect(failures[0].reason).toBe(
      "line 7: the prerequisites section (## Prerequisites) is missing; the workflows section (## Workflow ...) is missing; the recipes section (## Recipes) is missing (or set followGuide: false to publish a body outside the guide)",
    );
    // As the engine gets it: no property (whose whole value the engine would print), the document's length only.
    const engine = await checkForEngine(
      "skills:Skill",
      {},
      { slug: "oven-care", name: "oven-care", description: "Use when an oven needs care.", instruction: body },
    );
    expect(engine.failures).toEqual([{ property: "", reason: `instruction (7 lines): ${failures[0].reason}` }]);
  });

  it("from a file: one failure for the document, each problem by its line, quoting only the lines at fault", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "skill-rules-"));
    const file = path.join(dir, "SKILL.md");
    writeFileSync(
      file,
      "---\nname: Bad_Name\ndescription: Use when an oven needs care.\nfoo: bar\n---\n# Oven care\n\nKeeps ovens running.\n",
    );
    const { failures } = await checkForEngine("skills:Skill", {}, { slug: "oven-care", source: file });
    expect(failures).toEqual([
      {
        property: "source",
        reason:
          `${file}: line 2 (\`name: Bad_Name\`): name "Bad_Name" must be lowercase, and hold only letters, digits and hyphens (e.g. deploy-preview); ` +
          "line 4 (`foo: bar`): foo is not a field of the skill format; it allows name, description, license, compatibility, metadata, allowed-tools (put others under metadata); " +
          "line 9: the prerequisites section (## Prerequisites) is missing; the workflows section (## Workflow ...) is missing; the recipes section (## Recipes) is missing; the troubleshooting section (## Troubleshooting) is missing (or set followGuide: false to publish a body outside the guide)",
      },
    ]);
    expect(failures[0].reason).not.toContain("Keeps ovens running"); // the body is not quoted
  });
});

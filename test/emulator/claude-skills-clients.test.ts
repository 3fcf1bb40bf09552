/**
 * The Claude API's skills emulator held to clients nobody here wrote: the official TypeScript SDK
 * (@anthropic-ai/sdk, npm's newest) and the official Python SDK (anthropic, PyPI's newest, installed by
 * scripts/install-python.sh) upload skill folders, add versions, read `latest`, list, page, and delete through it;
 * and the SDK lists what the provider made.
 */
import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";
import * as path from "node:path";
import Anthropic, { toFile } from "@anthropic-ai/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../../scripts/engine";
import { CLAUDE_API_KEY, ClaudeSkillsEmulator } from "../../emulators";
import { call } from "../../provider/door";

const FOLDER = path.resolve(__dirname, "../fixtures/claude-skill/oven-care");
const PYTHON = path.join(ROOT, ".tools/python/bin/python");
let claude: ClaudeSkillsEmulator;
let client: Anthropic;

beforeAll(async () => {
  execFileSync("bash", [path.join(ROOT, "scripts/install-python.sh")], { stdio: "inherit" });
  claude = await new ClaudeSkillsEmulator().start();
  client = new Anthropic({ apiKey: CLAUDE_API_KEY, baseURL: claude.url, maxRetries: 0 });
}, 600_000);
afterAll(() => claude.stop());

const skillMd = (name: string, description = "Bakes bread; use when a loaf is wanted.") =>
  `---\nname: ${name}\ndescription: ${description}\n---\n\n# ${name}\n`;

describe("the official TypeScript SDK", () => {
  it("creates a skill from files with their paths, adds a version, reads latest, lists (paged) and deletes", async () => {
    const files = [
      await toFile(Buffer.from(skillMd("bread")), "bread/SKILL.md"),
      await toFile(Buffer.from("print('knead')\n"), "bread/scripts/knead.py"),
    ];
    const skill = await client.skills.create({ files, display_name: "Bread" });
    expect(skill).toMatchObject({
      id: expect.stringMatching(/^skill_01/),
      type: "skill",
      display_name: "Bread",
      source: { type: "custom" },
      latest_version_id: expect.stringMatching(/^skver_01/),
    });
    expect([...claude.skills.get(skill.id)!.versions[0].files.keys()].sort()).toEqual(["SKILL.md", "scripts/knead.py"]);

    const v2 = await client.skills.versions.create(skill.id, {
      files: [await toFile(Buffer.from(skillMd("bread", "Bakes better bread.")), "bread/SKILL.md")],
    });
    expect(v2).toMatchObject({ type: "skill_version", skill_id: skill.id, name: "bread", description: "Bakes better bread." });
    expect((await client.skills.versions.retrieve("latest", { skill_id: skill.id })).id).toBe(v2.id);
    expect((await client.skills.retrieve(skill.id)).latest_version_id).toBe(v2.id);
    const versions: string[] = [];
    for await (const v of client.skills.versions.list(skill.id, { limit: 1 })) versions.push(v.id);
    expect(versions).toEqual([v2.id, skill.latest_version_id]); // newest first, a page at a time

    // Anthropic's own skills are listed unless only the workspace's are asked for.
    const all: string[] = [];
    for await (const s of client.skills.list({ limit: 2 })) all.push(s.display_name);
    expect(all).toEqual(expect.arrayContaining(["pptx", "xlsx", "docx", "pdf", "Bread"]));
    const custom: string[] = [];
    for await (const s of client.skills.list({ source: "custom" })) custom.push(s.display_name);
    expect(custom).toEqual(["Bread"]);

    // The service's rules, as the SDK's typed errors carry them.
    await expect(
      client.skills.versions.create(skill.id, { files: [await toFile(Buffer.from(skillMd("rolls")), "rolls/SKILL.md")] }),
    ).rejects.toMatchObject({
      status: 400,
      error: {
        type: "error",
        error: { type: "invalid_request_error", message: expect.stringMatching(/must match the Skill's name 'bread'/) },
      },
    });
    await expect(client.skills.create({ files: [await toFile(Buffer.from("# no front matter"), "x/README.md")] })).rejects.toBeInstanceOf(
      Anthropic.BadRequestError,
    );
    await expect(
      client.skills.create({ files: [await toFile(Buffer.from(skillMd("claude-bread")), "claude-bread/SKILL.md")] }),
    ).rejects.toMatchObject({ status: 400, error: { error: { message: expect.stringMatching(/reserved word 'claude'/) } } });
    await client.skills.versions.delete(v2.id, { skill_id: skill.id });
    await expect(client.skills.versions.delete(String(skill.latest_version_id), { skill_id: skill.id })).rejects.toMatchObject({
      status: 400,
    }); // the only version
    expect(await client.skills.delete(skill.id)).toEqual({ id: skill.id, type: "skill_deleted" });
    await expect(client.skills.retrieve(skill.id)).rejects.toBeInstanceOf(Anthropic.NotFoundError);
    await expect(
      new Anthropic({ apiKey: "wrong", baseURL: claude.url, maxRetries: 0 }).skills.list().then((p) => p.data),
    ).rejects.toBeInstanceOf(Anthropic.AuthenticationError);
  });

  it("lists what the provider made, with every file of its folder", async () => {
    Object.assign(process.env, { SKILLS_KIND: "claude", ANTHROPIC_BASE_URL: claude.url, ANTHROPIC_API_KEY: CLAUDE_API_KEY });
    try {
      const { inputs } = await call("skills:Skill", "check", [{}, { slug: "oven-care", source: path.join(FOLDER, "SKILL.md") }]);
      const made = await call("skills:Skill", "create", [inputs]);
      const listed = [];
      for await (const s of client.skills.list({ source: "custom" })) listed.push(s);
      expect(listed).toEqual([expect.objectContaining({ id: made.id, display_name: "oven-care", latest_version_id: made.outs.versionId })]);
      const latest = await client.skills.versions.retrieve("latest", { skill_id: made.id });
      expect(latest).toMatchObject({ name: "oven-care", description: expect.stringMatching(/^Use when a deck oven/) });
      await call("skills:Skill", "delete", [made.id, made.outs]);
      await expect(client.skills.retrieve(made.id)).rejects.toBeInstanceOf(Anthropic.NotFoundError);
    } finally {
      for (const k of ["SKILLS_KIND", "ANTHROPIC_BASE_URL", "ANTHROPIC_API_KEY"]) delete process.env[k];
    }
  });
});

describe("the official Python SDK", () => {
  it("uploads a folder with files_from_dir, adds a version, reads latest, lists and deletes", async () => {
    // Asynchronously: the emulator answers from this process.
    const { stdout: out } = await promisify(execFile)(
      PYTHON,
      [path.join(__dirname, "claude_skills_client.py"), claude.url, CLAUDE_API_KEY, FOLDER],
      { encoding: "utf8" },
    );
    const seen = JSON.parse(out.trim().split("\n").at(-1)!);
    expect(seen.sdk).toBe("2.14.0");
    expect(seen.created).toMatchObject({
      id: expect.stringMatching(/^skill_01/),
      display_name: "py-skill",
      source: "custom",
      latest: expect.stringMatching(/^skver_/),
    });
    expect(seen.version).toMatchObject({ name: "oven-care", skill_id: seen.created.id });
    expect(seen.latest).toBe(seen.version.id);
    expect(seen.versions).toEqual([seen.version.id, seen.created.latest]);
    expect(seen.custom).toContain("py-skill");
    expect(seen.refused).toEqual({ status: 400, message: "SKILL.md file must be exactly in the top-level folder." });
    expect(seen.deleted).toBe("skill_deleted");
    expect(seen.after_delete).toBe(404);
  });
});

/**
 * The skills client trusts no answer: every one checked against the registry's shape (a wrong URL fails the
 * preview), a PUT answered 201/204 without the skill followed by a read, a delete confirmed by a read, every page of
 * a search read.
 */
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { SKILLS_PUBLISH_TOKEN, SkillsEmulator } from "../../emulators";
import { call, checkForEngine } from "../../provider/door";
import { collectWarnings } from "../../provider/log";
import { forgetPreviewChecks, previewCheck } from "../../provider/preflight";
import { useAi } from "../helpers/ai";

const { skills } = useAi();
const SOURCE = path.resolve(__dirname, "../../examples/ai-host/skills/oven-care/SKILL.md");

async function make(args: Record<string, unknown>) {
  const { inputs, failures } = await call("skills:Skill", "check", [{}, args]);
  expect(failures).toEqual([]);
  return { inputs, ...(await call("skills:Skill", "create", [inputs])) };
}

async function withRegistry(options: ConstructorParameters<typeof SkillsEmulator>[0], f: (r: SkillsEmulator) => Promise<void>) {
  const other = await new SkillsEmulator({ publishToken: SKILLS_PUBLISH_TOKEN, ...options }).start();
  const saved = process.env.SKILLS_URL;
  process.env.SKILLS_URL = other.url;
  try {
    await f(other);
  } finally {
    process.env.SKILLS_URL = saved;
    await other.stop();
  }
}

describe("a registry's answers, checked", () => {
  it.each(["empty", "no-content"] as const)(
    "a PUT answered %s is followed by a read: the outputs are the published skill's",
    async (putAnswer) => {
      await withRegistry({ putAnswer }, async (r) => {
        const s = await make({ slug: "oven-care", source: SOURCE, category: "ops" });
        expect(s.outs).toMatchObject({ name: "oven-care", category: "ops" });
        const order = r.log.map((e) => e.method);
        expect(order.lastIndexOf("GET")).toBeGreaterThan(order.indexOf("PUT")); // the skill read after its upsert
      });
    },
  );

  it("a delete answered 404 while the skill stays published is not taken as done", async () => {
    await withRegistry({ allowDelete: true }, async (r) => {
      const s = await make({ slug: "oven-care", source: SOURCE, category: "ops" });
      r.spuriousDelete404 = 1;
      await expect(call("skills:Skill", "delete", [s.id, s.outs])).rejects.toThrow(/still published after its delete/);
      expect(r.skills.has("oven-care")).toBe(true);
      await call("skills:Skill", "delete", [s.id, s.outs]);
      expect(r.skills.has("oven-care")).toBe(false);
    });
  });

  it("a search reads every page", async () => {
    await withRegistry({ pageSize: 2 }, async (r) => {
      for (const slug of ["a-one", "a-two", "a-three", "a-four", "a-five"])
        r.skills.set(slug, {
          slug,
          name: slug,
          description: "about ovens",
          instruction: "x",
          tags: [],
          agents: [],
          toolsRequired: [],
          updatedAt: "",
        });
      const { searchSkills } = await import("../../provider/skills/functions");
      expect((await searchSkills({ q: "ovens" })).map((s: { slug?: string; name: string }) => s.name).sort()).toEqual([
        "a-five",
        "a-four",
        "a-one",
        "a-three",
        "a-two",
      ]);
      expect(r.count("GET", /\/api\/skills$/)).toBe(3);
    });
  });

  it("an address that is not a registry fails the preview, saying what came instead", async () => {
    process.env.SKILLS_URL = `${skills.url}/not-the-api`;
    forgetPreviewChecks();
    await expect(previewCheck("skills:Skill", undefined, { slug: "oven-care", source: SOURCE })).rejects.toThrow(
      /skills: .*(not a skills registry|where JSON was expected|404)/,
    );
    forgetPreviewChecks();
  });
});

describe("takeovers that never steal", () => {
  it("a skill the registry already holds is taken over only with adopt: true, at preview and at up", async () => {
    const first = await make({ slug: "oven-care", source: SOURCE });
    expect(first.id).toBe("oven-care");
    // A second stack declaring the same slug: its preview and its up both refuse, and nothing is sent.
    forgetPreviewChecks();
    const { inputs } = await call("skills:Skill", "check", [{}, { slug: "oven-care", source: SOURCE, category: "ops" }]);
    await expect(previewCheck("skills:Skill", undefined, inputs, {})).rejects.toThrow(
      /already holds a skill "oven-care" \(published by hand or by another stack\).*adopt: true/,
    );
    const puts = () => skills.log.filter((e) => e.method === "PUT").length;
    const before = puts();
    await expect(call("skills:Skill", "create", [inputs])).rejects.toThrow(/adopt: true/);
    expect(puts()).toBe(before);
    // Said so: taken over, and published as this program says.
    forgetPreviewChecks();
    const adopted = (await call("skills:Skill", "check", [{}, { slug: "oven-care", source: SOURCE, category: "ops", adopt: true }])).inputs;
    await previewCheck("skills:Skill", undefined, adopted, {});
    const { outs } = await call("skills:Skill", "create", [adopted]);
    expect(outs.category).toBe("ops");
    expect(skills.skills.get("oven-care")!.category).toBe("ops");
  });

  // Two stacks as the SDK's classes call the provider: each passes its owner (`<project>/<stack>/<name>`).
  const as = (owner: string, args: Record<string, unknown>) => ({ ...args, __owner: owner });
  const inStack = async (owner: string, args: Record<string, unknown>) => {
    const { inputs, failures } = await call("skills:Skill", "check", [{}, as(owner, args)]);
    expect(failures).toEqual([]);
    return inputs;
  };

  it("the skill carries its stack's label; another stack is refused naming it, even with adopt, and its destroy never deletes it", async () => {
    await withRegistry({ allowDelete: true }, async (skills) => {
      const mine = await inStack("site/prod/care", { slug: "oven-care", source: SOURCE, metadata: { author: "ops" } });
      expect(mine.__owner).toBe("site/prod/care"); // kept in the inputs the engine stores
      const made = await call("skills:Skill", "create", [mine]);
      expect(skills.skills.get("oven-care")!.metadata).toEqual({
        author: "ops",
        "pulumi-ops-stack": "site/prod",
        "pulumi-ops-resource": "care",
      });
      expect(made.outs.metadata).toEqual({ author: "ops" }); // the label is not the program's: no drift on it
      expect(made.outs.__owner).toBe("site/prod/care");
      expect((await call("skills:Skill", "read", [made.id, made.outs])).inputs).toBeUndefined();

      const theirs = await inStack("site/staging/care", { slug: "oven-care", source: SOURCE, adopt: true });
      forgetPreviewChecks();
      await expect(checkForEngine("skills:Skill", {}, theirs)).rejects.toThrow(
        /skill "oven-care" belongs to stack site\/prod \(resource care\).*ops:adoptFromStack/,
      );
      await expect(call("skills:Skill", "create", [theirs])).rejects.toThrow(/belongs to stack site\/prod/);
      // A destroy by another stack (state it should not have) leaves the skill published.
      await call("skills:Skill", "delete", ["oven-care", { ...made.outs, __owner: "site/staging/care" }]);
      expect(skills.skills.has("oven-care")).toBe(true);
      // Forced for one run: taken, and labelled as the new owner's.
      process.env.PULUMI_OPS_ADOPT_FROM_STACK = "site/prod";
      try {
        await call("skills:Skill", "create", [theirs]);
      } finally {
        delete process.env.PULUMI_OPS_ADOPT_FROM_STACK;
      }
      expect(skills.skills.get("oven-care")!.metadata?.["pulumi-ops-stack"]).toBe("site/staging");
      await call("skills:Skill", "delete", ["oven-care", made.outs]); // the old owner's destroy leaves it
      expect(skills.skills.has("oven-care")).toBe(true);
      await call("skills:Skill", "delete", ["oven-care", { ...made.outs, __owner: "site/staging/care" }]); // the owner's own destroy deletes it
      expect(skills.skills.has("oven-care")).toBe(false);
    });
  });

  it("a stack's own skill, left published by its destroy (a registry with no delete), is taken back with no switch", async () => {
    await withRegistry({ allowDelete: false }, async (registry) => {
      const inputs = await inStack("site/prod/care", { slug: "oven-care", source: SOURCE });
      const made = await call("skills:Skill", "create", [inputs]);
      await call("skills:Skill", "delete", [made.id, made.outs]);
      expect(registry.skills.has("oven-care")).toBe(true);
      forgetPreviewChecks();
      const again = await inStack("site/prod/care", { slug: "oven-care", source: SOURCE });
      await checkForEngine("skills:Skill", {}, again); // the preview passes: it is this stack's own
      const puts = registry.log.filter((e) => e.method === "PUT").length;
      const back = await call("skills:Skill", "create", [again]);
      expect(back.id).toBe("oven-care");
      // Its destroy left it released (issue 57): taken back, it carries this stack's label again (one PUT).
      expect(registry.log.filter((e) => e.method === "PUT").length).toBe(puts + 1);
      expect(registry.skills.get("oven-care")!.metadata).toMatchObject({ "pulumi-ops-stack": "site/prod" });
    });
  });

  it("a skill its stack's destroy left published carries released-by instead of the label: another stack takes it with adopt alone, and the first takes it back with nothing set", async () => {
    await withRegistry({ allowDelete: false }, async (registry) => {
      const made = await call("skills:Skill", "create", [await inStack("site/prod/care", { slug: "oven-care", source: SOURCE })]);
      await call("skills:Skill", "delete", [made.id, made.outs]);
      expect(registry.skills.get("oven-care")!.metadata).toMatchObject({ "pulumi-ops-released-by": "site/prod" });
      expect(registry.skills.get("oven-care")!.metadata).not.toHaveProperty("pulumi-ops-stack");
      forgetPreviewChecks();
      // Another stack: adopt alone, no ops:adoptFromStack (the first stack is gone).
      const theirs = await inStack("kitchen/prod/care", { slug: "oven-care", source: SOURCE, adopt: true });
      await checkForEngine("skills:Skill", {}, theirs);
      const taken = await call("skills:Skill", "create", [theirs]);
      expect(registry.skills.get("oven-care")!.metadata).toMatchObject({ "pulumi-ops-stack": "kitchen/prod" });
      await call("skills:Skill", "delete", [taken.id, taken.outs]);
      // The first stack's program again, without adopt: a skill it released is its own to take back.
      forgetPreviewChecks();
      const back = await inStack("site/prod/care", { slug: "oven-care", source: SOURCE });
      await checkForEngine("skills:Skill", {}, back);
      await call("skills:Skill", "create", [back]);
    });
  });
});

describe("drift a reviewer can read", () => {
  it("lines counts the published document; an edit in the registry is said field by field and line by line, and the restoring preview's diff shows the published text", async () => {
    await withRegistry({}, async (r) => {
      const s = await make({ slug: "oven-care", source: SOURCE, category: "ops" });
      const published = await (await fetch(`${r.url}/api/skills/oven-care/skill.md`)).text();
      expect(s.outs.lines).toBe(published.replace(/\n+$/, "").split("\n").length);
      // Someone edits the skill in the registry: a new description and one changed line of the body.
      const held = r.skills.get("oven-care")!;
      const body = held.instruction.split("\n");
      const at = body.findIndex((l) => l.startsWith("1."));
      r.skills.set("oven-care", {
        ...held,
        description: "Edited by hand.",
        instruction: [...body.slice(0, at), "1. Edited by hand.", ...body.slice(at + 1)].join("\n"),
      });
      const reading = collectWarnings(() => call("skills:Skill", "read", [s.id, s.outs]));
      const result = await reading.result;
      const said = reading.warnings.join("\n");
      expect(said).toMatch(/"oven-care" was changed in the registry: description ".*" → "Edited by hand\."/);
      expect(said).toContain(
        `the body, from its line ${at + 1}: "1. Edited by hand." where the program has ${JSON.stringify(body[at].length > 60 ? `${body[at].slice(0, 57)}...` : body[at])}`,
      );
      expect(result.inputs.sourceText).toContain("1. Edited by hand.");
      expect(result.inputs.description).toBe("Edited by hand.");
      // The program's own check gives its text back: the engine shows the lines that change back.
      const { inputs } = await call("skills:Skill", "check", [result.inputs, { slug: "oven-care", source: SOURCE, category: "ops" }]);
      expect(inputs.sourceText).not.toContain("1. Edited by hand.");
      expect((await call("skills:Skill", "diff", [s.id, result.props, inputs])).changes).toBe(true);
    });
  });
});

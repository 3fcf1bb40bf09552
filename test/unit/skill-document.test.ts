import { readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { bodyProblems, extractSkillDocument, nameProblem, parseSkillDocument } from "../../provider/skills/document";
import { parseCommands, parseDefinition } from "../../provider/runner/model/definition";

const EXAMPLE = readFileSync(path.resolve(__dirname, "../../examples/ai-host/skills/oven-care/SKILL.md"), "utf8");

describe("skill documents", () => {
  it("accept the example skill", () => {
    const doc = parseSkillDocument(EXAMPLE);
    expect(doc.frontMatter).toMatchObject({ name: "oven-care" });
    expect(bodyProblems(doc.body, doc.bodyLine)).toEqual({ errors: [], warnings: [] });
  });

  it("read the front matter as YAML: folded and literal blocks, quoted strings", () => {
    const folded = parseSkillDocument("---\nname: 'oven-care'\ndescription: >\n  Use when the oven\n  needs care.\n---\n# T\n");
    expect(folded.frontMatter).toEqual({ name: "oven-care", description: "Use when the oven needs care." });
    const literal = parseSkillDocument('---\nname: "oven-care"\ndescription: |\n  Line one.\n  Line two.\n---\n# T\n');
    expect(literal.frontMatter?.description).toBe("Line one.\nLine two.");
    const quoted = parseSkillDocument('---\nname: oven-care\ndescription: "Use it: when \\"hot\\" # not a comment"\n---\n# T\n');
    expect(quoted.frontMatter?.description).toBe('Use it: when "hot" # not a comment');
    const broken = parseSkillDocument("---\nname: [oven\ndescription: x\n---\n# T\n");
    expect(broken.frontMatterError).toBeTruthy();
  });

  it("count core workflows written as ### subsections under one workflows heading", () => {
    const body = [
      "# Oven care",
      "",
      "Keeps ovens running.",
      "",
      "## Prerequisites",
      "- a key",
      "",
      "## Core workflows",
      "",
      "### Light the oven",
      "1. Open the valve.",
      "",
      "### Clean the oven",
      "1. Let it cool.",
      "",
      "### Check the seals",
      "1. Look.",
      "",
      "## Recipes",
      "- r",
      "",
      "## Troubleshooting",
      "- t",
      "",
    ].join("\n");
    expect(bodyProblems(body).errors).toEqual([]);
    const two = body.replace(/### Check the seals\n1\. Look\.\n/, "");
    expect(bodyProblems(two).errors.map((e) => e.message)).toContainEqual(expect.stringMatching(/3 to 7 core workflows; there are 2/));
    const unnumbered = body.replace("1. Look.", "Look.");
    expect(bodyProblems(unnumbered).errors.map((e) => e.message)).toContainEqual(
      expect.stringMatching(/"Check the seals" needs numbered steps/),
    );
  });

  it("name the line of each hard problem", () => {
    const broken = EXAMPLE.replace("## Prerequisites", "## Troubleshooting first").replace(/## Workflow 3[\s\S]*?## Recipes/, "## Recipes");
    const doc = parseSkillDocument(broken);
    const { errors } = bodyProblems(doc.body, doc.bodyLine);
    const lines = broken.split("\n");
    expect(errors).toContainEqual({
      line: lines.indexOf("## Quick reference") + 1,
      message: expect.stringMatching(/"Quick reference" is out of order/),
    });
    expect(errors).toContainEqual({
      line: lines.indexOf("## Troubleshooting") + 1,
      message: expect.stringMatching(/"Troubleshooting" appears twice/),
    });
    expect(errors.map((e) => e.message)).toContainEqual(expect.stringMatching(/the prerequisites section .* is missing/));
    expect(errors.map((e) => e.message)).toContainEqual(expect.stringMatching(/3 to 7 core workflows; there are 2/));
  });

  it("want numbered steps in workflows, a title and an overview, and warn about length", () => {
    const { errors, warnings } = bodyProblems(
      "Intro without a title\n\n## Prerequisites\n- x\n## Workflow 1\ntext\n## Workflow 2\n1. a\n## Workflow 3\n1. b\n## Recipes\n- r\n## Troubleshooting\n- t\n",
    );
    expect(errors.map((e) => e.message)).toEqual(
      expect.arrayContaining([expect.stringMatching(/open with a title/), expect.stringMatching(/"Workflow 1" needs numbered steps/)]),
    );
    expect(warnings).toContainEqual(expect.stringMatching(/the guide is 50 to 300/));
  });

  it("check names and strip a model's fences", () => {
    expect(nameProblem("Oven_Care")).toMatch(/lowercase/);
    expect(nameProblem("oven--care")).toMatch(/nor hold two in a row/);
    // The format's validator (skills-ref) takes letters of any script, lowercase, after NFKC.
    expect(nameProblem("café-notes")).toBeUndefined();
    expect(nameProblem("ｏｖｅｎ-care")).toBeUndefined();
    expect(nameProblem("x".repeat(65))).toMatch(/1 to 64/);
    expect(extractSkillDocument("Sure! Here it is:\n```markdown\n---\nname: a\n---\n# A\n```\nHope it helps")).toBe(
      "---\nname: a\n---\n# A\n",
    );
  });
});

describe("model definition files", () => {
  it("parse FROM, SYSTEM (also triple-quoted) and PARAMETER", () => {
    const def = readFileSync(path.resolve(__dirname, "../../examples/ai-host/baker.model"), "utf8");
    expect(parseDefinition(def)).toEqual({
      definition: {
        from: "qwen2.5:0.5b",
        system: expect.stringMatching(/^You are the bakery's assistant/),
        parameters: { temperature: 0.2, num_ctx: 4096 },
      },
      problems: [],
    });
  });
  it("name the line of each problem", () => {
    const { problems } = parseDefinition("FROM qwen2.5:0.5b\nPARAMETER warmth 3\nPARAMETER top_k lots\nADAPTER ./no-such-adapter\n");
    // A name the list lacks (warmth) is the runner's to judge: sent, not refused (a newer runner may know it).
    expect(problems).toEqual([
      expect.stringMatching(/^line 3: parameter top_k needs an integer/),
      expect.stringMatching(/^line 4: ADAPTER \.\/no-such-adapter is not a file or folder here/),
    ]);
    expect(parseDefinition("SYSTEM hi\n").problems).toEqual(["line 1: a definition needs a FROM line"]);
    expect(parseDefinition("FROM x\nWARMTH 3\n").problems).toEqual([
      expect.stringMatching(/^line 2: "WARMTH": unknown directive; the runner takes FROM, LICENSE, TEMPLATE/),
    ]);
    expect(parseDefinition("FROM x\nMESSAGE robot hi\n").problems).toEqual([
      expect.stringMatching(/MESSAGE role "robot" must be one of system, user or assistant/),
    ]);
    expect(parseDefinition('FROM x\nSYSTEM """never closed\n').problems).toEqual([
      expect.stringMatching(/a quote opened in line 2 is not closed/),
    ]);
    expect(parseDefinition("FROM x\nREQUIRES soon\n").problems).toEqual([
      expect.stringMatching(/line 2: REQUIRES needs a version such as 0\.14\.0/),
    ]);
  });

  it("read every directive as the runner's parser does: quotes, blocks over lines, comments, lists that add up", () => {
    const text = [
      "# a comment",
      "from tiny:latest",
      'TEMPLATE """{{ .System }}',
      '{{ .Prompt }}"""',
      'SYSTEM "  spaced  "',
      "PARAMETER stop <|end|>",
      'PARAMETER stop "User:"',
      "PARAMETER temperature 1e-1",
      "PARAMETER use_mmap F",
      "PARAMETER mirostat 2",
      "MESSAGE user What is it: bread?",
      "MESSAGE assistant Bread.",
      "LICENSE MIT",
      'LICENSE """Apache',
      'License 2.0"""',
      "REQUIRES v0.14.0",
      "RENDERER qwen3",
      "PARSER qwen3",
    ].join("\n");
    expect(parseDefinition(text)).toEqual({
      definition: {
        from: "tiny:latest",
        template: "{{ .System }}\n{{ .Prompt }}",
        system: "  spaced  ",
        parameters: { stop: ["<|end|>", "User:"], temperature: 0.1, use_mmap: false },
        messages: [
          { role: "user", content: "What is it: bread?" },
          { role: "assistant", content: "Bread." },
        ],
        license: ["MIT", "Apache\nLicense 2.0"],
        requires: "0.14.0",
        renderer: "qwen3",
        parser: "qwen3",
      },
      problems: [],
    });
    // Parameter names are the runner's JSON names, case and all (its FormatParams looks them up as written).
    expect(parseDefinition("FROM x\nPARAMETER Temperature 1\n").problems).toEqual([
      expect.stringMatching(/parameter "Temperature" is temperature: the runner's names are lower case/),
    ]);
    expect(parseCommands("FROM x\nPARAMETER\n").problem).toBe("line 2: PARAMETER has no value");
  });
});

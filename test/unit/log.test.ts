/**
 * Progress and warnings: shown under the resource where the door can (the sink), each warning once per command,
 * a skill's style notes only when its content is new, and nothing at all with ops:quiet.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { call } from "../../provider/door";
import { useStackConfig } from "../../provider/config";
import { forgetShownWarnings, forResource, log, useLogSink, warn } from "../../provider/log";

const lines: [string, string, string | undefined][] = [];
useLogSink((severity, line, urn) => {
  lines.push([severity, line, urn]);
  return true;
});
// The test runner sets PULUMI_OPS_QUIET for every file; these tests are about what is shown.
beforeEach(() => useStackConfig({ get: (k) => (k === "ops:quiet" ? "false" : undefined) }));
afterEach(() => {
  lines.splice(0);
  forgetShownWarnings();
  useStackConfig(undefined);
});

describe("provider lines", () => {
  it("carry the resource they were made for, and a warning is shown once", async () => {
    await forResource("urn:a", async () => {
      log("pulling 10%");
      warn("stays published");
      warn("stays published");
    });
    expect(lines).toEqual([
      ["info", "pulling 10%", "urn:a"],
      ["warning", "stays published", "urn:a"],
    ]);
  });

  it("a warning of a kind is shown once per command whatever resource says it, naming its kind; an acknowledged kind is left out, and no other", async () => {
    for (const target of ["example.com/blog/*", "example.com/shop/*"]) {
      await call("edge:PageRule", "check", [{}, { zoneName: "example.com", targets: [target], actions: [{ id: "always_use_https" }] }]);
    }
    const warnings = () => lines.filter(([s]) => s === "warning").map(([, l]) => l);
    expect(warnings()).toEqual([
      expect.stringMatching(
        /^edge: page rules are deprecated by the service .* \[page-rules-deprecated: once a stack has read it, ops:acknowledgedWarnings: page-rules-deprecated leaves it out\]$/,
      ),
    ]);
    // Each rule's own successors are said as notes of that rule, not as warnings.
    expect(lines.filter(([s]) => s === "notice").map(([, l]) => l)).toEqual(
      [
        "edge: the page rule for example.com/blog/* can move to: always_use_https -> a redirect rule (Single Redirects)",
        "edge: the page rule for example.com/shop/* can move to: always_use_https -> a redirect rule (Single Redirects)",
      ].map((l) => expect.stringContaining(l.split(" -> ")[0])),
    );
    lines.splice(0);
    forgetShownWarnings();
    useStackConfig({ get: (k) => ({ "ops:quiet": "false", "ops:acknowledgedWarnings": "posts-token-expiry, page-rules-deprecated" })[k] });
    await call("edge:PageRule", "check", [
      {},
      { zoneName: "example.com", targets: ["example.com/blog/*"], actions: [{ id: "always_use_https" }] },
    ]);
    warn("stays published");
    expect(warnings()).toEqual(["stays published"]);
  });

  it("ops:quiet silences them", () => {
    useStackConfig({ get: (k) => (k === "ops:quiet" ? "true" : undefined) });
    log("pulling");
    warn("a new warning");
    expect(lines).toEqual([]);
  });

  it("a skill's style notes are shown when its content is new, not at every preview of an unchanged skill", async () => {
    const instruction = [
      "# Terse",
      "",
      "A short skill.",
      "",
      "## Prerequisites",
      "",
      "None.",
      "",
      ...[1, 2, 3].flatMap((n) => [`## Workflow ${n}: step ${n}`, "", `1. Do step ${n}.`, ""]),
      "## Recipes",
      "",
      "- Do it.",
      "",
      "## Troubleshooting",
      "",
      "- Again.",
    ].join("\n");
    const skill = { slug: "terse", name: "terse", description: "A skill with a short body. Use when testing warnings.", instruction };
    const first = await call("skills:Skill", "check", [{}, skill]);
    expect(lines.filter(([s]) => s === "warning").map(([, l]) => l)).toEqual([
      expect.stringMatching(/terse: the document has \d+ lines; the guide is 50 to 300/),
    ]);
    lines.splice(0);
    forgetShownWarnings(); // the next command
    await call("skills:Skill", "check", [first.inputs, skill]);
    expect(lines).toEqual([]);
    await call("skills:Skill", "check", [first.inputs, { ...skill, instruction: `${instruction}\n- Once more.` }]);
    expect(lines.filter(([s]) => s === "warning")).toHaveLength(1); // changed content: shown again
  });
});

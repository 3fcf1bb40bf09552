/**
 * The runner emulator's answer to a request for a skill document: a valid SKILL.md (front matter, then the
 * sections in the order the SKILL.md format (agentskills.io) gives), fenced as models usually answer, built from the prompt's name and topic.
 */
export function skillDocument(prompt: string, valid = true): string {
  const name = /name:\s*([a-z0-9]+(?:-[a-z0-9]+)*)/.exec(prompt)?.[1] ?? "generated-skill";
  const topic = /topic:\s*(.+)/i.exec(prompt)?.[1]?.trim() ?? name.replace(/-/g, " ");
  const title = topic.charAt(0).toUpperCase() + topic.slice(1);
  const workflows = [1, 2, 3].flatMap((n) => [
    `## Workflow ${n}: ${["Prepare", "Run", "Verify"][n - 1]} ${topic}`,
    "",
    ...[1, 2, 3, 4].map((s) => `${s}. Step ${s} of workflow ${n}: do one precise thing about ${topic}.`),
    "",
  ]);
  const body = [
    "---",
    `name: ${name}`,
    `description: Use when working on ${topic}; explains how to prepare, run and verify it.`,
    "---",
    "",
    `# ${title}`,
    "",
    `This skill covers ${topic}: what it is for and how an agent should approach it.`,
    "",
    "## Prerequisites",
    "",
    "- Access to the systems involved.",
    "- The tools listed in the skill's metadata.",
    "",
    "## Quick reference",
    "",
    "| Task | Command |",
    "|---|---|",
    "| check | `status` |",
    "| apply | `apply` |",
    "",
    ...workflows,
    "## Recipes",
    "",
    `- A small recipe about ${topic}.`,
    `- Another recipe about ${topic}.`,
    "",
    ...(valid
      ? ["## Troubleshooting", "", "- If a step fails, read its error and retry once.", "- Ask for help with the exact message.", ""]
      : []),
    "## References",
    "",
    "- The source texts this skill was generated from.",
  ];
  return ["```markdown", ...body, "```"].join("\n");
}

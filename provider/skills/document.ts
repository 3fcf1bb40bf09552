/**
 * A skill document as the SKILL.md format (agentskills.io) describes it: front matter with `name` and `description`, then a body with, in
 * this order: a title and overview, prerequisites, an optional quick reference, 3 to 7 core workflows of numbered
 * steps, recipes, troubleshooting, optional references. 50 to 300 lines is a guide (a warning), not a rule.
 */
import { createHash } from "node:crypto";
import type { parse } from "yaml";

/**
 * The YAML parser (72 modules), loaded when a skill's document is first read: the provider process the engine starts
 * for every command loads every resource's schema, and most commands read no skill.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const parseYaml = (): typeof parse => (require("yaml") as typeof import("yaml")).parse;

export const NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export interface Problem {
  line: number;
  message: string;
}

export interface ParsedSkill {
  /** Scalar values as text (a folded or literal block, a quoted string: as YAML reads them). */
  frontMatter?: Record<string, string>;
  /** The front matter as YAML reads it (a `metadata` mapping stays a mapping). */
  fields?: Record<string, unknown>;
  /** The front matter is not valid YAML, or not a mapping: what the parser said. */
  frontMatterError?: string;
  body: string;
  /** 1-based line of the document where the body starts. */
  bodyLine: number;
}

/** Splits front matter (`---` ... `---`, YAML read by a YAML parser) from the body. */
export function parseSkillDocument(text: string): ParsedSkill {
  const lines = text.replace(/\r\n/g, "\n").split("\n");
  if (lines[0]?.trim() !== "---") return { body: text, bodyLine: 1 };
  const end = lines.findIndex((l, i) => i > 0 && l.trim() === "---");
  if (end < 0) return { body: text, bodyLine: 1 };
  let frontMatter: Record<string, string> | undefined;
  let fields: Record<string, unknown> | undefined;
  let frontMatterError: string | undefined;
  try {
    const data: unknown = parseYaml()(lines.slice(1, end).join("\n"));
    if (data !== null && (typeof data !== "object" || Array.isArray(data)))
      throw new Error("the front matter must be a mapping of keys to values");
    fields = (data ?? {}) as Record<string, unknown>;
    frontMatter = Object.fromEntries(
      Object.entries((data ?? {}) as Record<string, unknown>).map(([k, v]) => [
        k,
        typeof v === "string" ? v.trim() : v == null ? "" : typeof v === "object" ? JSON.stringify(v) : String(v),
      ]),
    );
  } catch (e) {
    frontMatterError = (e as Error).message.split("\n")[0];
  }
  let k = end + 1;
  while (k < lines.length && lines[k].trim() === "") k++;
  return { frontMatter, fields, frontMatterError, body: lines.slice(k).join("\n"), bodyLine: k + 1 };
}

/** The front matter's fields in the Agent Skills format (agentskills.io/specification; its validator, skills-ref, allows no other). */
export const FORMAT_FIELDS = ["name", "description", "license", "compatibility", "metadata", "allowed-tools"];

/** The format's optional fields of a document, as a skill's inputs name them. */
export interface FormatFields {
  license?: string;
  compatibility?: string;
  metadata?: Record<string, string>;
  allowedTools?: string[];
}

/** The optional fields from front matter, and what the format's validator would refuse in it. */
/** A problem of the front matter, with the field it is about (to find its line). */
export interface FieldProblem {
  field: string;
  message: string;
}

export function formatFields(fields: Record<string, unknown> = {}): { values: FormatFields; problems: FieldProblem[] } {
  const problems: FieldProblem[] = [];
  for (const k of Object.keys(fields).filter((k) => !FORMAT_FIELDS.includes(k))) {
    problems.push({
      field: k,
      message: `${k} is not a field of the skill format; it allows ${FORMAT_FIELDS.join(", ")} (put others under metadata)`,
    });
  }
  const values: FormatFields = {};
  const { license, compatibility, metadata } = fields;
  const tools = fields["allowed-tools"];
  if (typeof license === "string") values.license = license;
  else if (license !== undefined)
    problems.push({ field: "license", message: "license must be text (a license name, or the file of one beside the skill)" });
  if (compatibility !== undefined) {
    const p = compatibilityProblem(compatibility);
    if (p) problems.push({ field: "compatibility", message: p });
    else values.compatibility = compatibility as string;
  }
  if (metadata !== undefined) {
    if (
      metadata === null ||
      typeof metadata !== "object" ||
      Array.isArray(metadata) ||
      Object.values(metadata).some((v) => typeof v !== "string")
    )
      problems.push({
        field: "metadata",
        message: 'metadata must be a mapping of keys to text values (quote numbers and dates: version: "1.0")',
      });
    else values.metadata = metadata as Record<string, string>;
  }
  if (typeof tools === "string") values.allowedTools = tools.split(/\s+/).filter(Boolean);
  else if (tools !== undefined)
    problems.push({ field: "allowed-tools", message: "allowed-tools must be text: tool names separated by spaces" });
  return { values, problems };
}

/** "line N (`the line`)" for a front matter field of a SKILL.md's text, or "" when it is not found. */
export function fieldAt(text: string | undefined, field: string): string {
  const lines = (text ?? "").split("\n");
  const end = lines.indexOf("---", 1);
  const i = lines.findIndex((l, n) => n > 0 && (end < 0 || n < end) && l.startsWith(`${field}:`));
  if (i < 0) return "";
  const line = lines[i].length > 60 ? `${lines[i].slice(0, 57)}...` : lines[i];
  return `line ${i + 1} (\`${line}\`): `;
}

/** Why a compatibility text is not one the format takes, or undefined. */
export function compatibilityProblem(v: unknown): string | undefined {
  if (typeof v !== "string" || !v.trim()) return "compatibility must be text (what the skill needs of its environment)";
  return v.length > 500 ? `compatibility is ${v.length} characters; the format allows at most 500` : undefined;
}

/** A model's answer reduced to the SKILL.md it contains: code fences and chatter around it removed. */
export function extractSkillDocument(answer: string): string {
  const fenced = /```(?:markdown|md)?\s*\n([\s\S]*?)\n```/.exec(answer);
  const text = fenced ? fenced[1] : answer;
  const start = text.indexOf("---");
  return (start >= 0 ? text.slice(start) : text).trim() + "\n";
}

/**
 * The format's own rule for a skill's name, as its reference validator (skills-ref) applies it: after NFKC, 1 to 64
 * characters, lowercase, letters (of any script) and digits with single hyphens inside — `café-notes` is a name.
 */
export function nameProblem(raw: string): string | undefined {
  const name = raw.trim().normalize("NFKC");
  if ([...name].length < 1 || [...name].length > 64) return "name must be 1 to 64 characters";
  const rules = [
    name !== name.toLowerCase() ? "be lowercase" : "",
    /^[\p{L}\p{N}-]+$/u.test(name) ? "" : "hold only letters, digits and hyphens",
    name.startsWith("-") || name.endsWith("-") || name.includes("--") ? "not start or end with a hyphen, nor hold two in a row" : "",
  ].filter(Boolean);
  return rules.length ? `name "${name}" must ${rules.join(", and ")} (e.g. deploy-preview)` : undefined;
}

export function descriptionProblem(description: string): string | undefined {
  if (!description.trim()) return "description must say what the skill does and when to use it";
  if (description.length > 1024) return `description must be at most 1024 characters (it has ${description.length})`;
  return undefined;
}

const SECTIONS = [
  { key: "prerequisites", test: /^prerequisites\b/i, required: true },
  { key: "quick reference", test: /^quick[- ]reference\b/i, required: false },
  { key: "workflows", test: /^(core )?workflows?\b/i, required: true },
  { key: "recipes", test: /^recipes\b/i, required: true },
  { key: "troubleshooting", test: /^troubleshooting\b/i, required: true },
  { key: "references", test: /^references\b/i, required: false },
];

/** Hard problems (with the line they concern) and warnings of a body whose first line is document line `first`. */
export function bodyProblems(body: string, first = 1): { errors: Problem[]; warnings: string[] } {
  const errors: Problem[] = [];
  const warnings: string[] = [];
  const lines = body.split("\n");
  const at = (i: number) => first + i;
  const titleAt = lines.findIndex((l) => l.trim() !== "");
  if (titleAt < 0 || !/^# \S/.test(lines[titleAt])) {
    errors.push({ line: at(Math.max(titleAt, 0)), message: "the body must open with a title (# Title) followed by an overview" });
  }
  const headings = lines
    .map((l, i) => ({ i, m: /^## (.+)$/.exec(l) }))
    .filter((h) => h.m)
    .map((h) => ({ i: h.i, text: h.m![1].trim() }));
  const subheadings = lines
    .map((l, i) => ({ i, m: /^### (.+)$/.exec(l) }))
    .filter((h) => h.m)
    .map((h) => ({ i: h.i, text: h.m![1].trim() }));
  const overview = lines.slice(titleAt + 1, headings[0]?.i ?? lines.length).some((l) => l.trim() && !l.startsWith("#"));
  if (titleAt >= 0 && !overview) errors.push({ line: at(titleAt + 1), message: "an overview paragraph must follow the title" });

  let last = -1;
  const seen = new Map<string, number>();
  const workflows: { i: number; text: string }[] = [];
  for (const h of headings) {
    const idx = SECTIONS.findIndex((s) => s.test.test(h.text));
    if (idx < 0) {
      warnings.push(`line ${at(h.i)}: section "${h.text}" is not one of the document's sections`);
      continue;
    }
    const s = SECTIONS[idx];
    if (s.key === "workflows") {
      // "## Core workflows" holding "### ..." subsections: each subsection is a workflow; else the section is one.
      const end = headings.find((x) => x.i > h.i)?.i ?? lines.length;
      const inside = subheadings.filter((x) => x.i > h.i && x.i < end);
      workflows.push(...(inside.length ? inside : [h]));
    }
    if (idx < last)
      errors.push({
        line: at(h.i),
        message: `section "${h.text}" is out of order: the order is title, prerequisites, quick reference, workflows, recipes, troubleshooting, references`,
      });
    if (s.key !== "workflows" && seen.has(s.key)) errors.push({ line: at(h.i), message: `section "${h.text}" appears twice` });
    seen.set(s.key, h.i);
    last = Math.max(last, idx);
  }
  for (const s of SECTIONS.filter((x) => x.required)) {
    if (s.key === "workflows" ? !workflows.length : !seen.has(s.key))
      errors.push({
        line: at(lines.length - 1),
        message: `the ${s.key} section (## ${s.key === "workflows" ? "Workflow ..." : s.key[0].toUpperCase() + s.key.slice(1)}) is missing`,
      });
  }
  if (workflows.length && (workflows.length < 3 || workflows.length > 7)) {
    errors.push({ line: at(workflows[0].i), message: `there must be 3 to 7 core workflows; there are ${workflows.length}` });
  }
  for (const w of workflows) {
    const next = [...headings, ...subheadings].filter((h) => h.i > w.i).sort((a, b) => a.i - b.i)[0]?.i ?? lines.length;
    if (!lines.slice(w.i + 1, next).some((l) => /^\s*\d+\.\s+\S/.test(l)))
      errors.push({ line: at(w.i), message: `workflow "${w.text}" needs numbered steps (1. ..., 2. ...)` });
  }
  const total = lines.length + first - 1;
  if (total < 50 || total > 300) warnings.push(`the document has ${total} lines; the guide is 50 to 300`);
  return { errors, warnings };
}

export const contentHash = (s: { name: string; description: string; instruction: string }) =>
  createHash("sha256")
    .update(JSON.stringify([s.name, s.description, s.instruction]))
    .digest("hex");

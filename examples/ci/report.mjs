#!/usr/bin/env node
// Turns the output of `pulumi preview --diff` or `pulumi refresh --preview-only --diff` into the comment a reviewer
// reads (Markdown on standard output):
//   node report.mjs --kind preview|drift --stack S --status N --output FILE [--failed STEP --remedy TEXT]
// The summary counts takeovers apart (the provider's notes say them; the engine counts them as creates).
// Deletions come first, then replacements, updates and creates, each by type and name, with a warning above the
// changes when DELETE_WARNING (default 5) or more resources are deleted or replaced; the commit (PIPELINE_COMMIT,
// GITHUB_SHA or CI_COMMIT_SHA) and time it describes head it; a cut comment names the resources it leaves out.
// The first line is a marker (host.mjs updates the comment that starts with it). The changes go in a diff block,
// where the unchanged entries of a changed map or list collapse into a count (a record set's 10,000 records);
// warnings and errors in a block of their own; the provider's progress lines (info diagnostics) and the CLI's
// chatter are left out. The whole is capped at COMMENT_LIMIT characters (default 60000, below GitHub's 65536),
// cutting the changes and pointing at the job's artifact. Every value of a variable PIPELINE_SECRETS names is
// masked, wherever it appears.
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";

const { values: a } = parseArgs({
  options: { kind: { type: "string" }, stack: { type: "string" }, status: { type: "string" }, output: { type: "string" }, failed: { type: "string" }, remedy: { type: "string" } },
});
const limit = Number(process.env.COMMENT_LIMIT ?? 60000);
const secrets = (process.env.PIPELINE_SECRETS ?? "").split(/\s+/).map((n) => process.env[n]).filter((v) => v && v.length >= 4);
const mask = (text) => secrets.reduce((t, s) => t.split(s).join("***"), text);
const fence = (text) => text.replace(/```/g, "`\u200b``"); // the output cannot close our code block

// A backend's SDK may print its own warnings into pulumi's output (MinIO's "Response has no supported checksum"):
// they are the store's, not the change's, and are left out.
const NOISE = /Response has no supported checksum|^\s*WARN(ING)?\b.*\b(checksum|aws-sdk|s3)\b/i;
const text = mask(a.output ? readFileSync(a.output, "utf8") : "").replace(/\r/g, "").split("\n").filter((l) => !NOISE.test(l)).join("\n");
const status = Number(a.status ?? 1);
const title = a.kind === "drift" ? "pulumi refresh (drift check)" : "pulumi preview";
const where = process.env.CI_JOB_URL ?? (process.env.GITHUB_RUN_ID ? `${process.env.GITHUB_SERVER_URL}/${process.env.GITHUB_REPOSITORY}/actions/runs/${process.env.GITHUB_RUN_ID}` : "");
const artifact = `the job's artifact ${a.kind}.txt${where ? ` (${where})` : ""}`;

// The CLI prints sections headed at column 0: the changes, then Diagnostics:, Outputs:, Resources:, Duration:.
// With --diff, diagnostics come as lines of their own at column 0 wherever they happen to be printed (standard
// error, interleaved): a warning or error joins the warnings wherever it is; a provider's progress line is left out.
const sections = { changes: [] };
const streamed = [];
// Takeovers: the engine counts an object that exists, taken over, as a create; the provider's note of each ends in
// "[takeover: N taken over, W to change]" (each note once, though the CLI may print it twice).
let takenOver = 0;
let takeoverWrites = 0;
for (const line of new Set(text.split("\n").map((l) => l.trim()).filter((l) => / \[takeover: \d+ taken over, \d+ to change\]$/.test(l)))) {
  const [, n, w] = / \[takeover: (\d+) taken over, (\d+) to change\]$/.exec(line);
  takenOver += Number(n);
  takeoverWrites += Number(w);
}
let current = "changes";
for (const line of text.split("\n")) {
  if (/^(warning|error): /.test(line) && !/^error: no changes were expected/.test(line)) { streamed.push(`    ${line}`); continue; }
  if (/^\[pulumi-ops\] /.test(line)) continue;
  const header = /^(Diagnostics|Outputs|Resources|Duration):/.exec(line);
  if (header) { current = header[1].toLowerCase(); sections[current] = [line.slice(header[0].length).trim()].filter(Boolean); continue; }
  if (/^(Update plan written to|Run `pulumi up --plan|View Live:|Previewing update|Refreshing \(|Previewing refresh)/.test(line)) continue;
  (sections[current] ??= []).push(line);
}
// Each resource's line gets its name from the [urn=...] line under it (dropped, with [id=...]), and its sign moves
// to the first column, where a diff block colours it. Errors and warnings the CLI prints among the changes join the
// diagnostics; info lines (the provider's progress) are left out.
const changes = [];
const inline = [];
let resource = -1;
let changed = 0;
let op = "";
for (const line of sections.changes) {
  if (!line.trim() || /^\s*(info|info#err): /.test(line)) continue;
  if (/^\s*error: no changes were expected/.test(line)) continue; // the headline says so
  if (/^\s*(error|warning): /.test(line)) { inline.push(`    ${line.trim()}`); continue; }
  const urn = /^\s*\[urn=urn:pulumi:[^:]*::[^:]*::.*::([^:]+)\]$/.exec(line);
  if (urn && resource >= 0) { changes[resource] = changes[resource].replace(/: \(/, ` ${urn[1]}: (`); continue; }
  if (/^\s*\[id=[^\]]*\]$/.test(line)) continue;
  if (/^\s*--outputs:--$/.test(line)) continue;
  const signed = /^(\s*)([-+~<>]{1,3}) (.*)$/.exec(line);
  const header = /^\s*(?:[-+~<>]{1,3} )?\S+: \((\w[\w-]*)\)$/.exec(line);
  if (header) {
    resource = changes.length;
    op = header[1];
    if (signed) changed++;
  } else if (a.kind === "drift" && (!signed || op !== "update")) continue; // drift: what changed, not every property
  changes.push(signed ? `${signed[2].padEnd(3)}${signed[1]}${signed[3]}` : `   ${line}`);
}

// Inside a changed value (a line signed ~ that opens { or [), an entry printed without a sign is unchanged: the CLI's
// --diff shows every entry of a changed map, so a record set of 10,000 records with 3 changed would print them all.
// Unchanged entries that are blocks of their own collapse into one line saying how many; the changed ones keep
// their fields, the unchanged fields included, for context.
function collapseUnchanged(lines) {
  const parsed = lines.map((l) => {
    const sign = l.slice(0, 3).trim();
    const body = l.slice(3);
    return { l, sign, text: body.trim(), col: body.length - body.trimStart().length + (sign ? sign.length + 1 : 0) };
  });
  const opens = (p) => /[{[]$/.test(p.text);
  const closes = (p) => /^[}\]]/.test(p.text);
  const out = [];
  const open = [];
  let hidden = 0;
  let hiddenCol = 0;
  const flush = () => {
    if (hidden) out.push(`   ${" ".repeat(hiddenCol)}... ${hidden} unchanged ${hidden === 1 ? "entry" : "entries"} not shown`);
    hidden = 0;
  };
  for (let i = 0; i < parsed.length; i++) {
    const p = parsed[i];
    if (!p.sign && opens(p) && open.at(-1)?.sign === "~") {
      let j = i + 1;
      while (j < parsed.length && !(parsed[j].col === p.col && closes(parsed[j]))) j++;
      if (j < parsed.length) {
        hidden++;
        hiddenCol = p.col;
        i = j;
        continue;
      }
    }
    flush();
    out.push(p.l);
    if (opens(p)) open.push(p);
    else if (closes(p) && open.at(-1)?.col === p.col) open.pop();
  }
  flush();
  return out;
}
changes.splice(0, changes.length, ...collapseUnchanged(changes));

// Resources in order of what a reviewer must not miss: deletions, then replacements, updates, creates, the rest;
// within each, by type and name. A block is a resource's line and the lines of its properties under it.
const RANK = { delete: 0, "delete-replaced": 1, replace: 1, "create-replacement": 1, "replacement": 1, update: 2, create: 3 };
const blocks = [];
for (const line of changes) {
  const head = /^[-+~<> ]{3}\s*(\S+?)(?: (\S+))?: \((\w[\w-]*)\)$/.exec(line);
  if (head || !blocks.length) blocks.push({ type: head?.[1] ?? "", name: head?.[2] ?? "", op: head?.[3] ?? "", lines: [line] });
  else blocks.at(-1).lines.push(line);
}
const rank = (b) => (b.type === "pulumi:pulumi:Stack" ? -1 : RANK[b.op] ?? 4);
blocks.sort((x, y) => rank(x) - rank(y) || x.type.localeCompare(y.type) || x.name.localeCompare(y.name));
const count = (ops) => blocks.filter((b) => ops.includes(b.op)).length;
const deletions = count(["delete"]);
const replacements = count(["replace"]); // --diff prints a replacement as replace and as create-replacement: once
const WARN_AT = Number(process.env.DELETE_WARNING ?? 5);

// Diagnostics: keep each resource's warnings and errors with its name; drop info (progress) messages.
const problems = [...new Set([...inline, ...streamed])];
let owner = "";
let keep = false;
for (const line of sections.diagnostics ?? []) {
  if (/^ {2}\S.*:$/.test(line)) { owner = line; continue; }
  const message = /^ {4}(\w+(?:#err)?): /.exec(line);
  if (message) keep = message[1] === "error" || message[1] === "warning";
  if (keep && line.trim()) {
    if (owner) { problems.push(owner); owner = ""; }
    problems.push(line);
  }
}
// A failed preview's counts are of what it reached before the error (3 unchanged of 36): not shown as a summary.
const summary = status === 0 || a.kind === "drift" ? (sections.resources ?? []).map((l) => l.trim()).filter((l) => l && !l.startsWith("error: no changes were expected")) : [];
if (summary.length && takenOver) summary.push(`${takenOver} taken over, ${takeoverWrites} write${takeoverWrites === 1 ? "" : "s"} (objects that exist, counted above as creates: nothing is made for them${takeoverWrites ? `; ${takeoverWrites} changed to the program's` : ""})`);

let headline;
if (a.failed) headline = `**The ${a.kind === "drift" ? "drift check" : "preview"} did not run**: ${mask(a.failed)}. ${mask(a.remedy ?? "")}`;
else if (a.kind === "drift") {
  headline = status === 0 ? "No drift: every resource matches the state." : changed && !problems.length ? `**Drift found**: ${changed} resource(s) differ from the state (below). Run \`pulumi refresh\` to accept what changed, or \`pulumi up\` to put it back.` : `**The drift check failed** (exit ${status}): the errors are below.`;
} else headline = status === 0 ? "What this change does when it is merged and applied:" : `**The preview failed** (exit ${status}): the errors are below. Nothing was changed.`;

const marker = `<!-- pulumi-ops:${a.kind}:${a.stack} -->`;
// Which push this describes (the comment is edited in place on every push): the commit and the time.
const commit = process.env.PIPELINE_COMMIT ?? process.env.GITHUB_SHA ?? process.env.CI_COMMIT_SHA;
const stamp = `_${commit ? `Commit ${commit.slice(0, 12)}, ` : ""}${a.kind === "drift" ? "checked" : "previewed"} ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC._`;
const warning =
  !a.failed && a.kind !== "drift" && deletions + replacements >= WARN_AT
    ? `> [!WARNING]\n> **This change deletes ${deletions} resource${deletions === 1 ? "" : "s"}${replacements ? ` and replaces ${replacements}` : ""}**: they are listed first below. Check that this is meant before merging.`
    : "";
const build = (shown) => {
  const parts = [marker, `### ${title}: \`${a.stack}\``, "", stamp, "", headline, ""];
  if (warning) parts.push(warning, "");
  if (summary.length) parts.push(summary.join(" · "), "");
  const lines = blocks.slice(0, shown).flatMap((b) => b.lines);
  const total = blocks.reduce((n, b) => n + b.lines.length, 0);
  if (lines.length) parts.push("```diff", fence(lines.join("\n")), "```");
  if (shown < blocks.length) {
    const rest = blocks.slice(shown).map((b) => `${b.name || b.type} (${b.op})`);
    const named = rest.join(", ");
    parts.push(`_The changes are ${total} lines; this comment shows the first ${lines.length}. The whole output is ${artifact}. Not shown: ${rest.length} more resource${rest.length === 1 ? "" : "s"}: ${named.length > 4000 ? `${named.slice(0, 4000)}, ...` : named}._`);
  }
  if (problems.length) parts.push("", "Warnings and errors:", "```", fence(problems.join("\n")), "```");
  if (a.failed && text.trim()) parts.push("", "Its output:", "```", fence(text.trim().split("\n").slice(-30).join("\n")), "```");
  return parts.join("\n") + "\n";
};
let shown = blocks.length;
let body = build(shown);
while (body.length > limit && shown > 0) {
  shown = Math.max(0, shown - Math.max(1, Math.ceil(((body.length - limit) / body.length) * shown) + 1));
  body = build(shown);
}
if (body.length > limit) body = body.slice(0, limit - 80) + `\n\n_Cut at ${limit} characters: see ${artifact}._\n`;
process.stdout.write(body);

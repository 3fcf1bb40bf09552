/**
 * A model definition file (a Modelfile) read as the runner's own parser reads it (parser/parser.go of Ollama 0.32):
 * the same states, so quoting, `"""` blocks over several lines, comments and errors come out the same, and the same
 * mapping of its directives to a create request — FROM a model name or a local GGUF file or model folder (sent as
 * blobs), DRAFT (a local draft model for speculative decoding, sent as `draft_files`; since 0.24), ADAPTER,
 * TEMPLATE, SYSTEM, LICENSE (each line adds one), MESSAGE, REQUIRES, RENDERER, PARSER and PARAMETER (typed by the
 * runner's option list; repeated list values add up; a name this list lacks is sent as written, for the runner to
 * judge: a newer runner may know it).
 */
import { modelNameProblem } from "../model-name";
import { expandPath, isLocalSource } from "./files";

/**
 * The parameters a model may set, with the kind of value each takes: the runner's own option list (its `Options`
 * and `Runner` structs, api/types.go). `stop` is a list: each `PARAMETER stop` line adds one.
 */
export const PARAMETERS: Record<string, "number" | "integer" | "boolean" | "list"> = {
  num_keep: "integer",
  seed: "integer",
  num_predict: "integer",
  top_k: "integer",
  top_p: "number",
  min_p: "number",
  typical_p: "number",
  repeat_last_n: "integer",
  temperature: "number",
  repeat_penalty: "number",
  presence_penalty: "number",
  frequency_penalty: "number",
  stop: "list",
  num_ctx: "integer",
  num_batch: "integer",
  num_gpu: "integer",
  main_gpu: "integer",
  use_mmap: "boolean",
  num_thread: "integer",
  draft_num_predict: "integer", // 0.30: tokens the draft model proposes per step
};
/** Parameters the runner still reads from old files, warns about and drops (parser.go's deprecatedParameters). */
export const DEPRECATED_PARAMETERS = [
  "penalize_newline",
  "low_vram",
  "f16_kv",
  "logits_all",
  "vocab_only",
  "use_mlock",
  "mirostat",
  "mirostat_tau",
  "mirostat_eta",
];

export type ParameterValue = string | number | boolean | string[];
export type Message = { role: "system" | "user" | "assistant"; content: string };

/** What a model is made of: the fields of the runner's create request, with local files by path. */
export interface Definition {
  /** A base model's name, or the absolute path of a GGUF file or model folder on this machine. */
  from?: string;
  /** A draft model (GGUF file or folder on this machine) for speculative decoding. */
  draft?: string;
  adapter?: string;
  template?: string;
  system?: string;
  license?: string[];
  messages?: Message[];
  requires?: string;
  renderer?: string;
  parser?: string;
  parameters: Record<string, ParameterValue>;
}

export const DIRECTIVES = [
  "from",
  "license",
  "template",
  "system",
  "adapter",
  "draft",
  "renderer",
  "parser",
  "parameter",
  "message",
  "requires",
];
const isAlpha = (c: string) => /^[A-Za-z]$/.test(c);
const isSpace = (c: string) => c === " " || c === "\t";
const isNewline = (c: string) => c === "\r" || c === "\n";
/** Go's strconv.IsPrint: what the parser keeps outside a value (no control characters). */
const isPrint = (c: string) => c !== "" && !/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u.test(c);

/** The parser's unquote: one pair of `"""` or `"` taken off; false while a quote is still open. */
function unquote(s: string): [string, boolean] {
  if (s.startsWith('"""')) return s.length >= 6 && s.endsWith('"""') ? [s.slice(3, -3), true] : ["", false];
  if (s.startsWith('"')) return s.length >= 2 && s.endsWith('"') ? [s.slice(1, -1), true] : ["", false];
  return [s, true];
}

type State = "nil" | "name" | "value" | "parameter" | "message" | "comment";
export interface Command {
  name: string;
  args: string;
  line: number;
}

/** The file's commands, or the runner's own error for it (with its line). A port of parser.ParseFile. */
export function parseCommands(text: string): { commands: Command[]; problem?: string } {
  const commands: Command[] = [];
  let cmd: Command = { name: "", args: "", line: 1 };
  let curr: State = "nil";
  let line = 1;
  let b = "";
  let role = "";
  const fail = (msg: string) => ({ commands, problem: `line ${line}: ${msg}` });
  const invalid = `unknown directive; the runner takes ${DIRECTIVES.map((d) => d.toUpperCase()).join(", ")}`;
  for (const ch of text.replace(/^\uFEFF/, "")) {
    if (isNewline(ch)) line++;
    let next: State;
    let r = ch;
    switch (curr) {
      case "nil":
        [next, r] = ch === "#" ? ["comment", ""] : isSpace(ch) || isNewline(ch) ? ["nil", ""] : ["name", ch];
        break;
      case "name":
        if (isAlpha(ch)) next = "name";
        else if (isSpace(ch)) [next, r] = ["value", ""];
        else if (isNewline(ch) && DIRECTIVES.includes(b.toLowerCase())) return { commands, problem: `line ${line - 1}: ${b} has no value` };
        else return fail(`"${b}${ch.trim()}": ${invalid}`);
        break;
      case "value":
        next = isNewline(ch) || isSpace(ch) ? "nil" : "value";
        break;
      case "parameter":
        if (/^[A-Za-z0-9_]$/.test(ch)) next = "parameter";
        else if (isSpace(ch)) [next, r] = ["value", ""];
        else return fail(`PARAMETER ${b} has no value`);
        break;
      case "message":
        if (isAlpha(ch)) next = "message";
        else if (isSpace(ch)) [next, r] = ["value", ""];
        else return fail(`MESSAGE ${b} has no content`);
        break;
      case "comment":
        [next, r] = isNewline(ch) ? ["nil", ""] : ["comment", ""];
        break;
    }
    if (next! !== curr) {
      switch (curr) {
        case "name": {
          const s = b.toLowerCase();
          if (!DIRECTIVES.includes(s)) return fail(`"${b}": ${invalid}`);
          cmd = { name: s === "from" ? "model" : s, args: "", line };
          if (s === "parameter") next = "parameter";
          if (s === "message") next = "message";
          break;
        }
        case "parameter":
          cmd.name = b;
          break;
        case "message":
          if (!["system", "user", "assistant"].includes(b)) return fail(`MESSAGE role "${b}" must be one of system, user or assistant`);
          role = b;
          break;
        case "value": {
          const [s, ok] = unquote(b.trim());
          if (!ok || isSpace(r)) {
            b += r;
            continue;
          }
          cmd.args = role ? `${role}: ${s}` : s;
          role = "";
          commands.push(cmd);
          break;
        }
      }
      b = "";
      curr = next!;
    }
    if (isPrint(r)) b += r;
  }
  if (curr === "value") {
    const [s, ok] = unquote(b.trim());
    if (!ok) return fail(`a quote opened in line ${cmd.line} is not closed`);
    cmd.args = role ? `${role}: ${s}` : s;
    commands.push(cmd);
  } else if (curr !== "nil" && curr !== "comment") return fail(`the file ends inside a ${curr === "name" ? "directive" : curr}`);
  if (!commands.some((c) => c.name === "model")) return { commands, problem: "line 1: a definition needs a FROM line" };
  return { commands };
}

/** Why a parameter's value is not one the runner takes (its FormatParams), or undefined. */
export function parameterProblem(name: string, value: unknown): string | undefined {
  const kind = PARAMETERS[name];
  // A name the list lacks is the runner's to judge (a newer runner may know it): its refusal comes back as one line.
  if (!kind) {
    const known = Object.keys(PARAMETERS).find((k) => k === name.toLowerCase());
    if (known) return `parameter "${name}" is ${known}: the runner's names are lower case, and it ignores a name it does not know`;
    // A slip of a known name (temprature): the runner would store it and run without the option (its own CLI
    // refuses such a name); a name far from every known one may be a newer runner's, and is sent.
    const near = Object.keys(PARAMETERS)
      .filter((k) => name.length >= 4 && !DEPRECATED_PARAMETERS.includes(name) && editDistance(k, name.toLowerCase()) <= 2)
      .sort((a, b) => editDistance(a, name) - editDistance(b, name))[0];
    if (near)
      return `parameter "${name}" is not one the runner knows: did you mean ${near}? (the runner keeps a name it does not know and ignores it, so the option would be lost)`;
    return /^[A-Za-z0-9_]+$/.test(name) ? undefined : `parameter name "${name}" must be letters, digits and _`;
  }
  if (kind === "list")
    return typeof value === "string" || (Array.isArray(value) && value.every((v) => typeof v === "string"))
      ? undefined
      : `parameter ${name} needs text or a list of texts, got ${JSON.stringify(value)}`;
  if (kind === "boolean")
    return typeof value === "boolean" || (typeof value === "string" && parseBool(value) !== undefined)
      ? undefined
      : `parameter ${name} needs true or false, got ${JSON.stringify(value)}`;
  const n = typeof value === "number" ? value : typeof value === "string" ? parseNumber(value, kind) : NaN;
  if (!Number.isFinite(n)) return `parameter ${name} needs a${kind === "integer" ? "n integer" : " number"}, got ${JSON.stringify(value)}`;
  if (kind === "integer" && !Number.isInteger(n)) return `parameter ${name} needs an integer, got ${n}`;
  return undefined;
}
/** How many single-character insertions, deletions or substitutions make `a` into `b` (Levenshtein). */
function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length];
}

/** Go's strconv.ParseBool. */
const parseBool = (v: string) =>
  ["1", "t", "T", "TRUE", "true", "True"].includes(v) ? true : ["0", "f", "F", "FALSE", "false", "False"].includes(v) ? false : undefined;
/** strconv.ParseInt (base 10) or ParseFloat, as the runner reads a parameter's text. */
const parseNumber = (v: string, kind: "number" | "integer") =>
  kind === "integer" ? (/^[+-]?\d+$/.test(v) ? Number(v) : NaN) : /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(v) ? Number(v) : NaN;

/** A parameter's text as the runner stores it: typed by its option list. */
export function typedParameter(name: string, value: string): ParameterValue {
  const kind = PARAMETERS[name];
  // A name the list lacks: a number or a boolean as written, else the text.
  if (!kind) return Number.isFinite(parseNumber(value, "number")) ? Number(value) : (parseBool(value) ?? value);
  return kind === "boolean" ? parseBool(value)! : kind === "number" || kind === "integer" ? parseNumber(value, kind) : value;
}

/** A definition file's create request, or the problems found, each with its line. */
export function parseDefinition(text: string, relativeDir = process.cwd()): { definition: Definition; problems: string[] } {
  const definition: Definition = { parameters: {} };
  const { commands, problem } = parseCommands(text);
  const problems = problem ? [problem] : [];
  for (const c of problem ? [] : commands) {
    const at = `line ${c.line}`;
    switch (c.name) {
      case "model":
        if (isLocalSource(c.args, relativeDir)) definition.from = expandPath(c.args, relativeDir);
        else if (modelNameProblem(c.args))
          problems.push(
            `${at}: FROM needs a model name such as llama3.2 or qwen2.5:0.5b, or a GGUF file or model folder that exists (${modelNameProblem(c.args)})`,
          );
        else definition.from = c.args;
        break;
      case "draft": {
        // The runner takes a draft from files only, and never the FROM files themselves (rejectMatchingLocalPath).
        const draft = expandPath(c.args, relativeDir);
        if (!isLocalSource(c.args, relativeDir))
          problems.push(
            `${at}: DRAFT ${c.args} is not a file or folder here: a draft model is a GGUF file or model folder on this machine (relative paths start at the definition file's folder)`,
          );
        else if (definition.from === draft)
          problems.push(`${at}: DRAFT ${c.args} is the FROM model itself: a draft is a smaller model of the same family`);
        else definition.draft = draft;
        break;
      }
      case "adapter":
        if (isLocalSource(c.args, relativeDir)) definition.adapter = expandPath(c.args, relativeDir);
        else problems.push(`${at}: ADAPTER ${c.args} is not a file or folder here (relative paths start at the definition file's folder)`);
        break;
      case "template":
      case "system":
      case "renderer":
      case "parser":
        definition[c.name] = c.args;
        break;
      case "license":
        definition.license = [...(definition.license ?? []), c.args];
        break;
      case "requires": {
        const version = c.args.replace(/^v/, "");
        if (!SEMVER.test(version)) problems.push(`${at}: REQUIRES needs a version such as 0.14.0, got "${c.args}"`);
        else definition.requires = version;
        break;
      }
      case "message": {
        const [role, content] = [c.args.slice(0, c.args.indexOf(": ")), c.args.slice(c.args.indexOf(": ") + 2)];
        definition.messages = [...(definition.messages ?? []), { role: role as Message["role"], content }];
        break;
      }
      default: {
        if (DEPRECATED_PARAMETERS.includes(c.name)) break; // the runner warns and drops it
        const problem = parameterProblem(c.name, c.args);
        if (problem) problems.push(`${at}: ${problem}`);
        else if (PARAMETERS[c.name] === "list")
          definition.parameters[c.name] = [...((definition.parameters[c.name] as string[] | undefined) ?? []), c.args];
        else definition.parameters[c.name] = typedParameter(c.name, c.args);
      }
    }
  }
  return { definition, problems };
}

/** A semantic version as golang.org/x/mod/semver takes it (after the `v`): 1, 1.2 and 1.2.3, with a pre-release. */
export const SEMVER = /^\d+(\.\d+){0,2}(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/;

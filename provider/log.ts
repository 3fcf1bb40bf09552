/**
 * What the provider tells the user while it works: progress (pulls, waits, retries) and warnings (adoption, a
 * skill's style notes, what stays behind). On the plugin door each line goes to the engine under the resource it
 * belongs to (progress as the resource's status); on the dynamic door the engine gives the provider no resource to
 * name, so progress goes to stderr, which the CLI shows at stack level. Warnings go to the engine's diagnostics on
 * both doors, at stack level: the CLI lists them once under Diagnostics and a pull request's comment under its
 * warnings, never inside a resource's diff. A warning is shown once per command (and per kind, see warn);
 * `ops:quiet` (PULUMI_OPS_QUIET) silences both. Every line passes through `redact`, which masks
 * each credential the config loaded.
 */
import { AsyncLocalStorage } from "node:async_hooks";

const secrets = new Set<string>();

/** Registers a credential value so that it is masked wherever it would be printed or thrown. */
export function registerSecret(value: string | undefined): void {
  if (value && value.length >= 4) secrets.add(value);
}

/** The secret values of the call being served (its inputs marked secret), masked like credentials while it runs. */
const callSecrets = new AsyncLocalStorage<{ values: string[]; any: boolean }>();

/**
 * Runs `f` for a call whose inputs hold the secret `values` (each string inside a secret input): every line and
 * error of the call masks them, and `callHasSecrets()` tells a handler to leave out what it cannot mask (a secret
 * command's output, which quotes pieces of it). Nested calls add to the outer call's values.
 */
export function withCallSecrets<T>(values: string[], f: () => T, any = values.length > 0): T {
  const outer = callSecrets.getStore();
  if (!any && !outer) return f();
  return callSecrets.run(
    { values: [...(outer?.values ?? []), ...values.filter((v) => v.length >= 4)], any: (outer?.any ?? false) || any },
    f,
  );
}

/** Whether the call being served has a secret input. */
export function callHasSecrets(): boolean {
  return callSecrets.getStore()?.any ?? false;
}

export function redact(text: string): string {
  let out = text;
  for (const s of secrets) out = out.split(s).join("[secret]");
  // The longest first: a secret that holds another is masked whole.
  for (const s of [...(callSecrets.getStore()?.values ?? [])].sort((a, b) => b.length - a.length)) out = out.split(s).join("[secret]");
  return out;
}

/** info: progress, ephemeral where the door can; notice: info that stays (what a resource will do or did); warning. */
export type Severity = "info" | "notice" | "warning";
/** Where lines go when a door has a better place than stderr: the engine, under `urn`. */
export type LogSink = (severity: Severity, line: string, urn: string | undefined) => boolean;

let sink: LogSink | undefined;
/** The resource a call serves (the plugin door knows it), and warnings collected instead of shown. */
const context = new AsyncLocalStorage<{ urn?: string; collected?: string[] }>();
const shown = new Set<string>();

export function useLogSink(s: LogSink | undefined): void {
  sink = s;
}

/** The resource the current call serves, where the door knows it (the plugin door). */
export function currentUrn(): string | undefined {
  return context.getStore()?.urn;
}

/** Runs `f` on behalf of the resource `urn`: its lines are shown under it where the door can. */
export function forResource<T>(urn: string, f: () => T): T {
  return context.run({ urn }, f);
}

/** Runs `f` and returns the warnings it made instead of showing them (the caller decides). */
export function collectWarnings<T>(f: () => T): { result: T; warnings: string[] } {
  const collected: string[] = [];
  const result = context.run({ ...context.getStore(), collected }, f);
  return { result, warnings: collected };
}

/**
 * Whether `ops:quiet` is set: config.ts, which reads settings, tells this module how to ask (log.ts imports nothing
 * of config.ts, which registers its credentials here); until then, the environment variable alone.
 */
let quietSetting: () => string | undefined = () => process.env.PULUMI_OPS_QUIET;
let acknowledgedSetting: () => string | undefined = () => process.env.PULUMI_OPS_ACKNOWLEDGED_WARNINGS;

export function readQuietWith(read: () => string | undefined, acknowledged?: () => string | undefined): void {
  quietSetting = read;
  if (acknowledged) acknowledgedSetting = acknowledged;
}

/** The warning kinds the stack has read and acknowledged (`ops:acknowledgedWarnings`, comma-separated). */
function acknowledged(kind: string): boolean {
  return (acknowledgedSetting() ?? "").split(/[\s,]+/).includes(kind);
}

/** Whether progress lines are off (`ops:quiet`): a line nobody sees is not worth a request. */
export function quiet(): boolean {
  const q = quietSetting();
  return q === "1" || q === "true";
}

function emit(severity: Severity, line: string): void {
  if (quiet()) return;
  const text = redact(line);
  if (sink?.(severity, text, context.getStore()?.urn)) return;
  process.stderr.write(`[pulumi-ops] ${severity === "warning" ? "warning: " : ""}${text}\n`);
}

/** Progress: a pull, a wait, a retry. */
export function log(line: string): void {
  emit("info", line);
}

/**
 * What a resource will do or did that the user should see, and need not act on (an adoption said at preview and at
 * up): info that stays in the output, not a warning; shown once per command.
 */
export function notice(line: string): void {
  if (shown.has(line)) return;
  shown.add(line);
  emit("notice", line);
}

/**
 * A takeover a preview or an up foresees: `objects` that exist taken over instead of made, `writes` of them changed
 * (the others send nothing). Said as a note ending in `[takeover: N taken over, W to change]`, which the pipeline's
 * comment counts apart from what is made (examples/ci/report.mjs), as the engine counts a takeover as a create.
 */
export function takeoverNotice(line: string, objects: number, writes: number): void {
  notice(`${line} [takeover: ${objects} taken over, ${writes} to change]`);
}

/**
 * Something the user should know and may act on; the same warning is shown once per command. A warning of a `kind`
 * (one that every resource of a type would repeat: a deprecated product, a token's expiry) is shown once per command
 * (and `scope`) whatever resource says it, with its kind named, and never once the stack lists the kind in ops:acknowledgedWarnings.
 */
export function warn(line: string, kind?: string, scope = ""): void {
  const collected = context.getStore()?.collected;
  if (collected) {
    collected.push(line);
    return;
  }
  // `scope` parts what one kind says of several things (two accounts' tokens): once each.
  const key = kind ? `kind:${kind}:${scope}` : line;
  if (shown.has(key) || (kind && acknowledged(kind))) return;
  shown.add(key);
  emit("warning", kind ? `${line} [${kind}: once a stack has read it, ops:acknowledgedWarnings: ${kind} leaves it out]` : line);
}

/** Forgets the warnings shown (a new command starts with none; tests that share a process need the same). */
export function forgetShownWarnings(): void {
  shown.clear();
}

/** The error with every credential masked from its message. */
export function redacted(e: unknown): Error {
  const err = e instanceof Error ? e : new Error(String(e));
  const clean = new Error(redact(err.message));
  clean.name = err.name;
  return clean;
}

/**
 * `check`'s answer as the engine shows it and keeps it. The engine prints a failure with a property as "property P
 * value {V} has a problem", V being the whole top-level input (a record set's 10,000 records, on one line); a failure
 * without a property is printed as its reason alone. So a nested failure, or one about a long value, goes without a
 * property, its path and its own (short, redacted) value in the reason; a list of problems is cut at SHOWN with a
 * count. The checked inputs are kept in the engine's form (engine-inputs.ts), with what they alone decide.
 */
import { withAccount } from "./config";
import { isUnknown, type CheckFailure } from "./check";
import { SECRETS_KEY } from "./call-bags";
import { forEngine } from "./engine-inputs";
import type { Bag } from "./handler";
import { redact, withCallSecrets } from "./log";
import { registry } from "./registry";
import { setsAsLists } from "./set-text";

/** Problems printed at most per resource: one bad record among thousands is one line, never a dump of them all. */
const SHOWN = 5;
/** A top-level value longer than this is not printed by the engine beside its problem. */
const PRINTABLE = 120;

/** A check's failures as the engine prints them, no secret in any: `secretValues` are the call's secret strings. */
export async function shownFailures(
  type: string,
  news: Bag,
  raw: CheckFailure[],
  secretInputs: Set<string>,
  secretValues: string[],
): Promise<CheckFailure[]> {
  const given = raw.length && registry[type]?.typed ? await registry[type].typed!(news) : news; // values named by path
  // A value that is or may be secret is never printed: secret inputs, and what the type treats as secret.
  const named = Array.isArray(news[SECRETS_KEY]) ? (news[SECRETS_KEY] as string[]) : [];
  const secret = new Set([...secretInputs, ...named]);
  const hidden = new Set([
    ...secret,
    ...(registry[type]?.secretOutputs?.(news, secret.size > 0) ?? []),
    "password",
    "helperToken",
    "verifyToken",
  ]);
  // A reason may quote the value it is about: a secret input's value is masked there too (log.ts).
  const all = raw
    .map((f) => withCallSecrets(secretValues, () => ({ ...f, reason: redact(f.reason) })))
    .map((f) => {
      const [top, ...rest] = f.property.split(".");
      const multiline = typeof given[top] === "string" && (given[top] as string).includes("\n");
      if (!rest.length && (hidden.has(top) || (!multiline && JSON.stringify(given[top] ?? null).length <= PRINTABLE))) return f;
      let value: unknown = given;
      for (const k of [top, ...rest]) value = value && typeof value === "object" ? (value as Bag)[k] : undefined;
      const json = JSON.stringify(value);
      // A document (several lines) is not quoted: the reason names the lines at fault.
      const document = typeof value === "string" && value.includes("\n") ? `${value.split("\n").length} lines` : undefined;
      const masked = withCallSecrets(secretValues, () => redact(json ?? ""));
      const shown = hidden.has(top)
        ? "[secret]"
        : value === undefined
          ? "not set"
          : (document ?? (masked.length > 80 ? `${masked.slice(0, 77)}...` : masked));
      return { property: "", reason: `${f.property} (${shown}): ${f.reason}` };
    });
  return all.length > SHOWN
    ? [...all.slice(0, SHOWN), { property: "", reason: `and ${all.length - SHOWN} more problems (the first ${SHOWN} are shown)` }]
    : all;
}

/**
 * Inputs as the engine keeps them, for a check's answer and a refresh's alike (so a refresh never reads as a change of
 * form): sets as texts and no default (engine-inputs.ts), and what the inputs alone decide known at preview (the
 * engine shows checked inputs as a preview's outputs), named under `__known` so that handlers are given the
 * program's inputs alone.
 */
export async function engineForm(type: string, given: Bag, account: string | undefined): Promise<Bag> {
  const inputs = forEngine(type, given);
  const known = registry[type] ? (await registry[type].handler()).knownAtPreview : undefined;
  if (!known) return inputs;
  const plain = Object.fromEntries(Object.entries(setsAsLists(inputs)).filter(([k, v]) => !isUnknown(v) && !k.startsWith("__")));
  // A lookup that fails (no zone of that name) is the preview check's to say: nothing more is known then.
  const found = await withAccount(account, async () => known(plain)).catch(() => ({}) as Bag);
  const added = Object.keys(found).filter((k) => !(k in inputs));
  return { ...inputs, ...found, ...(added.length ? { __known: added } : {}) };
}

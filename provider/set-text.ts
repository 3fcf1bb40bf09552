/**
 * Lists the service keeps as sets (a person's page tasks, a subscription's fields, a record's tags), as the engine
 * carries them in checked inputs: one text, `@set` and a line per value in a fixed order. The engine shows a
 * resource's change from its old and new checked inputs, position by position for a list (`~[0] "MODERATE" =>
 * "CREATE_CONTENT"`, `- [3] "ANALYZE"`), which reads as other changes than the one made; a multi-line text it shows
 * line by line, so a set's change shows as the values added and removed (`+ CREATE_CONTENT`, `- MESSAGING`). The
 * first line keeps the display from reading the text as YAML. Handlers never see the text: the door turns it back
 * into the list before every call, and the program's outputs are lists (the SDK reads a preview's text back).
 */
export const SET_HEADER = "@set";

type Bag = Record<string, unknown>;

/** Whether `v` is a set's text. */
export function isSetText(v: unknown): v is string {
  return typeof v === "string" && (v === SET_HEADER || v.startsWith(`${SET_HEADER}\n`));
}

/** The values as one text, sorted (the same set, the same text); undefined when a value cannot be a line. */
export function setToText(values: unknown): string | undefined {
  if (!Array.isArray(values) || !values.every((v) => typeof v === "string" && v !== "" && !v.includes("\n"))) return undefined;
  const sorted = [...new Set(values as string[])].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return [SET_HEADER, ...sorted].join("\n");
}

/** The list a set's text stands for; anything else as it is. */
export function setFromText(v: unknown): unknown {
  return isSetText(v) ? v.split("\n").slice(1) : v;
}

/** `bag` with the named lists as texts (the checked inputs the engine keeps and shows). */
export function setsAsText(bag: Bag, names: readonly string[]): Bag {
  let out = bag;
  for (const n of names) {
    const text = setToText(bag[n]);
    if (text !== undefined) out = { ...out, [n]: text };
  }
  return out;
}

/** `value` (a call's inputs, olds or props) with every set's text as its list, for a handler. */
export function setsAsLists<T>(value: T): T {
  if (!value || typeof value !== "object" || Array.isArray(value)) return value;
  const entries = Object.entries(value as Bag);
  if (!entries.some(([, v]) => isSetText(v))) return value;
  return Object.fromEntries(entries.map(([k, v]) => [k, setFromText(v)])) as T;
}

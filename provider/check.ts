/**
 * `check` for every resource, driven by its zod schema: unknown values of a preview are left alone, each failure
 * names the property and the fix, and the inputs that go on are the schema's parsed (defaulted, normalised) ones.
 */
import { z } from "zod";
import { ValidationError } from "./http/errors";
import { explainIssue, wrongType } from "./issue-text";

/**
 * Reports a rule that involves several inputs, on `field`. The rule is set aside during a preview when any input it
 * involves is not known yet, and checked again by the `check` that precedes the real change.
 */
export function ruleFailure(ctx: z.RefinementCtx, field: string, message: string, involves: string[] = []): void {
  ctx.addIssue({ code: "custom", path: [field], message, params: { involves: [field, ...involves] } });
}

/** The value the engine puts in place of an input that is not known until apply (preview only). */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export function isUnknown(v: unknown): boolean {
  if (v === UNKNOWN) return true;
  if (v === null || typeof v !== "object") return false;
  // Loops, not Object.values(): a record set's check walks 10,000 records several times, allocating nothing here.
  if (Array.isArray(v)) {
    for (const x of v) if (isUnknown(x)) return true;
    return false;
  }
  for (const k in v) if (Object.hasOwn(v, k) && isUnknown((v as Record<string, unknown>)[k])) return true;
  return false;
}

export interface CheckFailure {
  property: string;
  reason: string;
}

export interface CheckResult {
  inputs: Record<string, unknown>;
  failures: CheckFailure[];
}

/** The engine's bookkeeping key that rides along with every input bag. */
export const PROVIDER_KEY = "__provider";

export function withoutProvider<T extends Record<string, unknown>>(bag: T): Omit<T, "__provider"> {
  const { [PROVIDER_KEY]: _, ...rest } = bag;
  return rest;
}

/** The property names an input schema knows: an object's, or the input side of a pipe (a transform). */
export function knownProperties(schema: z.ZodType): string[] | undefined {
  const def = (schema as { def?: { type?: string; in?: z.ZodType; shape?: Record<string, unknown> } }).def;
  if (def?.type === "pipe" && def.in) return knownProperties(def.in);
  return def?.type === "object" && def.shape ? Object.keys(def.shape) : undefined;
}

/** The top-level inputs a schema gives a default to (`adopt: false`), with their defaults. */
export function schemaDefaults(schema: z.ZodType): Record<string, unknown> {
  let def = (schema as { def?: Def }).def;
  if (def?.type === "pipe" && def.in) def = (def.in as { def?: Def }).def;
  if (def?.type !== "object" || !def.shape) return {};
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(def.shape)) {
    for (let f: z.ZodType | undefined = field, i = 0; f && i < 10; i++) {
      const d: (Def & { defaultValue?: unknown }) | undefined = (f as { def?: Def & { defaultValue?: unknown } }).def;
      if (d?.type === "default") {
        out[key] = d.defaultValue;
        break;
      }
      f = d?.innerType;
    }
  }
  return out;
}

/** Edit distance, for "did you mean" (names are short). */
function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++)
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1].toLowerCase() === b[j - 1].toLowerCase() ? 0 : 1));
  }
  return d[a.length][b.length];
}

/**
 * A property the schema does not know is refused, naming the nearest known one: a misspelt `proxed` would
 * otherwise be dropped silently and the record made without it.
 */
export function unknownProperties(schema: z.ZodType, given: Record<string, unknown>): CheckFailure[] {
  const known = knownProperties(schema);
  if (!known) return [];
  return unknownNames(
    known,
    Object.keys(given).filter((k) => given[k] !== undefined),
  );
}

type Def = {
  type?: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  valueType?: z.ZodType;
  getter?: () => z.ZodType;
  catchall?: z.ZodType;
};

/** The schema under the wrappers that do not change a value's shape (optional, default, a transform's input...). */
function unwrap(schema: z.ZodType): z.ZodType {
  for (let s = schema, i = 0; i < 20; i++) {
    const def = (s as { def?: Def }).def;
    const next = def?.innerType ?? (def?.type === "pipe" ? def.in : def?.type === "lazy" ? def.getter?.() : undefined);
    if (!next) return s;
    s = next;
  }
  return schema;
}

/**
 * The same at every depth: a misspelt field of a nested object (a rate limit's `action.timout`, a record set's
 * `records.www.proxed`) is named with its path. Lists and maps are walked item by item; a union is left to its own
 * validation, which names what it expects.
 */
export function unknownNested(schema: z.ZodType, value: unknown, at: string[] = []): CheckFailure[] {
  if (value === null || typeof value !== "object" || isUnknown(value)) return [];
  const def = (unwrap(schema) as { def?: Def }).def;
  const path = (k: string) => [...at, k].join(".");
  if (def?.type === "array" && def.element && Array.isArray(value))
    return value.flatMap((v, i) => unknownNested(def.element!, v, [...at, String(i)]));
  if (def?.type === "record" && def.valueType && !Array.isArray(value)) {
    // A map of thousands (a record set's records): one loop, nothing made for the entries that pass.
    const failures: CheckFailure[] = [];
    for (const [k, v] of Object.entries(value))
      if (v !== null && typeof v === "object") failures.push(...unknownNested(def.valueType, v, [...at, k]));
    return failures;
  }
  if (def?.type !== "object" || !def.shape || Array.isArray(value)) return [];
  const bag = value as Record<string, unknown>;
  const known = shapeKeys(def.shape);
  const strangers = at.length && !def.catchall && Object.keys(bag).some((k) => bag[k] !== undefined && !known.has(k));
  const here = strangers
    ? unknownNames(
        Object.keys(def.shape),
        Object.keys(bag).filter((k) => bag[k] !== undefined),
      ).map((f) => ({ property: path(f.property), reason: f.reason }))
    : [];
  const nested: CheckFailure[] = [];
  for (const k of Object.keys(def.shape)) {
    const v = bag[k];
    if (v !== null && typeof v === "object") nested.push(...unknownNested(def.shape[k], v, [...at, k]));
  }
  return [...here, ...nested];
}

const shapes = new WeakMap<object, Set<string>>();
/** An object schema's property names, as a set made once per schema. */
function shapeKeys(shape: Record<string, z.ZodType>): Set<string> {
  let keys = shapes.get(shape);
  if (!keys) shapes.set(shape, (keys = new Set(Object.keys(shape))));
  return keys;
}

/** Each of `names` that is not among `known` (the engine's `__provider` aside), with the nearest known one. */
export function unknownNames(known: string[], names: string[]): CheckFailure[] {
  return names
    .filter((k) => k !== PROVIDER_KEY && !known.includes(k))
    .map((k) => {
      const nearest = known.map((n) => [n, distance(k, n)] as const).sort((a, b) => a[1] - b[1])[0];
      const hint =
        nearest && nearest[1] <= Math.max(2, Math.floor(k.length / 3))
          ? `did you mean ${nearest[0]}?`
          : `the known ones are ${known.join(", ")}`;
      return { property: k, reason: `${k} is not a known property: ${hint}` };
    });
}

export function checkWith(schema: z.ZodType, news: Record<string, unknown>): CheckResult {
  const given = withoutProvider(news);
  const unknown = [...unknownProperties(schema, given), ...unknownNested(schema, given)];
  if (unknown.length) return { inputs: given, failures: unknown };
  const unknownKeys = new Set(Object.keys(given).filter((k) => isUnknown(given[k])));
  const known = Object.fromEntries(Object.entries(given).filter(([k]) => !unknownKeys.has(k)));
  const parsed = schema.safeParse(known, { error: explainIssue, reportInput: true });
  if (parsed.success) {
    const inputs = unknownKeys.size
      ? plannedInputs(schema, given, unknownKeys, parsed.data as Record<string, unknown>)
      : { ...(parsed.data as Record<string, unknown>) };
    for (const k of unknownKeys) inputs[k] = given[k];
    return { inputs, failures: [] };
  }
  // An issue about a value that is not known yet (a missing required one included) waits for the real value.
  const failures = parsed.error.issues
    .filter((i) => {
      const involves: string[] = (i as { params?: { involves?: string[] } }).params?.involves ?? [String(i.path[0])];
      return !involves.some((k) => unknownKeys.has(k));
    })
    .map((i) => ({ property: i.path.join(".") || "(inputs)", reason: wrongType(i) ?? i.message }));
  return { inputs: failures.length ? given : plannedInputs(schema, given, unknownKeys), failures };
}

/**
 * What a schema's object-level transform does to the known inputs when some are unknown (it cannot run then: the
 * whole parse failed): `(known, unknownKeys) => inputs`, rewriting the known ones as the transform would and making
 * unknown those it would derive from an unknown one (a record's content, when its type is unknown).
 */
export type PlannedTransform = (inputs: Record<string, unknown>, unknownKeys: Set<string>) => Record<string, unknown>;
const plannedTransforms = new WeakMap<z.ZodType, PlannedTransform>();

/** Registers the planned form of `schema`'s object-level transform (see PlannedTransform); returns the schema. */
export function withPlannedTransform<S extends z.ZodType>(schema: S, f: PlannedTransform): S {
  plannedTransforms.set(schema, f);
  return schema;
}

/** An object with some values unknown (a record of a set, at preview), as its schema makes the known ones. */
export function plannedObject(schema: z.ZodType, given: Record<string, unknown>): Record<string, unknown> {
  return plannedInputs(schema, given, new Set(Object.keys(given).filter((k) => isUnknown(given[k]))));
}

/** An input `check` sets from the others (a hash, a document's fields): `.meta({ derived: true })` on its schema. */
export const derived = { derived: true } as const;
const isDerived = (field: z.ZodType) => (z.globalRegistry.get(field) as { derived?: boolean } | undefined)?.derived === true;

/**
 * The inputs while some are unknown (other resources' outputs, at preview): what `pulumi preview --save-plan`
 * records and `pulumi up --plan` then holds the real inputs to. So they hold every input the check will return once
 * the values are known, each the same or unknown: the known ones as the schema makes them (defaults, a model name's
 * tag), and the ones the check derives from the others (a hash, a document's fields) unknown, since they may depend
 * on what is not known yet. `parsed`: the whole schema's answer, where it could be had without the unknown inputs.
 */
function plannedInputs(
  schema: z.ZodType,
  given: Record<string, unknown>,
  unknownKeys: Set<string>,
  parsed?: Record<string, unknown>,
): Record<string, unknown> {
  const out = { ...(parsed ?? given) };
  const shape = (unwrap(schema) as { def?: Def }).def?.shape;
  if (!shape) return out;
  for (const [k, field] of Object.entries(shape)) {
    if (unknownKeys.has(k)) continue;
    if (given[k] === undefined && isDerived(field)) {
      out[k] = UNKNOWN;
      continue;
    }
    if (parsed) continue; // the whole schema gave each known input its final value
    const one = field.safeParse(given[k]);
    if (one.success && one.data !== undefined) out[k] = one.data;
  }
  const transform = plannedTransforms.get(schema);
  return !parsed && transform ? transform(out, unknownKeys) : out;
}

/**
 * Arguments of a read-only function, parsed: unknown arguments and invalid values are refused before anything is
 * sent, with the argument named and what to set.
 */
export function parseArgs<S extends z.ZodType>(fn: string, schema: S, args: unknown): { data?: z.output<S>; failures: CheckFailure[] } {
  const given = (args ?? {}) as Record<string, unknown>;
  const unknown = typeof given === "object" ? unknownProperties(schema, given) : [];
  if (unknown.length) return { failures: unknown };
  const r = schema.safeParse(given, { error: explainIssue });
  if (r.success) return { data: r.data, failures: [] };
  return { failures: r.error.issues.map((i) => ({ property: i.path.join(".") || "(arguments)", reason: i.message })) };
}

/** `parseArgs` for a function called in the program's process: bad arguments throw one error naming each. */
export function requireArgs<S extends z.ZodType>(service: string, fn: string, schema: S, args: unknown): z.output<S> {
  const { data, failures } = parseArgs(fn, schema, args);
  if (failures.length)
    throw new ValidationError({ service, message: `${fn}: ${failures.map((f) => `${f.property}: ${f.reason}`).join("; ")}` });
  return data as z.output<S>;
}

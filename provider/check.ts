/**
 * `check` for every resource, driven by its zod schema: unknown values of a preview are left alone, each failure
 * names the property and the fix, and the inputs that go on are the schema's parsed (defaulted, normalised) ones.
 */
import type { z } from "zod";

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
  if (Array.isArray(v)) return v.some(isUnknown);
  if (v && typeof v === "object") return Object.values(v).some(isUnknown);
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

export function checkWith(schema: z.ZodType, news: Record<string, unknown>): CheckResult {
  const given = withoutProvider(news);
  const unknownKeys = new Set(Object.keys(given).filter((k) => isUnknown(given[k])));
  const known = Object.fromEntries(Object.entries(given).filter(([k]) => !unknownKeys.has(k)));
  const parsed = schema.safeParse(known, { error: explainIssue });
  if (parsed.success) {
    const inputs = { ...(parsed.data as Record<string, unknown>) };
    for (const k of unknownKeys) inputs[k] = given[k];
    return { inputs, failures: [] };
  }
  // An issue about a value that is not known yet (a missing required one included) waits for the real value.
  const failures = parsed.error.issues
    .filter((i) => {
      const involves: string[] = (i as { params?: { involves?: string[] } }).params?.involves ?? [String(i.path[0])];
      return !involves.some((k) => unknownKeys.has(k));
    })
    .map((i) => ({ property: i.path.join(".") || "(inputs)", reason: i.message }));
  return { inputs: given, failures };
}

const A = (t: string) => (/^[aeiou]/.test(t) ? `an ${t}` : `a ${t}`);
const KIND: Record<string, string> = { string: "text", number: "number", boolean: "true or false", array: "list", object: "object", int: "whole number" };
const kindOf = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "a list" : typeof v === "string" ? "text" : typeof v === "boolean" ? "true or false" : A(typeof v));

/**
 * A sentence that names the property and what to set, for the failures a schema leaves to zod's defaults ("Invalid
 * input: expected string, received undefined"). Messages a schema states itself take precedence over this one.
 */
export function explainIssue(iss: z.core.$ZodRawIssue): string | undefined {
  const name = iss.path?.length ? iss.path.join(".") : "this input";
  const i = iss as z.core.$ZodRawIssue & { expected?: string; origin?: string; maximum?: number | bigint; minimum?: number | bigint; values?: unknown[]; format?: string };
  switch (iss.code) {
    case "invalid_type": {
      const want = KIND[i.expected ?? ""] ?? i.expected ?? "a value";
      const wanted = /^(text|true or false)$/.test(want) ? want : A(want);
      return iss.input === undefined ? `${name} is required: set it to ${wanted}` : `${name} must be ${wanted}, not ${kindOf(iss.input)}`;
    }
    case "too_big":
      if (i.origin === "string") return `${name} must be at most ${i.maximum} characters: shorten it`;
      if (i.origin === "array" || i.origin === "set") return `${name} takes at most ${i.maximum} items: remove some`;
      return `${name} must be at most ${i.maximum}`;
    case "too_small":
      if (i.origin === "string") return Number(i.minimum) <= 1 ? `${name} must not be empty` : `${name} must be at least ${i.minimum} characters`;
      if (i.origin === "array" || i.origin === "set") return `${name} needs at least ${i.minimum} item${Number(i.minimum) === 1 ? "" : "s"}`;
      return `${name} must be at least ${i.minimum}`;
    case "invalid_value":
      return `${name} must be one of ${(i.values ?? []).map((v) => JSON.stringify(v)).join(", ")}`;
    case "invalid_format":
      return `${name} must be ${A(i.format ?? "value of the documented format")}`;
    case "not_multiple_of":
      return `${name} must be a whole multiple of ${(iss as { divisor?: number }).divisor}`;
    case "unrecognized_keys":
      return `unknown properties ${(iss as { keys?: string[] }).keys?.join(", ")}: check their spelling`;
    default:
      return undefined;
  }
}

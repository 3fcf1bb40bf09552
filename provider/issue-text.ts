/**
 * How a schema's failure is told: the property named and what to set, a value of another type than the property's
 * said the same way for every property on both doors ("secret must be true or false, not text").
 */
import { z } from "zod";

/**
 * A value of another type than the property's, told the same way for every property on both doors: the property,
 * the type wanted and the type given ("secret must be true or false, not text"), whatever the schema's own message.
 */
export function wrongType(i: z.core.$ZodIssue): string | undefined {
  const issue = i as z.core.$ZodIssue & { input?: unknown; values?: unknown[]; errors?: z.core.$ZodIssue[][] };
  if (issue.input === undefined) return undefined;
  if (issue.code === "invalid_type") return explainIssue({ ...issue, path: issue.path } as unknown as z.core.$ZodRawIssue);
  const given = typeof issue.input;
  const otherKind = (j: z.core.$ZodIssue & { values?: unknown[]; expected?: string }): boolean =>
    j.code === "invalid_type" || (j.code === "invalid_value" && !(j.values ?? []).some((v) => typeof v === given));
  // An enum or a union of literals or types, given a value of a kind none of them is: say which kind it was.
  if (
    (issue.code === "invalid_value" && otherKind(issue)) ||
    (issue.code === "invalid_union" && (issue.errors ?? []).every((branch) => branch.length > 0 && otherKind(branch[0])))
  ) {
    return `${issue.message}, not ${kindOf(issue.input)}`;
  }
  return undefined;
}

const A = (t: string) => (/^[aeiou]/.test(t) ? `an ${t}` : `a ${t}`);
const KIND: Record<string, string> = {
  string: "text",
  number: "number",
  boolean: "true or false",
  array: "list",
  object: "object",
  int: "whole number",
};
/** What kind of value `v` is, as a sentence says it ("text", "a number", "a list"). */
export const kindOf = (v: unknown) =>
  v === null
    ? "null"
    : Array.isArray(v)
      ? "a list"
      : typeof v === "string"
        ? "text"
        : typeof v === "boolean"
          ? "true or false"
          : A(typeof v);

/**
 * A sentence that names the property and what to set, for the failures a schema leaves to zod's defaults ("Invalid
 * input: expected string, received undefined"). Messages a schema states itself take precedence over this one.
 */
export function explainIssue(iss: z.core.$ZodRawIssue): string | undefined {
  const name = iss.path?.length ? iss.path.join(".") : "this input";
  const i = iss as z.core.$ZodRawIssue & {
    expected?: string;
    origin?: string;
    maximum?: number | bigint;
    minimum?: number | bigint;
    values?: unknown[];
    format?: string;
  };
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
      if (i.origin === "string")
        return Number(i.minimum) <= 1 ? `${name} must not be empty` : `${name} must be at least ${i.minimum} characters`;
      if (i.origin === "array" || i.origin === "set")
        return `${name} needs at least ${i.minimum} item${Number(i.minimum) === 1 ? "" : "s"}`;
      return `${name} must be at least ${i.minimum}`;
    case "invalid_value":
      return `${name} must be one of ${(i.values ?? []).map((v) => JSON.stringify(v)).join(", ")}`;
    case "invalid_format":
      return `${name} must be ${A(i.format ?? "value of the documented format")}`;
    case "not_multiple_of":
      return `${name} must be a whole multiple of ${(iss as { divisor?: number }).divisor}`;
    case "invalid_key": {
      // A record's key refused by its own schema: zod's message would be "Invalid key in record".
      const inner = (iss as { issues?: { message?: string }[] }).issues?.[0]?.message;
      return `${name}: ${inner ?? "this key is not allowed"}`;
    }
    case "unrecognized_keys":
      return `unknown properties ${(iss as { keys?: string[] }).keys?.join(", ")}: check their spelling`;
    default:
      return undefined;
  }
}

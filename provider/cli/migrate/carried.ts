/** What carrying an old tool's state gives (carry.ts): the resources of the new program, and what is left with why. */
/** A resource of the new program. */
export interface Carried {
  type: string;
  name: string;
  inputs: Record<string, unknown>;
  /** Files beside the program (a script's code), by path relative to it. */
  files?: Record<string, string>;
  /** Where it came from. */
  from: string[];
  /** What MIGRATION.md says of it besides (a redirect that replaces the page rule the old tool made). */
  note?: string;
}

/** An object not carried, or a part of one, with why. */
export interface Left {
  address: string;
  reason: string;
}

export type Bag = Record<string, unknown>;
export const str = (v: unknown) => (typeof v === "string" && v !== "" ? v : undefined);
export const num = (v: unknown) =>
  typeof v === "number" ? v : typeof v === "string" && v.trim() !== "" && !Number.isNaN(Number(v)) ? Number(v) : undefined;

/**
 * A `source` file's text kept in a resource's inputs — not its outputs — so that `pulumi preview --diff` shows the
 * file's changed lines: at preview the engine compares the old inputs with the new ones and shows a changed
 * multi-line text as a line diff. State holds the text once; a file over the limit keeps only its hash.
 */
import { z } from "zod";
import { derived } from "./check";

export const SOURCE_TEXT_MAX_BYTES = 64 * 1024;

export const SourceText = z
  .string()
  .optional()
  .describe(
    "Set by the provider: the text of `source` (at most 64 KiB), kept in the inputs only, so that `pulumi preview --diff` shows its changed lines.",
  )
  .meta(derived);

/** The text to keep, or undefined for a file too large to keep in state. */
export function keptText(text: string | undefined): string | undefined {
  return text !== undefined && Buffer.byteLength(text) <= SOURCE_TEXT_MAX_BYTES ? text : undefined;
}

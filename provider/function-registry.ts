/**
 * One flat table of the read-only functions the provider plugin serves as invokes (`ops:edge:getZone`, ...), the
 * functions of schema.json, and their reference docs, gathered from each service's function-entries.ts. Arguments
 * are the zod schemas the TypeScript functions parse; each result is an object described by a zod schema there (a
 * list comes back under a named property, as Pulumi's function results are objects). TypeScript programs call the
 * same functions in-process (sdk/<module>/functions.ts).
 *
 * Left out: `control.openRemoteDesktop`, which acts on a computer (it is not read-only), and `screenshot`'s `path`,
 * which would write a file where the plugin runs instead of where the program runs.
 */
import { controlFunctions } from "./control/function-entries";
import { edgeFunctions } from "./edge/function-entries";
import { pagesFunctions } from "./pages/function-entries";
import { postsFunctions } from "./posts/function-entries";
import { runnerFunctions } from "./runner/function-entries";
import { skillsFunctions } from "./skills/function-entries";
import type { FunctionEntry } from "./function-entry";

export type { FunctionEntry };

/** Every service's functions, by token. */
export const functions: Record<string, FunctionEntry> = {
  ...controlFunctions,
  ...edgeFunctions,
  ...pagesFunctions,
  ...postsFunctions,
  ...runnerFunctions,
  ...skillsFunctions,
};

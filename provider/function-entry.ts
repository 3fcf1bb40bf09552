/** One read-only function as the provider plugin serves it (function-registry.ts), and the shapes results share. */
import { z } from "zod";

export interface FunctionEntry {
  description: string;
  args: z.ZodType;
  result: z.ZodObject;
  run(args: any): Promise<unknown>;
}

/** A width and a height. */
export const Size = z.object({ width: z.number().describe("Width."), height: z.number().describe("Height.") });

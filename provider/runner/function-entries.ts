/**
 * The read-only functions of the runner the provider plugin serves as invokes, with their arguments and results
 * (function-registry.ts gathers every service's into one flat table).
 */
import { z } from "zod";
import type { FunctionEntry } from "../function-entry";
import * as runner from "./functions";

export const runnerFunctions: Record<string, FunctionEntry> = {
  "runner:listModels": {
    description: "The models present on the runner.",
    args: z.object({}),
    result: z.object({
      models: z
        .array(
          z.object({
            name: z.string().describe("`model:tag`."),
            digest: z.string().describe("Its digest (sha256), which changes with its content."),
            size: z.number().describe("Its size on disk, in bytes."),
            family: z.string().optional().describe("Its architecture's family (`llama`, `qwen2`, ...)."),
            parameterSize: z.string().optional().describe("Its parameters (`494.03M`, `3.2B`)."),
            quantizationLevel: z.string().optional().describe("Its quantization (`Q4_K_M`, ...)."),
            modifiedAt: z.string().optional().describe("When it last changed on the runner."),
          }),
        )
        .describe("Every model present."),
    }),
    run: async () => ({ models: await runner.listModels() }),
  },
  "runner:listRunningModels": {
    description: "The models loaded in the runner's memory now.",
    args: z.object({}),
    result: z.object({
      models: z
        .array(
          z.object({
            name: z.string().describe("`model:tag`."),
            size: z.number().describe("Memory it takes, in bytes."),
            sizeVram: z.number().optional().describe("Of which on the GPU."),
            expiresAt: z.string().optional().describe("When it will be unloaded if unused."),
          }),
        )
        .describe("Every model loaded."),
    }),
    run: async () => ({ models: await runner.listRunningModels() }),
  },
};

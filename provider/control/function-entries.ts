/**
 * The read-only functions of the control endpoint the provider plugin serves as invokes, with their arguments and results
 * (function-registry.ts gathers every service's into one flat table).
 */
import { z } from "zod";
import type { FunctionEntry } from "../function-entry";
import { Size } from "../function-entry";
import * as control from "./functions";

export const controlFunctions: Record<string, FunctionEntry> = {
  "control:listTools": {
    description: "The tools the computer-control endpoint offers.",
    args: z.object({}),
    result: z.object({
      tools: z
        .array(
          z.object({
            name: z.string().describe("The tool's name, as a call names it."),
            description: z.string().optional().describe("What the server says the tool does."),
          }),
        )
        .describe("Every tool the endpoint lists."),
    }),
    run: async () => ({ tools: await control.listTools() }),
  },
  "control:screenshot": {
    description:
      "A screenshot of the controlled computer, as its server sends it (PNG or JPEG): its size in pixels and in points (the unit clicks take), the density between them, and the image (base64).",
    args: z.object({
      density: z
        .number()
        .positive()
        .optional()
        .describe("Pixels per point; by default the screenshot's width over the host's desktop width in points (asked once), else 1."),
    }),
    result: z.object({
      pixels: Size.describe("The image's size in pixels."),
      points: Size.describe("The screen's size in points, the unit clicks take."),
      density: z.number().describe("Pixels per point."),
      mimeType: z.string().describe("`image/png` or `image/jpeg`."),
      imageBase64: z.string().describe("The image as the server sent it."),
      pngBase64: z.string().optional().describe("The same image when it is a PNG (deprecated: read imageBase64 and mimeType)."),
    }),
    run: async (a) => {
      const s = await control.screenshot({ density: a.density });
      const base64 = s.data.toString("base64");
      return {
        pixels: s.pixels,
        points: s.points,
        density: s.density,
        mimeType: s.mimeType,
        imageBase64: base64,
        ...(s.mimeType === "image/png" ? { pngBase64: base64 } : {}),
      };
    },
  },
};

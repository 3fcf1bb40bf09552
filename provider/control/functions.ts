/**
 * The computer-control endpoint's read-only functions. Document 3's remote-desktop procedure acts on a computer, so
 * it is a resource (control/remote-desktop), not a function: functions run at every preview.
 */
import { writeFileSync } from "node:fs";
import * as path from "node:path";
import { ValidationError } from "../http/errors";
import { ControlClient, control } from "./client";
import { pngSize } from "./png";

/** Screenshots are in pixels, clicks in points: on a display of density 2, divide by 2. */
export const DENSITY = 2;

export async function screenshot(args: { path?: string } = {}, client: ControlClient = control()) {
  const r = await client.callTool("screenshot", {});
  const image = r.content.find((c) => c.type === "image");
  if (!image?.data) throw new ValidationError({ service: "control", message: "the screenshot tool answered without an image" });
  const png = Buffer.from(image.data, "base64");
  const pixels = pngSize(png);
  if (args.path) writeFileSync(path.resolve(args.path), png);
  return { ...(args.path ? { path: path.resolve(args.path) } : {}), pixels, points: { width: pixels.width / DENSITY, height: pixels.height / DENSITY }, png };
}

export async function listTools() {
  return control().listTools();
}

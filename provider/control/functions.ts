/**
 * The computer-control endpoint's read-only functions. The remote-desktop procedure (docs/resources.md, RemoteDesktopSession) acts on a computer, so
 * it is a resource (control/remote-desktop), not a function: functions run at every preview.
 */
import { writeFileSync } from "node:fs";
import * as path from "node:path";
import { ValidationError } from "../http/errors";
import { log } from "../log";
import { ControlClient, control } from "./client";
import { textOf } from "./tool-result";
import { decodeImage, type Picture } from "./image";

/** What the desktop's size in points is asked with: Finder's desktop window spans the displays (the one display of a helper host). */
const DESKTOP_BOUNDS = 'tell application "Finder" to get bounds of window of desktop';

const densities = new WeakMap<ControlClient, Promise<{ width: number; height: number } | undefined>>();

/**
 * The host's main display in points, asked once per endpoint: through its `applescript` tool, else `osascript` by
 * its `run_command`. Undefined when the endpoint offers neither or the host does not answer (not a Mac).
 */
function desktopPoints(client: ControlClient): Promise<{ width: number; height: number } | undefined> {
  let known = densities.get(client);
  if (!known) {
    known = (async () => {
      try {
        const tools = (await client.listTools()).map((t) => t.name);
        const answer = tools.includes("applescript")
          ? await client.callTool("applescript", { script: DESKTOP_BOUNDS })
          : tools.includes("run_command")
            ? await client.callTool("run_command", { command: `osascript -e '${DESKTOP_BOUNDS}'` })
            : undefined;
        const m = answer && !answer.isError ? /(-?\d+),\s*(-?\d+),\s*(-?\d+),\s*(-?\d+)/.exec(textOf(answer)) : null;
        if (m && Number(m[3]) > Number(m[1])) return { width: Number(m[3]) - Number(m[1]), height: Number(m[4]) - Number(m[2]) };
      } catch {
        // not a Mac, or no such tool: said below
      }
      log(
        "control: the host's display size in points is unknown (no applescript or osascript answer); points are taken as pixels: pass `density` to say otherwise",
      );
      return undefined;
    })();
    densities.set(client, known);
  }
  return known;
}

/**
 * A screenshot: read by its `mimeType` (PNG of any kind, JPEG), its size in pixels, and in points — the unit clicks
 * take — by its density: given, else the screenshot's width over the desktop's width in points (a server that
 * scales its screenshots gives density 1), else 1, said once.
 */
export async function screenshot(args: { path?: string; density?: number } = {}, client: ControlClient = control()) {
  const r = await client.callTool("screenshot", {});
  const image = r.content.find((c) => c.type === "image");
  if (!image?.data)
    throw new ValidationError({
      service: "control",
      message: "the screenshot tool answered without an image",
      remedy: "Check the endpoint's screenshot tool: it must answer with an image content",
    });
  const data = Buffer.from(image.data, "base64");
  const picture: Picture = await decodeImage(data, image.mimeType);
  const pixels = { width: picture.width, height: picture.height };
  let density = args.density;
  if (density === undefined) {
    const points = await desktopPoints(client);
    density = points ? Math.round((pixels.width / points.width) * 100) / 100 : 1;
  }
  if (args.path) writeFileSync(path.resolve(args.path), data);
  return {
    ...(args.path ? { path: path.resolve(args.path) } : {}),
    pixels,
    points: { width: pixels.width / density, height: pixels.height / density },
    density,
    mimeType: picture.mimeType,
    data,
    picture,
  };
}

export async function listTools() {
  return control().listTools();
}

/**
 * Screenshots as servers send them: an MCP image content's `mimeType` says how to read it — PNG of any kind
 * (palette, grey, 16-bit, interlaced: `pngjs`) or JPEG (`jpeg-js`), both pure JavaScript, loaded with the first
 * screenshot. What the provider needs of one: its size in pixels, and how much of it is black.
 */
import { ValidationError } from "../http/errors";

export interface Picture {
  mimeType: string;
  width: number;
  height: number;
  /** Four bytes a pixel: red, green, blue, alpha. */
  rgba: Uint8Array;
}

/** The picture in `data`, read as `mimeType` says; a kind the provider cannot read fails naming it. */
export async function decodeImage(data: Buffer, mimeType: string | undefined): Promise<Picture> {
  const kind = (mimeType ?? "").toLowerCase().split(";")[0].trim();
  try {
    if (kind === "image/png") {
      const { PNG } = await import("pngjs");
      const png = PNG.sync.read(data);
      return { mimeType: kind, width: png.width, height: png.height, rgba: png.data };
    }
    if (kind === "image/jpeg" || kind === "image/jpg") {
      const jpeg = await import("jpeg-js");
      const img = jpeg.decode(data, { useTArray: true, formatAsRGBA: true, maxMemoryUsageInMB: 1024 });
      return { mimeType: "image/jpeg", width: img.width, height: img.height, rgba: img.data };
    }
  } catch (e) {
    throw new ValidationError({
      service: "control",
      message: `the screenshot is not a readable ${kind} (${(e as Error).message})`,
      remedy: "Check the screenshot tool of the control endpoint: its image's mimeType must say what the data is",
    });
  }
  throw new ValidationError({
    service: "control",
    message: `the screenshot is ${kind || "an image without a mimeType"}, which pulumi-ops does not read`,
    remedy: "Have the screenshot tool send PNG or JPEG (image/png, image/jpeg)",
  });
}

/** The fraction of pixels whose channels are all below 16 (a JPEG's near-black noise included). */
export function blackShare(p: Picture): number {
  let black = 0;
  for (let i = 0; i < p.rgba.length; i += 4) if (p.rgba[i] < 16 && p.rgba[i + 1] < 16 && p.rgba[i + 2] < 16) black++;
  return black / (p.width * p.height);
}

/** Enough PNG decoding to judge a screenshot: size, and the share of (near) black pixels. 8-bit RGB/RGBA only. */
import { inflateSync } from "node:zlib";

export function pngSize(png: Buffer): { width: number; height: number } {
  if (png.subarray(1, 4).toString() !== "PNG") throw new Error("not a PNG");
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** The fraction of pixels whose channels are all below 16. */
export function blackShare(png: Buffer): number {
  const { width, height } = pngSize(png);
  const colorType = png[25];
  const bpp = colorType === 6 ? 4 : colorType === 2 ? 3 : 0;
  if (png[24] !== 8 || !bpp) throw new Error("only 8-bit RGB or RGBA screenshots are understood");
  const idat: Buffer[] = [];
  for (let o = 8; o < png.length; ) {
    const len = png.readUInt32BE(o);
    const type = png.subarray(o + 4, o + 8).toString();
    if (type === "IDAT") idat.push(png.subarray(o + 8, o + 8 + len));
    o += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * bpp;
  let prev = Buffer.alloc(stride);
  let black = 0;
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = Buffer.from(raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1)));
    for (let i = 0; i < stride; i++) {
      const a = i >= bpp ? line[i - bpp] : 0;
      const b = prev[i];
      const c = i >= bpp ? prev[i - bpp] : 0;
      const p = a + b - c;
      const paeth = Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c) ? a : Math.abs(p - b) <= Math.abs(p - c) ? b : c;
      line[i] = (line[i] + [0, a, b, (a + b) >> 1, paeth][filter]) & 0xff;
    }
    for (let x = 0; x < width; x++) if (line[x * bpp] < 16 && line[x * bpp + 1] < 16 && line[x * bpp + 2] < 16) black++;
    prev = line;
  }
  return black / (width * height);
}

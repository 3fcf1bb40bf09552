/**
 * Screenshots of the simulated screen: a minimal PNG encoder (8-bit RGB, or indexed with a palette; filter 0,
 * zlib), and JPEG by `jpeg-js` — the kinds of image control servers send.
 */
import { deflateSync } from "node:zlib";

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** `pixel(x, y)` gives [r, g, b] for each pixel of a `width` x `height` image. */
export function encodePng(width: number, height: number, pixel: (x: number, y: number) => [number, number, number]): Buffer {
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    raw[row] = 0;
    for (let x = 0; x < width; x++) {
      const [r, g, b] = pixel(x, y);
      raw[row + 1 + x * 3] = r;
      raw[row + 2 + x * 3] = g;
      raw[row + 3 + x * 3] = b;
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: RGB
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(raw)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** An indexed PNG (colour type 3): the palette of the colours used, one byte a pixel. */
export function encodePalettePng(width: number, height: number, pixel: (x: number, y: number) => [number, number, number]): Buffer {
  const palette = new Map<string, number>();
  const raw = Buffer.alloc((width + 1) * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const key = pixel(x, y).join(",");
      if (!palette.has(key)) palette.set(key, palette.size);
      raw[y * (width + 1) + 1 + x] = palette.get(key)!;
    }
  }
  if (palette.size > 256) throw new Error("more than 256 colours for an indexed PNG");
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 3; // colour type: indexed
  const plte = Buffer.from([...palette.keys()].flatMap((k) => k.split(",").map(Number)));
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk("IHDR", ihdr),
    chunk("PLTE", plte),
    chunk("IDAT", deflateSync(raw)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** A JPEG (quality 85) by jpeg-js. */
export function encodeJpeg(width: number, height: number, pixel: (x: number, y: number) => [number, number, number]): Buffer {
  const data = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const [r, g, b] = pixel(x, y);
      data.set([r, g, b, 255], (y * width + x) * 4);
    }
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const jpeg = require("jpeg-js") as typeof import("jpeg-js");
  return jpeg.encode({ data, width, height }, 85).data;
}

export function encodeImage(
  format: "png" | "palette" | "jpeg",
  width: number,
  height: number,
  pixel: (x: number, y: number) => [number, number, number],
): Buffer {
  return format === "jpeg"
    ? encodeJpeg(width, height, pixel)
    : format === "palette"
      ? encodePalettePng(width, height, pixel)
      : encodePng(width, height, pixel);
}

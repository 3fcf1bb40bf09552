/**
 * A GGUF file's header: its metadata (key-value pairs) and the names of its tensors, read from the front of the file
 * without its weights, as the format's specification lays it out (https://github.com/ggml-org/ggml/blob/master/docs/gguf.md:
 * magic `GGUF`, version, tensor count, metadata count, then each key with its typed value, then each tensor's name,
 * dimensions, type and offset; little-endian). What a preview needs to know of a draft model before the runner tries it.
 */
import { closeSync, openSync, readSync } from "node:fs";

export interface GgufHeader {
  version: number;
  metadata: Map<string, unknown>;
  tensors: string[];
  /** `general.architecture`: llama, qwen35, dflash, ... */
  architecture: string;
}

/** Sizes of the fixed-width value types, by the format's type number. */
const WIDTH: Record<number, number> = { 0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8 };

/** Reads forward through a file, a chunk at a time: a header is megabytes (a tokenizer's vocabulary), weights are not read. */
class Cursor {
  private buf = Buffer.alloc(0);
  private at = 0; // file offset of buf[0]
  pos = 0;
  constructor(private fd: number) {}
  private need(n: number): void {
    const end = this.pos + n - this.at;
    if (end <= this.buf.length) return;
    const chunk = Buffer.alloc(Math.max(n, 1 << 20));
    const kept = this.buf.subarray(this.pos - this.at);
    const read = readSync(this.fd, chunk, 0, chunk.length, this.at + this.buf.length);
    this.buf = Buffer.concat([kept, chunk.subarray(0, read)]);
    this.at = this.pos;
    if (n > this.buf.length) throw new Error("the file ends inside its GGUF header");
  }
  bytes(n: number): Buffer {
    this.need(n);
    const out = this.buf.subarray(this.pos - this.at, this.pos - this.at + n);
    this.pos += n;
    return out;
  }
  u32 = () => this.bytes(4).readUInt32LE(0);
  u64 = () => Number(this.bytes(8).readBigUInt64LE(0));
  string = () => this.bytes(this.u64()).toString("utf8");
}

function value(c: Cursor, type: number): unknown {
  if (type === 8) return c.string();
  if (type === 9) {
    const [inner, count] = [c.u32(), c.u64()];
    const items: unknown[] = [];
    for (let i = 0; i < count; i++) {
      const v = value(c, inner);
      if (i < 16) items.push(v); // a vocabulary's first entries are enough to say what it is
    }
    return items;
  }
  const width = WIDTH[type];
  if (width === undefined) throw new Error(`unknown GGUF value type ${type}`);
  const b = c.bytes(width);
  switch (type) {
    case 0:
      return b.readUInt8(0);
    case 1:
      return b.readInt8(0);
    case 2:
      return b.readUInt16LE(0);
    case 3:
      return b.readInt16LE(0);
    case 4:
      return b.readUInt32LE(0);
    case 5:
      return b.readInt32LE(0);
    case 6:
      return b.readFloatLE(0);
    case 7:
      return b.readUInt8(0) !== 0;
    case 10:
      return Number(b.readBigUInt64LE(0));
    case 11:
      return Number(b.readBigInt64LE(0));
    default:
      return b.readDoubleLE(0);
  }
}

/** The header of the GGUF file at `file`; throws when it is not one. */
export function readGgufHeader(file: string): GgufHeader {
  const fd = openSync(file, "r");
  try {
    const c = new Cursor(fd);
    if (c.bytes(4).toString("latin1") !== "GGUF") throw new Error(`${file} is not a GGUF file (no GGUF magic)`);
    const version = c.u32();
    const [tensorCount, kvCount] = [c.u64(), c.u64()];
    const metadata = new Map<string, unknown>();
    for (let i = 0; i < kvCount; i++) {
      const key = c.string();
      metadata.set(key, value(c, c.u32()));
    }
    const tensors: string[] = [];
    for (let i = 0; i < tensorCount; i++) {
      tensors.push(c.string());
      const dims = c.u32();
      c.bytes(8 * dims + 4 + 8); // dimensions, type, offset
    }
    return { version, metadata, tensors, architecture: String(metadata.get("general.architecture") ?? "") };
  } finally {
    closeSync(fd);
  }
}

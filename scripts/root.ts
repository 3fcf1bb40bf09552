import { readdirSync, statSync } from "node:fs";
import * as path from "node:path";

/** The repository root, from the source (scripts/) or the compiled copy (dist/scripts/, dist/bench/). */
export const ROOT = path.resolve(__dirname, path.basename(path.dirname(__dirname)) === "dist" ? "../.." : "..");

/** Every file below a folder, in name order (absolute paths). */
export function filesBelow(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const p = path.join(dir, name);
      return statSync(p).isDirectory() ? filesBelow(p) : [p];
    });
}

import * as path from "node:path";

/** The repository root, from the source (scripts/) or the compiled copy (dist/scripts/, dist/bench/). */
export const ROOT = path.resolve(__dirname, path.basename(path.dirname(__dirname)) === "dist" ? "../.." : "..");

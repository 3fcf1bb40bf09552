/**
 * A model's local files: a path as a definition file writes it, the files a GGUF or safetensors source is made of,
 * and their digests, uploaded as blobs before the create that names them.
 */
import { createHash } from "node:crypto";
import { closeSync, existsSync, openSync, readdirSync, readSync, statSync } from "node:fs";
import { homedir } from "node:os";
import * as path from "node:path";

/**
 * A path as the runner's CLI expands it: `~`, otherwise relative to the definition file's folder. `~user` is taken
 * beside our own home (the CLI asks the system's user database; Node cannot, and homes are siblings as a rule).
 */
export function expandPath(p: string, relativeDir: string): string {
  if (p === "~" || p.startsWith("~/")) return path.resolve(homedir(), `.${p.slice(1)}`);
  if (p.startsWith("~")) {
    const [user, ...rest] = p.slice(1).split("/");
    return path.resolve(path.dirname(homedir()), user, ...rest);
  }
  return path.resolve(relativeDir, p);
}

/** Whether `from` names a file or folder on this machine (the runner's CLI tries the path first, then a model name). */
export function isLocalSource(from: string, relativeDir = process.cwd()): boolean {
  return existsSync(expandPath(from, relativeDir));
}

/**
 * The files a model folder contributes, as the runner's CLI picks them (parser.filesForModel): its weights (safetensors,
 * PyTorch, GGUF), its JSON configuration and tokenizer.model; a file stands for itself.
 */
export function modelFiles(source: string): string[] {
  if (!statSync(source).isDirectory()) return [source];
  const names = readdirSync(source);
  const glob = (re: RegExp) => names.filter((n) => re.test(n)).map((n) => path.join(source, n));
  const weights = [
    /^model.*\.safetensors$/,
    /^consolidated.*\.safetensors$/,
    /^pytorch_model.*\.bin$/,
    /^consolidated.*\.pth$/,
    /\.gguf$/,
    /\.bin$/,
  ]
    .map(glob)
    .find((found) => found.length);
  if (!weights) throw new Error(`${source} holds no model weights (*.safetensors, *.gguf, *.bin)`);
  return [...weights, ...glob(/\.json$/), ...glob(/^tokenizer\.model$/)];
}

const digests = new Map<string, { size: number; mtimeMs: number; digest: string }>();
/**
 * A file's blob digest, `sha256:<hex>`, computed once per file version in a run (weights are gigabytes). Read in
 * place, synchronously: `check` hashes what the model is made of, and a changed file is a changed model.
 */
export function fileDigest(file: string): string {
  const { size, mtimeMs } = statSync(file);
  const known = digests.get(file);
  if (known && known.size === size && known.mtimeMs === mtimeMs) return known.digest;
  const hash = createHash("sha256");
  const buffer = Buffer.allocUnsafe(1 << 20);
  const fd = openSync(file, "r");
  try {
    for (let n; (n = readSync(fd, buffer, 0, buffer.length, null)) > 0;) hash.update(buffer.subarray(0, n));
  } finally {
    closeSync(fd);
  }
  const digest = `sha256:${hash.digest("hex")}`;
  digests.set(file, { size, mtimeMs, digest });
  return digest;
}

/** A local source's files by the name the create request gives them (their base name, as the runner's CLI does). */
export function blobMap(source: string): { files: Record<string, string>; paths: Record<string, string> } {
  const files: Record<string, string> = {};
  const paths: Record<string, string> = {};
  for (const f of modelFiles(source)) {
    const digest = fileDigest(f);
    files[path.basename(f)] = digest;
    paths[digest] = f;
  }
  return { files, paths };
}

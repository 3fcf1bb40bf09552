/**
 * The shell a RemoteFile sends through the endpoint's run_command: POSIX sh that runs alike on macOS (BSD stat,
 * shasum) and Linux (GNU stat, sha256sum), each value quoted, and the file's state printed between markers so that
 * what a server adds around a command's output (STDOUT labels, an exit line) cannot be taken for it.
 */
import { randomBytes } from "node:crypto";
import * as path from "node:path";

const q = (v: string) => `'${v.replace(/'/g, `'\\''`)}'`;

/** What a read prints: whether the file is there, its SHA-256, mode and owner. */
export interface FileState {
  present: boolean;
  hash?: string;
  mode?: string;
  owner?: string;
}

/** Prints the file's state (or that it is absent); exits 0 whatever it finds. */
export function readScript(file: string): string {
  const p = q(file);
  return [
    `[ -f ${p} ] || echo __PULUMI_OPS_ABSENT__`,
    `sha256sum ${p} 2>/dev/null || shasum -a 256 ${p} 2>/dev/null`,
    `stat -c 'mode=%a owner=%U:%G' ${p} 2>/dev/null || stat -f 'mode=%Lp owner=%Su:%Sg' ${p} 2>/dev/null`,
    "true",
  ].join("\n");
}

export function parseState(printed: string): FileState {
  if (printed.includes("__PULUMI_OPS_ABSENT__")) return { present: false };
  const hash = /\b([0-9a-f]{64})\b/.exec(printed)?.[1];
  const m = /mode=(\d+) owner=(\S+)/.exec(printed);
  return { present: hash !== undefined, hash, mode: m?.[1], owner: m?.[2] };
}

/**
 * Writes the file: into a new file beside it (made with umask 077: nobody else can read it while it is written),
 * its mode and owner set, then moved over the path in one rename, so the path holds the old file or the new one,
 * never half of one. `viaStdin`: the content (base64) comes on the tool's standard input; otherwise it is in this
 * command (never for a secret: the handler refuses that).
 */
export function writeScript(o: { file: string; base64: string; mode: string; owner?: string; viaStdin: boolean }): string {
  const tmp = q(`${o.file}.pulumi-ops-${randomBytes(4).toString("hex")}`);
  const feed = o.viaStdin ? "base64 -d" : `printf '%s' ${q(o.base64)} | base64 -d`;
  return [
    `mkdir -p ${q(path.posix.dirname(o.file))}`, // (folders made as the host's umask makes them)
    "umask 077",
    `${feed} > ${tmp}`,
    `chmod ${o.mode} ${tmp}`,
    ...(o.owner ? [`chown ${q(o.owner)} ${tmp}`] : []),
    `mv -f ${tmp} ${q(o.file)}`,
  ].join(" && ");
}

/** The new file a failed write may leave beside the path (writeScript's), removed after it. */
export const leftover = (script: string) => /> ('[^']*\.pulumi-ops-[0-9a-f]{8}')/.exec(script)?.[1];

export const removeScript = (file: string) => `rm -f ${q(file)}`;

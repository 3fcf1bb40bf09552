/** The README's sections as the tests that run them read them: fenced blocks, each with the line before it. */
import type { ChildProcess } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ROOT } from "../../scripts/engine";

export interface Block {
  lang: string;
  text: string;
  /** The line before the block, which names the file a file block is. */
  label: string;
}

/** The fenced blocks of the section under `heading` (up to the next heading of the same level). */
export function readmeBlocks(heading: string): Block[] {
  const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
  const start = readme.indexOf(heading);
  if (start < 0) throw new Error(`README.md has no section "${heading}"`);
  const level = heading.slice(0, heading.indexOf(" ") + 1);
  const body = readme.slice(start, readme.indexOf(`\n${level}`, start + level.length));
  return [...body.matchAll(/([^\n]*)\n```(\w+)\n([\s\S]*?)\n```/g)].map((m) => ({ label: m[1], lang: m[2], text: m[3] }));
}

/** The file a file block is, from its label (`` `Pulumi.yaml` ``). */
export const fileOf = (b: Block) => /`([^`]+)`/.exec(b.label)![1];

/**
 * `pulumi login --local` checks `file://~`, the account's real home (not $HOME), and leaves its backend marker there:
 * call before, and the returned function after, to leave the account's home as it was.
 */
export function keepBackendMarker(): () => void {
  const marker = path.join(os.userInfo().homedir, ".pulumi/meta.yaml");
  const wasThere = existsSync(marker);
  return () => {
    if (!wasThere) for (const f of [marker, `${marker}.attrs`]) rmSync(f, { force: true });
  };
}

/** Every emulator on a free port (`*_EMULATOR_PORT=0`), so a busy test machine cannot collide. */
export const FREE_EMULATOR_PORTS = Object.fromEntries(
  ["EDGE", "PAGES", "POSTS", "RUNNER", "SKILLS", "CLAUDE", "CONTROL"].map((s) => [`${s}_EMULATOR_PORT`, "0"]),
);

/** The `export` lines the started emulators print, as a user pastes them: variable by name. */
export function pastedExports(emulators: ChildProcess): Promise<Record<string, string>> {
  return new Promise((resolve, reject) => {
    let out = "";
    emulators.on("exit", (code) => reject(new Error(`emulators exited with ${code}: ${out}`)));
    emulators.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes("test hooks:"))
        resolve(Object.fromEntries([...out.matchAll(/^ {2}export (\w+)=(\S+)$/gm)].map((m) => [m[1], m[2]])));
    });
  });
}

/**
 * A new user's shell for a README path: this process's environment with a home, a Pulumi home and a file backend
 * of its own under `scratch` (the CLI finds its home and `file://~` from the account's entry, not $HOME: both are
 * pointed at scratch folders), and no update check.
 */
export function newUserEnv(scratch: string): Record<string, string> {
  return {
    ...(process.env as Record<string, string>),
    HOME: path.join(scratch, "home"),
    PULUMI_HOME: path.join(scratch, "home/.pulumi"),
    PULUMI_BACKEND_URL: `file://${path.join(scratch, "state")}`,
    PULUMI_SKIP_UPDATE_CHECK: "true",
  };
}

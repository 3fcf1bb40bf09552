/**
 * The simulated host behind the control emulator. Nothing ever runs on the real machine: commands act on a small
 * in-memory file system through a handful of shell built-ins, and GUI scripts act on a simulated screen.
 */
import { createHash } from "node:crypto";
import { splitList, splitPipe, tokenize } from "./shell-parse";

export interface CommandResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** A built-in's result, with what it asks of the list it runs in: stop there (`exit`), wait (`sleep`). */
type Ran = CommandResult & { exit?: boolean; sleepMs?: number; script?: string };

/** The remote-management agent's command, as the remote-desktop procedure (docs/resources.md, RemoteDesktopSession) describes its effect. */
const KICKSTART = "/System/Library/CoreServices/RemoteManagement/ARDAgent.app/Contents/Resources/kickstart";

export class SimulatedHost {
  /** Files by path: their text (bytes decoded as UTF-8, as this host keeps text only). */
  files = new Map<string, string>();
  /** A file's permissions in octal (`644`) and owner (`ops:staff`), where not the defaults. */
  modes = new Map<string, string>();
  owners = new Map<string, string>();
  /** The shell's umask: new files are 644 under 022, 600 under 077. */
  umask = "022";
  dirs = new Set<string>(["/", "/Users", "/Users/ops", "/tmp", "/etc"]);
  cwd = "/Users/ops";
  /** Listening on 3283 with VNC legacy access on and permission requests off. */
  remoteManagement = false;
  env: Record<string, string> = { HOME: "/Users/ops", USER: "ops", PATH: "/usr/bin:/bin" };

  resolve(p: string): string {
    const abs = p.startsWith("/") ? p : p.startsWith("~") ? `${this.env.HOME}${p.slice(1)}` : `${this.cwd}/${p}`;
    const parts: string[] = [];
    for (const seg of abs.split("/")) {
      if (!seg || seg === ".") continue;
      if (seg === "..") parts.pop();
      else parts.push(seg);
    }
    return `/${parts.join("/")}`;
  }

  private parent(p: string): string {
    return p.slice(0, p.lastIndexOf("/")) || "/";
  }

  /**
   * Runs a command line: `;`, `&&` and `||` lists, quotes, `$VAR`, `>`/`>>`/`>&2` redirection and `sh -c`. `sleep` waits for real
   * (a command that takes time is how a client's timeout is tested), so running is asynchronous.
   */
  async run(line: string, extraEnv: Record<string, string> = {}): Promise<CommandResult> {
    const out: CommandResult = { stdout: "", stderr: "", exitCode: 0 };
    const env = { ...this.env, ...extraEnv };
    for (const { op, text } of splitList(line)) {
      if (op === "&&" && out.exitCode !== 0) continue;
      if (op === "||" && out.exitCode === 0) continue;
      // A pipeline `a | b`: each command's output is the next one's input; its status is the last one's.
      let r: Ran = { stdout: "", stderr: "", exitCode: 0 };
      let piped: string | undefined;
      let stderr = "";
      for (const stage of splitPipe(text)) {
        r = this.simple(stage, env, piped);
        stderr += r.stderr;
        piped = r.stdout;
      }
      r = { ...r, stderr };
      if (r.sleepMs) await new Promise((done) => setTimeout(done, r.sleepMs));
      if (r.script !== undefined) r = await this.run(r.script, env); // `sh -c '...'`: a list of its own
      out.stdout += r.stdout;
      out.stderr += r.stderr;
      out.exitCode = r.exitCode;
      env["?"] = String(r.exitCode); // `$?`: the last command's exit status
      if (r.exit) break;
    }
    return out;
  }

  private simple(text: string, env: Record<string, string>, stdin?: string): Ran {
    const words = tokenize(text, env);
    if (!words.length) return { stdout: "", stderr: "", exitCode: 0 };
    let redirect: { path: string; append: boolean } | undefined;
    let toStderr = false;
    let quiet = false;
    const args: string[] = [];
    for (let i = 0; i < words.length; i++) {
      if (words[i] === ">&2") toStderr = true;
      else if (words[i] === "2>")
        quiet = words[++i] === "/dev/null"; // (only /dev/null is simulated)
      else if (words[i] === ">" || words[i] === ">>") {
        redirect = { path: this.resolve(words[++i] ?? ""), append: words[i - 1] === ">>" };
      } else args.push(words[i]);
    }
    let r = this.builtin(args, env, stdin);
    if (quiet) r = { ...r, stderr: "" };
    if (toStderr) r = { ...r, stdout: "", stderr: r.stderr + r.stdout };
    if (redirect) {
      if (!this.dirs.has(this.parent(redirect.path)))
        return { stdout: "", stderr: `sh: ${redirect.path}: No such file or directory\n`, exitCode: 1 };
      if (!this.files.has(redirect.path)) this.created(redirect.path);
      this.files.set(redirect.path, (redirect.append ? (this.files.get(redirect.path) ?? "") : "") + r.stdout);
      r = { ...r, stdout: "" };
    }
    return r;
  }

  /** A new file's mode (from the umask) and owner (the user running). */
  private created(p: string): void {
    const mode = (0o666 & ~parseInt(this.umask, 8)).toString(8);
    if (mode !== "644") this.modes.set(p, mode);
    else this.modes.delete(p);
    this.owners.delete(p);
  }

  modeOf = (p: string) => this.modes.get(p) ?? "644";
  ownerOf = (p: string) => this.owners.get(p) ?? `${this.env.USER}:staff`;

  private builtin([cmd, ...a]: string[], env: Record<string, string>, stdin?: string): Ran {
    const ok = (stdout = ""): CommandResult => ({ stdout, stderr: "", exitCode: 0 });
    const err = (stderr: string, exitCode = 1): CommandResult => ({ stdout: "", stderr: `${stderr}\n`, exitCode });
    switch (cmd) {
      case "true":
        return ok();
      case "export":
        for (const kv of a) {
          const i = kv.indexOf("=");
          if (i > 0) env[kv.slice(0, i)] = kv.slice(i + 1);
        }
        return ok();
      case "false":
        return { stdout: "", stderr: "", exitCode: 1 };
      case "echo":
        return a[0] === "-n" ? ok(a.slice(1).join(" ")) : ok(`${a.join(" ")}\n`);
      case "pwd":
        return ok(`${this.cwd}\n`);
      case "printenv":
        return a[0]
          ? env[a[0]] !== undefined
            ? ok(`${env[a[0]]}\n`)
            : { stdout: "", stderr: "", exitCode: 1 }
          : ok(
              Object.entries(env)
                .map(([k, v]) => `${k}=${v}\n`)
                .join(""),
            );
      case "cd": {
        const p = this.resolve(a[0] ?? env.HOME);
        if (!this.dirs.has(p)) return err(`cd: ${a[0]}: No such file or directory`);
        this.cwd = p;
        return ok();
      }
      case "sh":
      case "bash":
        return a[0] === "-c" && a[1] !== undefined ? { ...ok(), script: a[1] } : err(`${cmd}: only -c 'commands' is simulated`, 2);
      case "sleep": {
        // GNU and BSD sleep: a number of seconds, fractions allowed; a suffix s/m/h as GNU takes it.
        const m = /^(\d+(?:\.\d+)?|\.\d+)([smh]?)$/.exec(a[0] ?? "");
        if (!m) return err(a[0] === undefined ? "usage: sleep seconds" : `sleep: invalid time interval '${a[0]}'`);
        return { ...ok(), sleepMs: Number(m[1]) * { "": 1000, s: 1000, m: 60_000, h: 3_600_000 }[m[2] as "" | "s" | "m" | "h"] };
      }
      case "exit":
        return { stdout: "", stderr: "", exitCode: Number(a[0] ?? 0) || 0, exit: true };
      case "cat": {
        let s = "";
        for (const f of a) {
          const p = this.resolve(f);
          if (!this.files.has(p)) return { stdout: s, stderr: `cat: ${f}: No such file or directory\n`, exitCode: 1 };
          s += this.files.get(p);
        }
        return ok(s);
      }
      case "touch":
        for (const f of a) {
          const p = this.resolve(f);
          if (!this.dirs.has(this.parent(p))) return err(`touch: ${f}: No such file or directory`);
          if (!this.files.has(p)) this.files.set(p, "");
        }
        return ok();
      case "mkdir": {
        const deep = a[0] === "-p";
        for (const d of a.filter((x) => x !== "-p")) {
          const p = this.resolve(d);
          if (this.dirs.has(p) && !deep) return err(`mkdir: ${d}: File exists`);
          if (!deep && !this.dirs.has(this.parent(p))) return err(`mkdir: ${d}: No such file or directory`);
          let cur = "";
          for (const seg of p.split("/").filter(Boolean)) this.dirs.add((cur += `/${seg}`));
        }
        return ok();
      }
      case "rm": {
        const flags = a.filter((x) => x.startsWith("-")).join("");
        for (const f of a.filter((x) => !x.startsWith("-"))) {
          const p = this.resolve(f);
          if (this.files.delete(p)) {
            this.modes.delete(p);
            this.owners.delete(p);
            continue;
          }
          if (this.dirs.has(p) && flags.includes("r")) {
            for (const m of [this.files, this.modes, this.owners]) for (const k of [...m.keys()]) if (k.startsWith(`${p}/`)) m.delete(k);
            for (const k of [...this.dirs]) if (k === p || k.startsWith(`${p}/`)) this.dirs.delete(k);
            continue;
          }
          if (!flags.includes("f")) return err(this.dirs.has(p) ? `rm: ${f}: is a directory` : `rm: ${f}: No such file or directory`);
        }
        return ok();
      }
      case "ls": {
        const p = this.resolve(a.find((x) => !x.startsWith("-")) ?? ".");
        if (this.files.has(p)) return ok(`${p.split("/").pop()}\n`);
        if (!this.dirs.has(p)) return err(`ls: ${p}: No such file or directory`);
        const names = [...this.files.keys(), ...this.dirs]
          .filter((k) => k !== p && this.parent(k) === p)
          .map((k) => k.split("/").pop()!)
          .sort();
        return ok(names.map((n) => `${n}\n`).join(""));
      }
      case "test":
      case "[": {
        const [flag, f] = a[0]?.startsWith("-") ? [a[0], a[1]] : ["-e", a[0]];
        const p = this.resolve(f ?? "");
        const yes = flag === "-f" ? this.files.has(p) : flag === "-d" ? this.dirs.has(p) : this.files.has(p) || this.dirs.has(p);
        return { stdout: "", stderr: "", exitCode: yes ? 0 : 1 };
      }
      case "sudo":
        return this.builtin(a, env, stdin);
      case "umask":
        if (a[0] === undefined) return ok(`0${this.umask}\n`);
        this.umask = a[0].replace(/^0(?=\d{3}$)/, "");
        return ok();
      case "printf":
        // The format `%s` and plain text: enough for what is piped into another command.
        return ok(a[0] === "%s" ? a.slice(1).join("") : (a[0] ?? ""));
      case "base64": {
        if (a[0] !== "-d" && a[0] !== "-D") return ok(`${Buffer.from(stdin ?? "").toString("base64")}\n`);
        const text = (stdin ?? "").replace(/\s+/g, "");
        if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return err("base64: stdin: (null): error decoding base64 input stream");
        return ok(Buffer.from(text, "base64").toString("utf8"));
      }
      case "chmod": {
        const [mode, f] = a;
        const p = this.resolve(f ?? "");
        if (!/^0?[0-7]{3}$/.test(mode ?? "")) return err(`chmod: Invalid file mode: ${mode}`);
        if (!this.files.has(p)) return err(`chmod: ${f}: No such file or directory`);
        this.modes.set(p, mode.replace(/^0(?=\d{3}$)/, ""));
        return ok();
      }
      case "chown": {
        // The endpoint's user is not root: a file stays its own (any of its groups), as on a Mac.
        const [owner, f] = a;
        const p = this.resolve(f ?? "");
        if (!this.files.has(p)) return err(`chown: ${f}: No such file or directory`);
        const [user, group = "staff"] = (owner ?? "").split(":");
        if (user !== env.USER || !["staff", "admin", env.USER].includes(group)) return err(`chown: ${f}: Operation not permitted`);
        this.owners.set(p, `${user}:${group}`);
        return ok();
      }
      case "mv": {
        const [from, to] = a.filter((x) => x !== "-f");
        const src = this.resolve(from ?? "");
        const dst = this.resolve(to ?? "");
        if (!this.files.has(src)) return err(`mv: rename ${from} to ${to}: No such file or directory`);
        if (!this.dirs.has(this.parent(dst))) return err(`mv: rename ${from} to ${to}: No such file or directory`);
        this.files.set(dst, this.files.get(src)!);
        this.files.delete(src);
        for (const m of [this.modes, this.owners]) {
          if (m.has(src)) m.set(dst, m.get(src)!);
          else m.delete(dst);
          m.delete(src);
        }
        return ok();
      }
      case "shasum": {
        // macOS's: `shasum -a 256 FILE` prints the hash, two spaces, the name.
        const f = a.filter((x, i) => !x.startsWith("-") && a[i - 1] !== "-a")[0];
        const p = this.resolve(f ?? "");
        if (!this.files.has(p)) return err(`shasum: ${f}: No such file or directory`);
        return ok(`${createHash("sha256").update(this.files.get(p)!, "utf8").digest("hex")}  ${f}\n`);
      }
      case "stat": {
        // BSD stat, as on a Mac: `-f FORMAT` with %Lp, %Su, %Sg; GNU's `-c` is not an option there.
        if (a[0] !== "-f")
          return err(
            `stat: illegal option -- ${a[0]?.replace(/^-/, "") ?? ""}\nusage: stat [-FLnq] [-f format | -l | -r | -s | -x] [-t timefmt] [file ...]`,
          );
        const p = this.resolve(a[2] ?? "");
        if (!this.files.has(p) && !this.dirs.has(p)) return err(`stat: ${a[2]}: stat: No such file or directory`);
        const [user, group] = this.ownerOf(p).split(":");
        return ok(`${(a[1] ?? "").replace(/%Lp/g, this.modeOf(p)).replace(/%Su/g, user).replace(/%Sg/g, group)}\n`);
      }
      case KICKSTART:
        return this.kickstart(a);
      case "open":
        return this.open(a[0] ?? "");
      default:
        return err(`sh: ${cmd}: command not found`, 127);
    }
  }

  /** The remote-management agent: `-activate ... -setvnclegacy -vnclegacy yes ... -restart -agent` or `-deactivate -stop`. */
  private kickstart(a: string[]): CommandResult {
    if (a.includes("-deactivate") || a.includes("-stop")) {
      this.remoteManagement = false;
      return { stdout: "Stopping the ARD Agent.\nDone.\n", stderr: "", exitCode: 0 };
    }
    if (a.includes("-activate")) {
      const legacy = a.includes("-setvnclegacy") && a[a.indexOf("-vnclegacy") + 1] === "yes";
      this.remoteManagement = true;
      return { stdout: `Activated Remote Management.${legacy ? " VNC legacy access on." : ""}\nDone.\n`, stderr: "", exitCode: 0 };
    }
    return { stdout: "", stderr: "kickstart: give -activate or -deactivate\n", exitCode: 1 };
  }

  /** Hook for `open vnc://...`: the screen plays the connection (see screen.ts). */
  onOpen?: (url: string) => CommandResult;
  private open(url: string): CommandResult {
    return this.onOpen?.(url) ?? { stdout: "", stderr: `The file ${url} does not exist.\n`, exitCode: 1 };
  }
}

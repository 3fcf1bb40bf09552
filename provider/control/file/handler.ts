/**
 * `ops.control.RemoteFile`. id: the path. Written through the endpoint's run_command (writeScript: a new file moved
 * over the path), read back by its SHA-256, mode and owner (a file changed on the host is drift, written again by
 * the next up), removed by destroy unless `keep`. The content goes on the tool's standard input where run_command
 * takes one (mcp-server-commands' does); elsewhere in the command, which a secret content never is.
 */
import { checkWith, withoutProvider } from "../../check";
import { AlreadyExistsError, ApiError, ValidationError } from "../../http/errors";
import { changedKeys, outcomeUnknown, sameField as same, type Bag, type Handler } from "../../handler";
import { callHasSecrets, log, warn } from "../../log";
import { control, type ControlClient } from "../client";
import { textOf } from "../tool-result";
import { previewTools } from "../tools-preview";
import { leftover, parseState, readScript, removeScript, writeScript, type FileState } from "./script";
import { RemoteFileInputs, type RemoteFileOutputs } from "./schema";
import { readFileSync } from "node:fs";
import * as path from "node:path";

/** Whether the endpoint's run_command takes `stdin` (its input schema says so), asked once per client. */
const stdinOf = new WeakMap<ControlClient, Promise<boolean>>();
function takesStdin(): Promise<boolean> {
  const client = control();
  let known = stdinOf.get(client);
  if (!known) {
    known = client.listTools().then(
      (tools) => {
        const run = tools.find((t) => t.name === "run_command") as { inputSchema?: { properties?: Record<string, unknown> } } | undefined;
        return Boolean(run?.inputSchema?.properties && "stdin" in run.inputSchema.properties);
      },
      (e) => {
        stdinOf.delete(client); // asked again by the next write
        throw e;
      },
    );
    stdinOf.set(client, known);
  }
  return known;
}

const isSecret = (r: Bag) => r.secret === true || callHasSecrets();

/** Runs a script; a command that failed throws its message (a secret write's without what it printed). */
async function sh(command: string, what: string, o: { stdin?: string; secret?: boolean } = {}): Promise<string> {
  const result = await control().callTool("run_command", { command, ...(o.stdin !== undefined ? { stdin: o.stdin } : {}) });
  const s = result.structuredContent as { stdout?: string; stderr?: string; exitCode?: number } | undefined;
  // A structured answer with stdout (the control emulator's); else its text (servers that answer text, or a structured
  // `result` as the Python SDK's does).
  const printed = s?.stdout !== undefined ? `${s.stdout}${s.stderr ?? ""}` : textOf(result);
  if (result.isError || (s?.exitCode ?? 0) !== 0)
    throw new ApiError({
      service: "control",
      message: `${what} failed${s?.exitCode !== undefined ? ` (exit ${s.exitCode})` : ""}: ${o.secret ? "its output is not shown, as the file is secret" : printed.trim().slice(0, 300)}`,
    });
  return printed;
}

/** The file's state on the host; a read is safe to repeat, so one whose answer was lost is asked once more. */
async function readState(file: string): Promise<FileState> {
  const read = () => sh(readScript(file), `reading ${file}`);
  return parseState(await read().catch((e) => (outcomeUnknown(e) ? read() : Promise.reject(e))));
}

/** The file's bytes: the content, or the source file's. */
const bytesOf = (r: Bag): Buffer =>
  r.source !== undefined ? readFileSync(path.resolve(String(r.source))) : Buffer.from(String(r.content));

/** The owner as the program gives it against the host's user:group (a bare user is compared with the user alone). */
const sameOwner = (wanted: unknown, there: string | undefined) =>
  wanted === undefined || there === undefined || (String(wanted).includes(":") ? wanted === there : there.split(":")[0] === wanted);

const modeOf = (r: Bag) => String(r.mode ?? "600");

async function write(r: Bag): Promise<FileState> {
  const secret = isSecret(r);
  const viaStdin = await takesStdin();
  if (secret && !viaStdin)
    throw new ValidationError({
      service: "control",
      message: `${r.path}: the content is secret, and this endpoint's run_command takes no stdin, so it would travel in the command line the host runs`,
      remedy:
        "Point ops:controlUrl at a command server whose run_command takes `stdin` (mcp-server-commands does), or give content that is not secret",
    });
  const base64 = bytesOf(r).toString("base64");
  const script = writeScript({ file: String(r.path), base64, mode: modeOf(r), owner: r.owner as string | undefined, viaStdin });
  const send = () => sh(script, `writing ${r.path}`, { stdin: viaStdin ? base64 : undefined, secret });
  try {
    await send().catch(async (e) => {
      // Writing a file is safe to repeat: an answer lost (the write may have run) is settled by reading the file,
      // and sent once more only when the host does not hold the program's content.
      if (!outcomeUnknown(e) || (await readState(String(r.path))).hash === r.contentHash) {
        if (outcomeUnknown(e)) return void log(`control: the answer to writing ${r.path} was lost; the host holds the program's content`);
        throw e;
      }
      log(`control: the answer to writing ${r.path} was lost and the host does not hold the program's content; writing it again`);
      await send();
    });
  } catch (e) {
    const tmp = leftover(script);
    if (tmp) await sh(`rm -f ${tmp}`, "removing the half-written file").catch(() => undefined);
    throw e;
  }
  const now = await readState(String(r.path));
  if (now.hash !== r.contentHash)
    throw new ApiError({
      service: "control",
      message: `${r.path} was written, but the host reads back another content (${now.hash ?? "none"}, not ${r.contentHash})`,
      remedy: "Check that nothing else writes this file, then run `pulumi up` again",
    });
  return now;
}

function outputs(r: Bag, there: FileState): RemoteFileOutputs {
  return {
    path: r.path,
    content: r.content,
    source: r.source,
    mode: r.mode,
    owner: r.owner,
    keep: r.keep ?? false,
    adopt: r.adopt ?? false,
    secret: isSecret(r),
    contentHash: there.hash ?? r.contentHash,
    size: r.size,
  };
}

export const remoteFile: Handler<RemoteFileInputs, RemoteFileOutputs> = {
  preview: (ctx) => previewTools(ctx, ["run_command"]),
  async check(_olds, news) {
    return checkWith(RemoteFileInputs, news);
  },
  async diff(_id, olds, news) {
    const wanted = withoutProvider(news);
    const replaces = changedKeys(["path"], olds, wanted, same);
    const changed = changedKeys(["contentHash", "mode", "owner", "keep", "adopt", "secret", "content", "source"], olds, wanted, same);
    return { changes: replaces.length + changed.length > 0, replaces };
  },
  async create(r) {
    const there = await readState(r.path);
    if (there.present && there.hash !== r.contentHash && !r.adopt)
      throw new AlreadyExistsError({
        service: "control",
        message: `the host already has a file at ${r.path} with another content (sha256 ${there.hash?.slice(0, 12)}…), written by hand or by another tool`,
        remedy:
          "Set `adopt: true` to take it over (it is then written as the program says, and destroy removes it), or choose another path",
      });
    if (there.present && there.hash === r.contentHash && there.mode === modeOf(r) && sameOwner(r.owner, there.owner)) {
      log(`control: ${r.path} is on the host as the program says; taken over, nothing written`);
      return { id: r.path, outs: outputs(r, there) };
    }
    return { id: r.path, outs: outputs(r, await write(r)) };
  },
  async read(id, props) {
    const there = await readState(id);
    if (!there.present) return {};
    const changes = [
      ...(there.hash !== props.contentHash
        ? [`its content (sha256 ${String(props.contentHash).slice(0, 12)}… → ${there.hash?.slice(0, 12)}…)`]
        : []),
      ...(there.mode !== undefined && there.mode !== modeOf(props) ? [`its mode ${modeOf(props)} → ${there.mode}`] : []),
      ...(!sameOwner(props.owner, there.owner) ? [`its owner ${props.owner} → ${there.owner}`] : []),
    ];
    if (!changes.length) return { id, props: props as RemoteFileOutputs };
    warn(`control: ${id} was changed on the host: ${changes.join("; ")}; the next up writes the program's again`);
    // (A mode the program left unset was written as 600: another one on the host is drift too.)
    const now = {
      ...(props as RemoteFileOutputs),
      contentHash: there.hash!,
      ...(there.mode !== modeOf(props) ? { mode: there.mode } : {}),
    };
    if (!sameOwner(props.owner, there.owner)) now.owner = there.owner;
    return { id, props: now };
  },
  async update(_id, olds, news) {
    const r = withoutProvider(news);
    // keep, adopt or secret alone: nothing to write.
    if (!changedKeys(["contentHash", "mode", "owner"], olds, r, same).length)
      return { outs: outputs(r, { present: true, hash: olds.contentHash }) };
    return { outs: outputs(r, await write(r)) };
  },
  async delete(id, props) {
    if (props.keep) return void log(`control: ${id} is kept on the host (keep: true)`);
    await sh(removeScript(id), `removing ${id}`);
  },
};

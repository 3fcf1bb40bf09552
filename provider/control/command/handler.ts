/**
 * `ops.control.RemoteCommand`. A command that fails fails the step with the tool's message, so a failed create
 * leaves nothing in state and a failed delete keeps the resource. Commands are never read back: refresh keeps
 * what the last run reported.
 */
import { checkWith, withoutProvider } from "../../check";
import { changedKeys, createOnce, isPending, type Bag, type Handler, sameField as same } from "../../handler";
import { ApiError } from "../../http/errors";
import { callHasSecrets } from "../../log";
import { CONTROL_SETTINGS, readFlag } from "../../config";
import { createResumed, InterruptedCreateError } from "../../create-journal";
import { control } from "../client";
import { hostPermissionError, textOf } from "../tool-result";
import { RemoteCommandInputs, type RemoteCommandOutputs } from "./schema";
import { previewTools } from "../tools-preview";

const quote = (v: string) => `'${v.replace(/'/g, `'\\''`)}'`;

/** Printed after a shell command: its own exit status, whatever the server makes of it (isError, text, nothing). */
const EXIT_MARK = "__PULUMI_OPS_EXIT__";

/** The exit status the command printed, and what it printed besides (the mark taken out, nothing else). */
function exitMark(printed: string): { exitCode: number; rest: string } | undefined {
  const at = printed.lastIndexOf(`${EXIT_MARK}=`);
  const m = at < 0 ? null : new RegExp(`^${EXIT_MARK}=(\\d+)\\n?`).exec(printed.slice(at));
  return m ? { exitCode: Number(m[1]), rest: printed.slice(0, at) + printed.slice(at + m[0].length) } : undefined;
}

/**
 * Runs `command` with the resource's interpreter and environment. A shell command's exit status is the one it
 * prints itself (a last line `__PULUMI_OPS_EXIT__=$?`): servers differ in what they say of a failure (some set
 * `isError`, some only print). Without that line (a command that ran `exit`), a structured `exitCode`, then
 * `isError`, decide. A failure throws the command's own message.
 */
async function run(r: Bag, command: string, phase: string, before?: Bag) {
  // Update and delete see what the last create or update printed, as pulumi-command gives them (its #167, #190):
  // PULUMI_COMMAND_STDOUT and PULUMI_COMMAND_STDERR, so a delete can undo by the id its create printed, and
  // PULUMI_COMMAND_EXIT_CODE (empty where the server did not tell it).
  // Only to a command that reads them, and at most 64 KiB each: a large output inlined into every update and delete
  // could make a stack's destroy too long a command line.
  const cap = (v: unknown) =>
    String(v ?? "")
      .replace(/\0/g, "")
      .slice(-65_536);
  const previous =
    before && /PULUMI_COMMAND_(STDOUT|STDERR|EXIT_CODE)/.test(command)
      ? {
          PULUMI_COMMAND_STDOUT: cap(before.stdout),
          PULUMI_COMMAND_STDERR: cap(before.stderr),
          PULUMI_COMMAND_EXIT_CODE: String(before.exitCode ?? ""),
        }
      : {};
  const env = Object.entries({ ...previous, ...(r.environment ?? {}) })
    .map(([k, v]) => `export ${k}=${quote(String(v))}; `)
    .join("");
  const shell = r.interpreter !== "applescript";
  const result = shell
    ? await control().callTool("run_command", { command: `${env}${command}\necho "${EXIT_MARK}=$?"` })
    : await control().callTool("applescript", { script: command });
  const s = result.structuredContent as { stdout?: string; stderr?: string; exitCode?: number } | undefined;
  const printed = s?.stdout ?? textOf(result);
  const mark = shell ? exitMark(printed) : undefined;
  const exitCode = mark ? mark.exitCode : (s?.exitCode ?? (result.isError ? 1 : shell ? undefined : 0));
  const stdout = mark ? mark.rest : printed;
  const failed = mark ? exitCode !== 0 : Boolean(result.isError) || (exitCode ?? 0) !== 0;
  const out = {
    stdout: failed && !s ? "" : stdout,
    stderr: s?.stderr ?? (failed ? stdout : ""),
    ...(exitCode !== undefined ? { exitCode } : {}),
  };
  if (failed) {
    // A command the host refused for a privacy permission (osascript without Automation, ...): say which, and where.
    // A secret command (`secret`, or any input the program gave as a secret): its output may quote any piece of
    // it, which no mask can find, so the error leaves the output out and says where to read it.
    const secret = r.secret === true || callHasSecrets();
    const refused = hostPermissionError(out.stderr || stdout, !secret);
    if (refused) throw refused;
    const what = secret ? `the ${phase} command` : `the ${phase} command \`${command.slice(0, 80)}\``;
    const said = secret
      ? "its output is not shown, as the command is secret (run it on the host to read it)"
      : (out.stderr || stdout).trim().slice(0, 500);
    throw new ApiError({
      service: "control",
      code: exitCode,
      message: `${what} failed${exitCode !== undefined ? ` (exit ${exitCode})` : ""}: ${said}`,
    });
  }
  return out;
}

function outputs(r: RemoteCommandInputs, out: { stdout: string; stderr: string; exitCode?: number }): RemoteCommandOutputs {
  return { ...withoutProvider(r), ...out };
}

export const remoteCommand: Handler<RemoteCommandInputs, RemoteCommandOutputs> = {
  preview: (ctx) => previewTools(ctx, ctx.inputs.interpreter === "applescript" ? ["applescript"] : ["run_command"]),
  async check(_olds, news) {
    return checkWith(RemoteCommandInputs, news);
  },
  async diff(_id, olds, news) {
    const wanted = withoutProvider(news);
    const replaces = changedKeys(["triggers"], olds, wanted, same);
    const changed = changedKeys(["create", "update", "delete", "interpreter", "environment", "secret"], olds, wanted, same);
    // A replacement runs the old resource's delete command before the new one's create command.
    return { changes: replaces.length + changed.length > 0, replaces, deleteBeforeReplace: replaces.length > 0 };
  },
  async create(r) {
    // A lost answer leaves no way to know whether the command ran: the resource is recorded as pending and the
    // next up refuses to run it blindly (see update).
    const inputs = withoutProvider(r);
    // A killed run started this very create and never recorded how it ended (create-journal.ts): never run blindly.
    const earlier = createResumed();
    if (earlier && !readFlag(CONTROL_SETTINGS.rerunInterrupted)) {
      throw new InterruptedCreateError(
        `this resource's create command was sent (${new Date(earlier.sentAt).toISOString()}) by an earlier run that never recorded its end (a killed run, or \`pulumi state delete\`), so pulumi-ops cannot tell whether it ran and does not run it blindly: check the host${r.secret || callHasSecrets() ? "" : ` for the effect of \`${String(r.create).slice(0, 80)}\``}, then remove the resource from the program if it must not run twice, or run \`pulumi up\` once with ops:controlRerunInterrupted set (or CONTROL_RERUN_INTERRUPTED=true) to run it again`,
      );
    }
    const out = await createOnce({
      what: "the create command's run",
      create: () => run(r, r.create, "create"),
      findMade: async () => "cannot tell" as const,
      whereToLook: `the host for the effect of the create command${r.secret || callHasSecrets() ? "" : ` \`${String(r.create).slice(0, 80)}\``}: then \`pulumi up --replace <this resource's URN>\` runs the delete command (if any) and the create command again, or \`pulumi state delete <URN>\` forgets it`,
      properties: { ...inputs, stdout: "", stderr: "" },
    });
    return { id: `command-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`, outs: outputs(r, out) };
  },
  async read(id, props) {
    // What a command printed is nowhere but in state: kept as it is.
    return { id, props: props as RemoteCommandOutputs };
  },
  async update(id, olds, news) {
    const r = withoutProvider(news);
    if (isPending(id)) {
      throw new Error(
        "the answer to this resource's create command was lost, so pulumi-ops cannot tell whether it ran and does not run it blindly: check the host, then `pulumi up --replace <this resource's URN>` to run it again, or `pulumi state delete <URN>` to forget it",
      );
    }
    // Only the delete command changed: nothing to run now.
    if (!changedKeys(["create", "update", "interpreter", "environment"], olds, r, same).length)
      return { outs: outputs(r, { stdout: olds.stdout, stderr: olds.stderr, exitCode: olds.exitCode }) };
    return { outs: outputs(r, await run(r, r.update ?? r.create, r.update ? "update" : "create", olds)) };
  },
  async delete(_id, props) {
    if (props.delete) await run(props, props.delete, "delete", props);
  },
};

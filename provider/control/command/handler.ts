/**
 * `ops.control.RemoteCommand`. A command that fails fails the step with the tool's message, so a failed create
 * leaves nothing in state and a failed delete keeps the resource. Commands are never read back: refresh keeps
 * what the last run reported.
 */
import { checkWith, withoutProvider } from "../../check";
import { changedKeys, createOnce, isPending, type Bag, type Handler } from "../../handler";
import { ApiError } from "../../http/errors";
import { control, textOf } from "../client";
import { RemoteCommandInputs } from "./schema";

const quote = (v: string) => `'${v.replace(/'/g, `'\\''`)}'`;
const same = (_k: string, a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** Runs `command` with the resource's interpreter and environment; a failure throws the tool's own message. */
async function run(r: Bag, command: string, phase: string) {
  const env = Object.entries(r.environment ?? {}).map(([k, v]) => `export ${k}=${quote(String(v))}; `).join("");
  const result = r.interpreter === "applescript"
    ? await control().callTool("applescript", { script: command })
    : await control().callTool("run_command", { command: env + command });
  const s = result.structuredContent as { stdout?: string; stderr?: string; exitCode?: number } | undefined;
  const out = { stdout: s?.stdout ?? (result.isError ? "" : textOf(result)), stderr: s?.stderr ?? (result.isError ? textOf(result) : ""), ...(s?.exitCode !== undefined ? { exitCode: s.exitCode } : {}) };
  if (result.isError) {
    const what = r.secret ? `the ${phase} command` : `the ${phase} command \`${command.slice(0, 80)}\``;
    throw new ApiError({ service: "control", code: out.exitCode, message: `${what} failed${out.exitCode !== undefined ? ` (exit ${out.exitCode})` : ""}: ${(out.stderr || textOf(result)).trim().slice(0, 500)}` });
  }
  return out;
}

function outputs(r: Bag, out: { stdout: string; stderr: string; exitCode?: number }) {
  const { __provider: _, ...inputs } = r;
  return { ...inputs, ...out };
}

export const remoteCommand: Handler = {
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
    const { __provider: _, ...inputs } = r;
    const out = await createOnce({
      what: "the create command's run",
      create: () => run(r, r.create, "create"),
      findMade: async () => "cannot tell" as const,
      whereToLook: `the host for the effect of the create command${r.secret ? "" : ` \`${String(r.create).slice(0, 80)}\``}: then \`pulumi up --replace <this resource's URN>\` runs the delete command (if any) and the create command again, or \`pulumi state delete <URN>\` forgets it`,
      properties: { ...inputs, stdout: "", stderr: "" },
    });
    return { id: `command-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`, outs: outputs(r, out) };
  },
  async read(id, props) {
    return { id, props };
  },
  async update(id, olds, news) {
    const r = withoutProvider(news);
    if (isPending(id)) {
      throw new Error("the answer to this resource's create command was lost, so pulumi-ops cannot tell whether it ran and does not run it blindly: check the host, then `pulumi up --replace <this resource's URN>` to run it again, or `pulumi state delete <URN>` to forget it");
    }
    // Only the delete command changed: nothing to run now.
    if (!changedKeys(["create", "update", "interpreter", "environment"], olds, r, same).length) return { outs: outputs(r, { stdout: olds.stdout, stderr: olds.stderr, exitCode: olds.exitCode }) };
    return { outs: outputs(r, await run(r, r.update ?? r.create, r.update ? "update" : "create")) };
  },
  async delete(_id, props) {
    if (props.delete) await run(props, props.delete, "delete");
  },
};

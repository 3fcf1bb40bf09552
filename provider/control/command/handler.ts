/**
 * `ops.control.RemoteCommand`. A command that fails fails the step with the tool's message, so a failed create
 * leaves nothing in state and a failed delete keeps the resource. Commands are never read back: refresh keeps
 * what the last run reported.
 */
import { checkWith, withoutProvider } from "../../check";
import { changedKeys, type Bag, type Handler } from "../../handler";
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
    const out = await run(r, r.create, "create");
    return { id: `command-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`, outs: outputs(r, out) };
  },
  async read(id, props) {
    return { id, props };
  },
  async update(_id, olds, news) {
    const r = withoutProvider(news);
    // Only the delete command changed: nothing to run now.
    if (!changedKeys(["create", "update", "interpreter", "environment"], olds, r, same).length) return { outs: outputs(r, { stdout: olds.stdout, stderr: olds.stderr, exitCode: olds.exitCode }) };
    return { outs: outputs(r, await run(r, r.update ?? r.create, r.update ? "update" : "create")) };
  },
  async delete(_id, props) {
    if (props.delete) await run(props, props.delete, "delete");
  },
};

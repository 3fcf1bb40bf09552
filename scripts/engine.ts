/**
 * The real Pulumi engine for the demo, the tests and the benchmark: the CLI from .tools/pulumi (built by
 * scripts/install-pulumi.sh) driven through the Automation API on a real program directory, with a file://
 * backend and a PULUMI_HOME in a temporary folder, and Node 22 first on the PATH of the language host.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { gunzipSync } from "node:zlib";
import { LocalWorkspace, PulumiCommand, type ConfigMap, type Stack } from "@pulumi/pulumi/automation";

import { filesBelow, ROOT } from "./root";

export { ROOT };

export interface EngineStack {
  stack: Stack;
  scratch: string;
  /** The CLI, the environment and the directory the Automation API runs it with: for driving it by hand. */
  cli: { command: string; env: Record<string, string>; cwd: string };
  /** Every file of the file:// backend (state, history, backups) as text: the state at rest. */
  backendText(): string;
  /** Processes of this engine's runs still alive (CLI, language host, plugins, program), by the PULUMI_HOME they inherited. */
  running(): number[];
  dispose(): Promise<void>;
}

/**
 * Processes still running for this engine: the CLI starts its plugins in their own process groups, so a CLI
 * killed with SIGKILL (as a cancelled CI job is) leaves its language host and provider behind. They are found by
 * the PULUMI_HOME they inherited, which is this engine's own (Linux /proc; elsewhere nothing is found).
 */
function leftovers(home: string): number[] {
  let pids: string[];
  try {
    pids = readdirSync("/proc").filter((d) => /^\d+$/.test(d));
  } catch {
    return [];
  }
  return pids.flatMap((pid) => {
    try {
      return readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").includes(`PULUMI_HOME=${home}`) ? [Number(pid)] : [];
    } catch {
      return []; // gone meanwhile, or not ours to read
    }
  });
}

/**
 * `backendQuery` is appended to the file:// backend URL, e.g. "?metadata=skip" (no metadata sidecar files: a kill
 * then cannot leave the stack unreadable; docs/reliability.md).
 */
export async function engineStack(
  workDir: string,
  config: ConfigMap,
  stackName = "test",
  extraEnv: Record<string, string> = {},
  backendQuery = "",
): Promise<EngineStack> {
  const scratch = mkdtempSync(path.join(tmpdir(), "pulumi-ops-engine-"));
  mkdirSync(`${scratch}/state`, { recursive: true });
  const pulumiCommand = await PulumiCommand.get({ root: path.join(ROOT, ".tools/pulumi") });
  const envVars = {
    PULUMI_BACKEND_URL: `file://${scratch}/state${backendQuery}`,
    PULUMI_HOME: `${scratch}/home`,
    PULUMI_CONFIG_PASSPHRASE: "pulumi-ops",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PATH: `${path.join(ROOT, "node_modules/.bin")}:${path.join(ROOT, ".tools/pulumi/bin")}:${process.env.PATH}`,
    ...extraEnv,
  };
  const stack = await LocalWorkspace.createOrSelectStack({ stackName, workDir }, { pulumiCommand, envVars, pulumiHome: `${scratch}/home` });
  await stack.setAllConfig(config);
  return {
    stack,
    scratch,
    cli: {
      command: path.join(ROOT, ".tools/pulumi/bin/pulumi"),
      env: { ...(process.env as Record<string, string>), ...envVars },
      cwd: workDir,
    },
    backendText() {
      return filesBelow(`${scratch}/state`)
        .map((f) => (f.endsWith(".gz") ? gunzipSync(readFileSync(f)) : readFileSync(f)).toString("utf8"))
        .join("\n");
    },
    running() {
      return leftovers(`${scratch}/home`).filter((pid) => pid !== process.pid);
    },
    async dispose() {
      await stack.workspace.removeStack(stackName, { force: true }).catch(() => undefined);
      for (const pid of leftovers(`${scratch}/home`)) {
        try {
          if (pid !== process.pid) process.kill(pid, "SIGKILL");
        } catch {
          // exited meanwhile
        }
      }
      rmSync(scratch, { recursive: true, force: true });
    },
  };
}

/**
 * The real Pulumi engine for tests: the CLI from .tools/pulumi (built by scripts/install-pulumi.sh) driven through
 * the Automation API on a real example program, with a file:// backend and a PULUMI_HOME in a temporary folder.
 */
import { gunzipSync } from "node:zlib";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { LocalWorkspace, PulumiCommand, type ConfigMap, type Stack } from "@pulumi/pulumi/automation";

export const ROOT = path.resolve(__dirname, "../..");

export interface EngineStack {
  stack: Stack;
  /** Every file of the file:// backend (state, history, backups) as text: the state at rest. */
  backendText(): string;
  dispose(): Promise<void>;
}

function filesBelow(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? filesBelow(p) : [p];
  });
}

/** Credentials reach the provider only through stack config: the variables the fallback reads are removed. */
export function withoutEnvFallback(): void {
  for (const k of Object.keys(process.env)) if (/^(EDGE|PAGES|POSTS|RUNNER|SKILLS|CONTROL)_/.test(k)) delete process.env[k];
}

export async function exampleStack(example: string, config: ConfigMap, stackName = "test"): Promise<EngineStack> {
  const scratch = mkdtempSync(path.join(tmpdir(), "pulumi-ops-engine-"));
  const pulumiCommand = await PulumiCommand.get({ root: path.join(ROOT, ".tools/pulumi") });
  const envVars = {
    PULUMI_BACKEND_URL: `file://${scratch}/state`,
    PULUMI_HOME: `${scratch}/home`,
    PULUMI_CONFIG_PASSPHRASE: "engine-tests",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    // Node 22 from the `node` package, ahead of the machine's node, for the language host and the provider.
    PATH: `${path.join(ROOT, "node_modules/.bin")}:${path.join(ROOT, ".tools/pulumi/bin")}:${process.env.PATH}`,
    PULUMI_OPS_QUIET: "0",
  };
  mkdirSync(`${scratch}/state`, { recursive: true });
  const stack = await LocalWorkspace.createOrSelectStack(
    { stackName, workDir: path.join(ROOT, "examples", example) },
    { pulumiCommand, envVars, pulumiHome: `${scratch}/home` },
  );
  await stack.setAllConfig(config);
  return {
    stack,
    backendText() {
      return filesBelow(`${scratch}/state`)
        .map((f) => (f.endsWith(".gz") ? gunzipSync(readFileSync(f)) : readFileSync(f)).toString("utf8"))
        .join("\n");
    },
    async dispose() {
      await stack.workspace.removeStack(stackName, { force: true }).catch(() => undefined);
      rmSync(scratch, { recursive: true, force: true });
    },
  };
}

/** Milliseconds taken by `f`, recorded under `name` for the run's timing table. */
export const timings: Record<string, number> = {};
export async function timed<T>(name: string, f: () => Promise<T>): Promise<T> {
  const start = Date.now();
  try {
    return await f();
  } finally {
    timings[name] = Date.now() - start;
  }
}

/**
 * What examples/ci/pipeline.sh says after a refused or stopped apply, its functions run alone on made-up outputs (the
 * engine tests run the whole script): a lock's owner and age, and whether that apply can still be running; the
 * changes a stopped apply held to a plan did not reach, not the unchanged resources the engine also names.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";

const SCRIPT = readFileSync(path.join(__dirname, "../../examples/ci/pipeline.sh"), "utf8");
const fn = (name: string) => new RegExp(`^${name}\\(\\) \\{[\\s\\S]*?^NODE\\n\\}`, "m").exec(SCRIPT)![0];
const dir = mkdtempSync(path.join(tmpdir(), "pipeline-notes-"));

function run(name: string, output: string, env: Record<string, string> = {}): string {
  const file = path.join(dir, `${name}.txt`);
  writeFileSync(file, output);
  return execFileSync("bash", ["-c", `${fn(name)}\n${name} "$1"`, "bash", file], { encoding: "utf8", env: { ...process.env, ...env } });
}

const locked = (pid: number, host: string, at: Date) =>
  `error: the stack is currently locked by 1 lock(s).\n  file:///state/.pulumi/locks/organization/site/prod/5f1e.json: created by ci@${host} (pid ${pid}) at ${at.toISOString().replace(/\.\d+Z$/, "Z")}\n`;

describe("pipeline.sh's notes", () => {
  it("a lock of a process gone from this machine, or older than the job's timeout, is an apply that is not running: recover", () => {
    const dead = 2 ** 22 + 12345; // above pid_max's default: no such process
    expect(run("lock_note", locked(dead, hostname(), new Date(Date.now() - 90_000)))).toMatch(
      /^pipeline\.sh: the stack is locked by an apply that is not running: ci@\S+ \(pid \d+\), taken 9[01] s ago at \S+, its process is gone from this machine\. Run pipeline\.sh recover/,
    );
    expect(run("lock_note", locked(1, "runner-7", new Date(Date.now() - 3 * 3_600_000)), { PIPELINE_LOCK_STALE_MINUTES: "60" })).toMatch(
      /not running: ci@runner-7 \(pid 1\), taken 3\.0 h ago at \S+, older than the apply job's timeout \(PIPELINE_LOCK_STALE_MINUTES=60\)\. Run pipeline\.sh recover/,
    );
  });

  it("a lock another machine took within the job's timeout, or a live process here, is an apply still running: wait", () => {
    expect(run("lock_note", locked(4242, "runner-7", new Date(Date.now() - 5 * 60_000)))).toMatch(
      /^pipeline\.sh: another apply of this stack is running: ci@runner-7 \(pid 4242\), taken 5 min ago at \S+\. Wait for it to finish, then re-run this job/,
    );
    expect(run("lock_note", locked(process.pid, hostname(), new Date()))).toMatch(/another apply of this stack is running/);
    expect(run("lock_note", "error: something else\n")).toBe(""); // no lock: nothing said
  });

  it("a stopped apply's operations not reached are counted as the changes among them, by the reviewed plan", () => {
    const urn = (name: string) => `urn:pulumi:prod::site::pulumi-nodejs:dynamic/edge:DnsRecord::${name}`;
    const plan = path.join(dir, "plan.json");
    writeFileSync(
      plan,
      JSON.stringify({
        resourcePlans: {
          [urn("www")]: { steps: ["update"] },
          [urn("api")]: { steps: ["same"] },
          [urn("old")]: { steps: ["delete"] },
          [urn("mx")]: { steps: ["same"] },
        },
      }),
    );
    const output = ["www", "api", "old", "mx"]
      .map((n) => `    error: expected resource operations for ${urn(n)} but none were seen`)
      .join("\n");
    expect(run("not_reached", output, { PULUMI_PLAN: plan })).toBe(
      "pipeline.sh: 2 planned changes were not reached, the apply having stopped at the error above: www, old\n",
    );
    writeFileSync(plan, JSON.stringify({ version: 1, plan: { resourcePlans: { [urn("api")]: { steps: ["same"] } } } }));
    expect(run("not_reached", `error: expected resource operations for ${urn("api")} but none were seen`, { PULUMI_PLAN: plan })).toBe(
      "pipeline.sh: the apply stopped at the error above; every change the plan had was reached\n",
    );
  });
});

/**
 * Any output derived from a secret input is secret, on both doors. The engine re-marks only outputs named like a
 * secret input, so a RemoteCommand's stdout (what a secret command printed) must come back wrapped as a secret:
 * on the plugin door when any input arrived secret, on the dynamic door when the SDK folded that into `secret`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ControlEmulator } from "../../emulators";
import { callDynamic, checkForEngine } from "../../provider/door";
// The compiled plugin: it finds package.json and schema.json relative to dist/provider, as installed.
import { provider, wrap } from "../../dist/provider/plugin";
import { isSecretValue } from "../../provider/secrets";

let control: ControlEmulator;
const URN = (t: string, n: string) => `urn:pulumi:dev::proj::ops:${t}::${n}`;

beforeAll(async () => {
  control = await new ControlEmulator().start();
  process.env.CONTROL_URL = control.url;
});
afterAll(() => control.stop());

describe("outputs derived from secret inputs", () => {
  it("plugin door: a command holding a secret returns its command and stdout wrapped; a plain one does not", async () => {
    const secretCmd = { create: wrap("echo hunter2-secret"), interpreter: "shell", secret: false };
    const { inputs } = await provider.check!(URN("control:RemoteCommand", "a"), {}, secretCmd);
    const made = await provider.create!(URN("control:RemoteCommand", "a"), inputs);
    expect(isSecretValue(made.outs!.stdout)).toBe(true);
    expect(isSecretValue(made.outs!.create)).toBe(true);
    expect(JSON.stringify(made.outs).includes("hunter2-secret")).toBe(true); // inside the wrappers, for the engine to encrypt
    const plain = await provider.create!(
      URN("control:RemoteCommand", "b"),
      (await provider.check!(URN("control:RemoteCommand", "b"), {}, { create: "echo hello" })).inputs,
    );
    expect(plain.outs!.stdout).toBe("hello\n");
  });

  it("dynamic door: with `secret` (set by the SDK when any input is secret) create, update and read wrap stdout", async () => {
    const inputs = { create: "echo hunter2-secret", interpreter: "shell", secret: true };
    const made = await callDynamic("control:RemoteCommand", "create", [inputs]);
    expect(isSecretValue(made.outs.stdout)).toBe(true);
    const read = await callDynamic("control:RemoteCommand", "read", [made.id, { ...inputs, stdout: "hunter2-secret\n", stderr: "" }]);
    expect(isSecretValue(read.props.stdout)).toBe(true);
    const updated = await callDynamic("control:RemoteCommand", "update", [
      made.id,
      { ...inputs, stdout: "x", stderr: "" },
      { ...inputs, create: "echo other-secret" },
    ]);
    expect(isSecretValue(updated.outs.stdout)).toBe(true);
    const plain = await callDynamic("control:RemoteCommand", "create", [{ create: "echo hello", interpreter: "shell", secret: false }]);
    expect(plain.outs.stdout).toBe("hello\n");
  });
});

describe("no secret in any error or line", () => {
  const FAILING = "echo using hunter2-secret; exit 3";

  it("plugin door: a failing command built from a secret fails without its output; a plain one shows it", async () => {
    const urn = URN("control:RemoteCommand", "f");
    const { inputs } = await provider.check!(urn, {}, { create: wrap(FAILING), interpreter: "shell", secret: false });
    const err = await provider.create!(urn, inputs).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(err?.message).toMatch(/the create command failed \(exit 3\): its output is not shown, as the command is secret/);
    expect(err?.message).not.toMatch(/hunter2/);
    const plain = await provider.create!(urn, (await provider.check!(urn, {}, { create: FAILING })).inputs).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(plain?.message).toMatch(/exit 3\): using hunter2-secret/);
  });

  it("dynamic door: the same with `secret: true`, and with only the SDK's `__secrets` naming the input", async () => {
    for (const inputs of [
      { create: FAILING, interpreter: "shell", secret: true },
      { create: FAILING, interpreter: "shell", secret: false, __secrets: ["create"] },
    ]) {
      const err = await callDynamic("control:RemoteCommand", "create", [inputs]).then(
        () => undefined,
        (e: Error) => e,
      );
      expect(err?.message).toMatch(/failed \(exit 3\): its output is not shown/);
      expect(err?.message).not.toMatch(/hunter2/);
    }
  });

  it("a secret input's value is masked wherever the call would print it (a service's message quoting it)", async () => {
    const { withCallSecrets, redact } = await import("../../provider/log");
    expect(withCallSecrets(["hunter2-secret"], () => redact("the service refused 'hunter2-secret' in message"))).toBe(
      "the service refused '[secret]' in message",
    );
    expect(redact("hunter2-secret")).toBe("hunter2-secret"); // outside the call: nothing to mask
  });

  it("a check failure quoting a secret input's value masks it, on both doors", async () => {
    const dynamic = await checkForEngine(
      "edge:ZoneSetting",
      {},
      { zoneName: "example.com", settingId: "polish", value: "hunter2-secret", __secrets: ["value"] },
    );
    expect(dynamic.failures.map((f) => f.reason).join(" ")).toMatch(/polish must be one of off, lossless, lossy; got "\[secret\]"/);
    const plugin = await provider.check!(
      URN("edge:ZoneSetting", "s"),
      {},
      { zoneName: "example.com", settingId: "polish", value: wrap("hunter2-secret") },
    );
    expect(JSON.stringify(plugin.failures)).toMatch(/\[secret\]/);
    expect(JSON.stringify([dynamic.failures, plugin.failures])).not.toMatch(/hunter2/);
  });

  it("a command with a secret that holds no text (a number) still leaves its output out of the error", async () => {
    const err = await callDynamic("control:RemoteCommand", "create", [
      { create: "echo using $N-hunter2; exit 3", interpreter: "shell", secret: false, environment: { N: 7 }, __secrets: ["environment"] },
    ]).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(err?.message).toMatch(/its output is not shown/);
  });
});

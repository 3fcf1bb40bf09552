/**
 * The remote-host example through the real Pulumi engine against the control emulator: preview runs nothing (no
 * tool call: the remote-desktop procedure is a resource), up runs create and opens the session once, a no-op up
 * runs nothing, a trigger change replaces (delete then create, checked on the simulated host), a failing command
 * reports the host's error, destroy runs delete and closes the session, a command built from a secret keeps its
 * output secret.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ControlEmulator } from "../../emulators";
import { exampleStack, timed, timings, withoutEnvFallback, type EngineStack } from "../helpers/engine";

let control: ControlEmulator;
let engine: EngineStack;
const commands = () => control.calls.filter((c) => c.tool === "run_command").map((c) => String(c.args.command));

beforeAll(async () => {
  withoutEnvFallback();
  control = await new ControlEmulator({ dialogDelayMs: 500 }).start(); // the 5-8 s of the remote-desktop procedure (docs/resources.md, RemoteDesktopSession), shortened
  engine = await exampleStack("remote-host", {
    "ops:controlUrl": { value: control.url },
    "ops:controlVncPassword": { value: "kiosk-password-1", secret: true },
    "remote-host:apiKey": { value: "api-key-kept-secret-42", secret: true },
  });
}, 300_000);

afterAll(async () => {
  await engine?.dispose();
  await control?.stop();
  console.log(`remote-host engine timings (ms): ${JSON.stringify(timings)}`);
});

describe("remote-host example through the Pulumi engine", { timeout: 300_000 }, () => {
  it("1. preview runs nothing: no tool call; one session's initialize and tool list check the endpoint", async () => {
    const preview = await timed("preview", () => engine.stack.preview());
    expect(preview.changeSummary.create).toBe(5);
    expect(control.calls).toEqual([]);
    // The preview check (provider/preflight.ts): the newest revision's server/discover (a 2025 server refuses it),
    // initialize, its notification and tools/list, nothing else.
    const rpc = control.log.filter((e) => e.method === "POST").length;
    expect(rpc).toBeGreaterThan(0);
    expect(rpc).toBeLessThanOrEqual(4);
  });

  it("2. up runs the create commands; a no-op up runs nothing", async () => {
    const up = await timed("up", () => engine.stack.up());
    expect(up.summary.resourceChanges?.create).toBe(5);
    expect(commands().filter((c) => c.startsWith("open vnc://"))).toEqual(["open vnc://kiosk.local"]); // once per apply
    expect(control.screen.state).toBe("connected");
    expect(up.outputs.desktop.value).toBe("the remote desktop");
    expect(control.machine.remoteManagement).toBe(true);
    expect(control.machine.files.get("/tmp/pulumi-ops/release.txt")).toBe("release 1\n");
    expect(up.outputs.markerOutput.value).toBe("release 1\n");
    const ran = control.calls.length;
    const again = await timed("up (no-op)", () => engine.stack.up({ expectNoChanges: true }));
    expect(again.summary.resourceChanges).toEqual({ same: 5 });
    expect(control.calls.length).toBe(ran);
  });

  it("3. a trigger change replaces: the delete command runs, then the create command", async () => {
    const before = commands().length;
    await engine.stack.setConfig("release", { value: "2" });
    const up = await timed("up (trigger replace)", () => engine.stack.up());
    expect(up.summary.resourceChanges).toMatchObject({ replace: 1 });
    const ran = commands().slice(before);
    const del = ran.findIndex((c) => c.includes("rm -f /tmp/pulumi-ops/release.txt"));
    const create = ran.findIndex((c) => c.includes('echo "release $RELEASE"'));
    expect(del).toBeGreaterThanOrEqual(0);
    expect(create).toBeGreaterThan(del);
    expect(control.machine.files.get("/tmp/pulumi-ops/release.txt")).toBe("release 2\n");
  });

  it("3b. a RemoteDesktopSession's trigger change closes the old session, then opens the new one: the host shows the session after the up", async () => {
    const before = control.calls.length;
    await engine.stack.setConfig("desktopRelease", { value: "2" });
    const up = await timed("up (session replace)", () => engine.stack.up());
    expect(up.summary.resourceChanges).toMatchObject({ replace: 1 });
    const ran = control.calls.slice(before).map((c) => `${c.tool} ${String(c.args.command ?? c.args.script ?? "")}`);
    // The old session's delete is a GUI script (its text is not kept: a login script carries a password) before the
    // new session's `open vnc://`; made first, the old one's quit would come last and close the new session.
    const quit = ran.findIndex((c) => c.startsWith("applescript"));
    const open = ran.findIndex((c) => c.startsWith("run_command open vnc://kiosk.local"));
    expect(quit).toBeGreaterThanOrEqual(0);
    expect(open).toBeGreaterThan(quit);
    expect(control.screen.state).toBe("connected");
    await engine.stack.preview({ expectNoChanges: true });
  });

  it("4. a failing command reports the host's error and leaves nothing behind", async () => {
    await engine.stack.setConfig("breakIt", { value: "true" });
    const failed = await engine.stack.up().catch((e: Error) => e);
    expect(String(failed)).toMatch(/mkdir \/does\/not\/exist` failed \(exit 1\): mkdir: \/does\/not\/exist: No such file or directory/);
    const state = await engine.stack.exportStack();
    expect(state.deployment.resources.some((r: { urn: string }) => r.urn.endsWith("::broken"))).toBe(false);
    await engine.stack.removeConfig("breakIt");
    expect((await engine.stack.up()).summary.resourceChanges).toEqual({ same: 5 });
  });

  it("5. a command built from a secret keeps its command and output secret at rest (history and backups too)", async () => {
    expect(control.machine.files.get("/tmp/pulumi-ops.key")).toBe("api-key-kept-secret-42\n");
    expect(engine.backendText()).not.toContain("api-key-kept-secret-42");
    expect(engine.backendText()).not.toContain("kiosk-password-1");
    const state = await engine.stack.exportStack();
    const file = state.deployment.resources.find((r: { urn: string }) => r.urn.endsWith("::api-key-file"));
    expect(file.outputs.stdout).toMatchObject({ "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270" });
  });

  it("6. the engine's own -v=9 lines print secret inputs and config; dropping its property-marshaling lines removes every one (docs/reliability.md)", async () => {
    let v9 = "";
    await engine.stack.up({ onOutput: (o) => (v9 += o), onError: (o) => (v9 += o), logToStdErr: true, logVerbosity: 9 });
    const secrets = ["api-key-kept-secret-42", "kiosk-password-1"];
    const leaking = v9.split("\n").filter((line) => secrets.some((x) => line.includes(x)));
    expect(leaking.length).toBeGreaterThan(0); // the engine's, as documented
    expect(leaking.every((line) => /arshaling property for RPC\[/.test(line) && line.includes('"v":9'))).toBe(true);
    let v8 = "";
    await engine.stack.up({ onOutput: (o) => (v8 += o), onError: (o) => (v8 += o), logToStdErr: true, logVerbosity: 8 });
    expect(secrets.some((x) => v8.includes(x))).toBe(false);
  });

  it("7. destroy runs the delete commands", async () => {
    const destroy = await timed("destroy", () => engine.stack.destroy());
    expect(destroy.summary.resourceChanges).toMatchObject({ delete: 5 });
    expect(control.screen.state).toBe("desktop"); // the session was closed
    expect(control.machine.remoteManagement).toBe(false);
    expect(control.machine.files.has("/tmp/pulumi-ops/release.txt")).toBe(false);
    expect(control.machine.files.has("/tmp/pulumi-ops.key")).toBe(false);
  });
});

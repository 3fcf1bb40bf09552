import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ControlEmulator } from "../../emulators";
import { call, callDynamic } from "../../provider/door";
import { isSecretValue } from "../../provider/secrets";

let control: ControlEmulator;
beforeAll(async () => (control = await new ControlEmulator({ dialogDelayMs: 600 }).start()));
afterAll(() => control.stop());
beforeEach(() => {
  control.reset();
  process.env.CONTROL_URL = control.url;
  delete process.env.CONTROL_VNC_PASSWORD;
});

async function make(args: Record<string, unknown>) {
  const { inputs, failures } = await call("control:RemoteCommand", "check", [{}, args]);
  expect(failures).toEqual([]);
  return { inputs, ...(await call("control:RemoteCommand", "create", [inputs])) };
}

describe("RemoteCommand", () => {
  it("runs create with its environment, update on change, delete on destroy; one session for the calls of a run", async () => {
    const c = await make({
      create: 'echo "$GREETING" > /tmp/hello.txt; cat /tmp/hello.txt',
      delete: "rm /tmp/hello.txt",
      environment: { GREETING: "hi there" },
    });
    expect(c.outs).toMatchObject({ stdout: "hi there\n", exitCode: 0 });
    expect(control.machine.files.get("/tmp/hello.txt")).toBe("hi there\n");
    const news = (await call("control:RemoteCommand", "check", [{}, { ...c.inputs, update: "echo updated >> /tmp/hello.txt" }])).inputs;
    expect(await call("control:RemoteCommand", "diff", [c.id, c.outs, news])).toMatchObject({ changes: true, replaces: [] });
    await call("control:RemoteCommand", "update", [c.id, c.outs, news]);
    expect(control.machine.files.get("/tmp/hello.txt")).toBe("hi there\nupdated\n");
    await call("control:RemoteCommand", "delete", [c.id, { ...c.outs, ...news }]);
    expect(control.machine.files.has("/tmp/hello.txt")).toBe(false);
    expect(control.initialized).toBe(1); // the calls of one run shared one session
  });

  it("update and delete see what create printed ($PULUMI_COMMAND_STDOUT, as pulumi-command gives it): a delete undoes by the id create made", async () => {
    const c = await make({
      create: "echo job-42",
      update: 'echo "was $PULUMI_COMMAND_STDOUT" > /tmp/update.txt; echo job-43',
      delete: 'echo "$PULUMI_COMMAND_STDOUT" > /tmp/cancelled.txt; echo "exit $PULUMI_COMMAND_EXIT_CODE" > /tmp/exit.txt',
      environment: { A: "1" },
    });
    expect(c.outs.stdout).toBe("job-42\n");
    const news = (await call("control:RemoteCommand", "check", [{}, { ...c.inputs, environment: { A: "2" } }])).inputs;
    const u = await call("control:RemoteCommand", "update", [c.id, c.outs, news]);
    expect(control.machine.files.get("/tmp/update.txt")).toBe("was job-42\n\n");
    await call("control:RemoteCommand", "delete", [c.id, u.outs]);
    expect(control.machine.files.get("/tmp/cancelled.txt")).toBe("job-43\n\n");
    expect(control.machine.files.get("/tmp/exit.txt")).toBe("exit 0\n"); // $PULUMI_COMMAND_EXIT_CODE: the update's status
  });

  it("replaces on a trigger change, deleting before creating", async () => {
    const c = await make({ create: "touch /tmp/a", delete: "rm /tmp/a", triggers: [1] });
    expect(await call("control:RemoteCommand", "diff", [c.id, c.outs, { ...c.inputs, triggers: [2] }])).toEqual({
      changes: true,
      replaces: ["triggers"],
      deleteBeforeReplace: true,
    });
  });

  it("fails with the host's message and leaves nothing behind", async () => {
    const err = await make({ create: "mkdir /nope/deeper" }).catch((e: Error) => e);
    expect(err.message).toMatch(
      /create command `mkdir \/nope\/deeper` failed \(exit 1\): mkdir: \/nope\/deeper: No such file or directory/,
    );
    const hidden = await make({ create: "cat /secret-file", secret: true }).catch((e: Error) => e);
    expect(hidden.message).toMatch(/the create command failed/);
    expect(hidden.message).not.toContain("/secret-file`");
  });

  it("closes the session once the run goes quiet", async () => {
    await make({ create: "true" });
    await new Promise((r) => setTimeout(r, 1800));
    expect(control.closed).toBe(1);
  });

  it("cannot be read or imported by id (a command is not an object the endpoint keeps), with the way that works", async () => {
    for (const t of ["control:RemoteCommand", "control:RemoteDesktopSession"]) {
      await expect(call(t, "read", ["anything", {}])).rejects.toThrow(
        /cannot be read or imported by id: it is not an object the service keeps.*Declare it in the program/,
      );
    }
  });

  it("refuses bad input at check", async () => {
    const check = (a: object) => call("control:RemoteCommand", "check", [{}, a]);
    expect((await check({ create: "" })).failures[0].property).toBe("create");
    expect((await check({ create: "x", interpreter: "python" })).failures[0].property).toBe("interpreter");
    expect((await check({ create: "x", environment: { "BAD NAME": "1" } })).failures[0].property).toMatch(/^environment/);
  });
});

describe("control functions", () => {
  it("take a screenshot, write it, and report pixels and points", async () => {
    const fns = await import("../../provider/control/functions");
    const file = path.join(mkdtempSync(path.join(tmpdir(), "shot-")), "screen.png");
    const shot = await fns.screenshot({ path: file });
    // The density is learnt from the host (its desktop in points), not assumed.
    expect(shot).toMatchObject({
      pixels: { width: 1440, height: 900 },
      points: { width: 720, height: 450 },
      density: 2,
      mimeType: "image/png",
    });
    expect(control.calls.filter((c) => c.tool === "applescript")).toHaveLength(1);
    expect(readFileSync(file).subarray(1, 4).toString()).toBe("PNG");
    expect((await fns.listTools()).map((t) => t.name)).toContain("run_command");
    expect((await fns.screenshot({ density: 1 })).points).toEqual({ width: 1440, height: 900 });
  });

  it.each([
    ["a JPEG at density 2", "jpeg", 2],
    ["a JPEG scaled to points (density 1)", "jpeg", 1],
    ["an indexed (palette) PNG", "palette", 2],
  ] as const)("read %s by its mimeType, with its density learnt from the host", async (_what, format, density) => {
    const other = await new ControlEmulator({ screenshotFormat: format, screenshotDensity: density, dialogDelayMs: 600 }).start();
    try {
      process.env.CONTROL_URL = other.url;
      const fns = await import("../../provider/control/functions");
      const shot = await fns.screenshot();
      expect(shot).toMatchObject({
        pixels: { width: 720 * density, height: 450 * density },
        points: { width: 720, height: 450 },
        density,
        mimeType: format === "jpeg" ? "image/jpeg" : "image/png",
      });
      // A session on a host showing another desktop space is told black, whatever the image's kind.
      const black = await openSession({ host: "backroom.local", username: "ops", password: "backroom-password-1" });
      expect(black.outs).toMatchObject({ black: true, pixels: { width: 720 * density }, points: { width: 720, height: 450 } });
    } finally {
      await other.stop();
      process.env.CONTROL_URL = control.url;
    }
  });
});

/** The session as the engine drives it: check, then create; the resource's own outputs. */
async function openSession(args: Record<string, unknown>) {
  const { inputs, failures } = await call("control:RemoteDesktopSession", "check", [{}, args]);
  expect(failures).toEqual([]);
  return { inputs, ...(await call("control:RemoteDesktopSession", "create", [inputs])) };
}

describe("the host's privacy permissions", () => {
  it.each([
    ["automation", /the Automation permission.*Privacy & Security > Automation/],
    ["accessibility", /the Accessibility permission.*Privacy & Security > Accessibility/],
    ["screen-recording", /the Screen Recording permission.*Screen & System Audio Recording/],
  ] as const)("a helper without %s fails naming the permission and where to grant it", async (missing, says) => {
    const refusing = await new ControlEmulator({ missingPermission: missing, dialogDelayMs: 100 }).start();
    try {
      process.env.CONTROL_URL = refusing.url;
      await expect(openSession({ host: "kiosk.local", username: "ops", password: "kiosk-password-1", waitSeconds: 3 })).rejects.toThrow(
        says,
      );
    } finally {
      await refusing.stop();
      process.env.CONTROL_URL = control.url;
    }
  });

  it("a command refused for a permission says which (osascript without Automation, on a server that reports only text)", async () => {
    const plain = await new ControlEmulator({ resultStyle: "text" }).start();
    try {
      process.env.CONTROL_URL = plain.url;
      await expect(
        make({ create: "echo 'execution error: Not authorized to send Apple events to Finder. (-1743)'; false" }),
      ).rejects.toThrow(/the Automation permission.*Grant it once on the host/);
    } finally {
      await plain.stop();
      process.env.CONTROL_URL = control.url;
    }
  });
});

describe("RemoteDesktopSession", () => {
  it("opens the session on create: login, the sharing-type choice, and the password kept out of every log and output", async () => {
    process.env.CONTROL_VNC_PASSWORD = "studio-password-1";
    const s = await openSession({ host: "studio.local", username: "ops" });
    expect(s.outs).toMatchObject({ black: false, window: "studio.local (Standard)", host: "studio.local" });
    expect(JSON.stringify(s.outs)).not.toContain("studio-password-1");
    expect(JSON.stringify(control.calls)).not.toContain("studio-password-1");
    expect(JSON.stringify(control.log)).not.toContain("studio-password-1");
    expect(control.calls.filter((c) => c.tool === "screenshot").length).toBeGreaterThanOrEqual(2); // polled, not slept
    // Destroy closes the session on the helper.
    await call("control:RemoteDesktopSession", "delete", [s.id, s.outs]);
    expect(control.screen.state).toBe("desktop");
  });

  it("a black screen means another desktop space; a wrong or missing password is refused", async () => {
    const black = await openSession({ host: "backroom.local", username: "ops", password: "backroom-password-1" });
    expect(black.outs).toMatchObject({ black: true, screen: expect.stringMatching(/another desktop space/) });
    // A given password is kept (as a secret) so that an unchanged program is no change, not a new session each up.
    expect(await call("control:RemoteDesktopSession", "diff", [black.id, black.outs, black.inputs])).toMatchObject({ changes: false });
    const dynamic = await callDynamic("control:RemoteDesktopSession", "read", [black.id, black.outs]);
    expect(isSecretValue(dynamic.props.password)).toBe(true);
    await expect(openSession({ host: "kiosk.local", username: "ops", password: "wrong" })).rejects.toThrow(
      /sign-in to kiosk.local was refused/,
    );
    delete process.env.CONTROL_VNC_PASSWORD;
    await expect(openSession({ host: "kiosk.local", username: "ops" })).rejects.toThrow(/ops:controlVncPassword/);
  });

  it("check and diff (all a preview runs) send nothing; a change of host replaces, waitSeconds updates in place", async () => {
    control.log.splice(0);
    const calls = control.calls.length;
    const args = { host: "kiosk.local", username: "ops", password: "kiosk-password-1" };
    const { inputs } = await call("control:RemoteDesktopSession", "check", [{}, args]);
    expect(await call("control:RemoteDesktopSession", "diff", ["x", inputs, { ...inputs, host: "studio.local" }])).toMatchObject({
      changes: true,
      replaces: ["host"],
    });
    expect(await call("control:RemoteDesktopSession", "diff", ["x", inputs, { ...inputs, waitSeconds: 20 }])).toMatchObject({
      changes: true,
      replaces: [],
    });
    expect(await call("control:RemoteDesktopSession", "diff", ["x", inputs, inputs])).toMatchObject({ changes: false });
    expect(control.log).toEqual([]);
    expect(control.calls.length).toBe(calls);
  });

  it("ops:controlToken goes only to ops:controlUrl: a helper elsewhere gets no Authorization header and no token, helperToken goes only to it", async () => {
    const guarded = await new ControlEmulator({ token: "control-token-0123", dialogDelayMs: 0 }).start();
    const foreign = await new ControlEmulator({ dialogDelayMs: 0 }).start();
    const foreignWithToken = await new ControlEmulator({ token: "helper-token-4567", dialogDelayMs: 0 }).start();
    const saved = { url: process.env.CONTROL_URL, token: process.env.CONTROL_TOKEN };
    try {
      Object.assign(process.env, { CONTROL_URL: guarded.url, CONTROL_TOKEN: "control-token-0123" });
      foreign.captured = [];
      foreignWithToken.captured = [];
      const args = { host: "kiosk.local", username: "ops", password: "kiosk-password-1" };
      await openSession({ ...args, helperUrl: foreign.url });
      expect(foreign.captured.length).toBeGreaterThan(3);
      expect(foreign.captured.filter((r) => r.headers.authorization)).toEqual([]);
      expect(JSON.stringify(foreign.captured)).not.toContain("control-token-0123");
      const viaToken = await openSession({ ...args, helperUrl: foreignWithToken.url, helperToken: "helper-token-4567" });
      await call("control:RemoteDesktopSession", "delete", [viaToken.id, viaToken.outs]); // destroy reaches it too
      expect(foreignWithToken.screen.state).toBe("desktop");
      expect(foreignWithToken.captured.every((r) => r.headers.authorization === "Bearer helper-token-4567")).toBe(true);
      expect(JSON.stringify(foreignWithToken.captured)).not.toContain("control-token-0123");
      // The configured endpoint named as the helper still gets its own token.
      await openSession({ ...args, helperUrl: guarded.url });
    } finally {
      Object.assign(process.env, { CONTROL_URL: saved.url, CONTROL_TOKEN: saved.token ?? "" });
      if (!saved.token) delete process.env.CONTROL_TOKEN;
      await Promise.all([guarded.stop(), foreign.stop(), foreignWithToken.stop()]);
    }
  });

  it("the old function refuses with the way that works", async () => {
    const sdk = await import("../../sdk/control");
    await expect(sdk.openRemoteDesktop({ host: "kiosk.local" })).rejects.toThrow(/RemoteDesktopSession/);
  });
});

describe("any MCP server a user runs", () => {
  it("a stateless server (no Mcp-Session-Id, the official SDK's stateless mode): commands run and fail as on a session server", async () => {
    const stateless = await new ControlEmulator({ stateless: true }).start();
    try {
      process.env.CONTROL_URL = stateless.url;
      const c = await make({ create: "echo made > /tmp/s.txt; cat /tmp/s.txt" });
      expect(c.outs).toMatchObject({ stdout: "made\n", exitCode: 0 });
      expect(stateless.machine.files.get("/tmp/s.txt")).toBe("made\n");
      await expect(make({ create: "mkdir /nope/deeper" })).rejects.toThrow(/failed \(exit 1\)/);
      expect(stateless.sessions.size).toBe(0);
    } finally {
      await stateless.stop();
    }
  });

  it("a server that reports a command's exit only in its text (no isError, no structured result): a failing command still fails, exitCode is its status", async () => {
    const plain = await new ControlEmulator({ resultStyle: "text" }).start();
    try {
      process.env.CONTROL_URL = plain.url;
      const ok = await make({ create: "echo fine" });
      expect(ok.outs).toMatchObject({ stdout: "fine\n", exitCode: 0 });
      const err = await make({ create: "mkdir /nope/deeper" }).then(
        () => undefined,
        (e: Error) => e,
      );
      expect(err?.message).toMatch(
        /create command `mkdir \/nope\/deeper` failed \(exit 1\): mkdir: \/nope\/deeper: No such file or directory/,
      );
      await expect(make({ create: "false" })).rejects.toThrow(/failed \(exit 1\)/);
    } finally {
      await plain.stop();
    }
  });

  it("a session the server forgot (restarted) is made again once and the call sent again, running the command once", async () => {
    const c = await make({ create: "echo one >> /tmp/count.txt" });
    expect(control.initialized).toBe(1);
    await call("control:RemoteCommand", "update", [c.id, c.outs, { ...c.inputs, update: "echo two >> /tmp/count.txt" }]);
    control.forgetSessions();
    await call("control:RemoteCommand", "delete", [c.id, { ...c.outs, delete: "echo three >> /tmp/count.txt" }]);
    expect(control.machine.files.get("/tmp/count.txt")).toBe("one\ntwo\nthree\n");
    expect(control.initialized).toBe(2);
  });

  it("asks for 2025-06-18 and works on what the server answers (the official SDK's server checks the MCP-Protocol-Version sent back)", async () => {
    expect((await make({ create: "echo hi" })).outs.stdout).toBe("hi\n");
    const init = JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    });
    const res = await fetch(`${control.url}/mcp`, {
      method: "POST",
      body: init,
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    });
    expect(await res.text()).toMatch(/"protocolVersion":"2025-06-18"/);
  });
});

describe("the preview reads the endpoint's tools", () => {
  it("a resource whose tool the server lacks fails the preview, naming it and what the server offers", async () => {
    const { forgetPreviewChecks, previewCheck } = await import("../../provider/preflight");
    forgetPreviewChecks();
    await previewCheck("control:RemoteCommand", undefined, { create: "echo hi" });
    const lacking = await new ControlEmulator({ tools: ["screenshot"] }).start();
    try {
      process.env.CONTROL_URL = lacking.url;
      forgetPreviewChecks();
      await expect(previewCheck("control:RemoteCommand", undefined, { create: "echo hi" })).rejects.toThrow(
        /offers no run_command tool \(it offers screenshot\)/,
      );
    } finally {
      forgetPreviewChecks();
      await lacking.stop();
    }
  });
});

// Last: the short timeout makes a client of its own, whose session closes later (other tests count closes).
describe("commands that fail to run or take time", () => {
  it("a command the host cannot run fails with exit 127; a slow one is waited for, and one slower than ops:controlTimeoutSeconds fails naming the setting, without a blind re-run", async () => {
    const missing = await make({ create: "no-such-tool --flag" }).catch((e: Error) => e);
    expect(missing.message).toMatch(/create command `no-such-tool --flag` failed \(exit 127\): sh: no-such-tool: command not found/);
    const slow = await make({ create: "sleep 1.2; echo done" });
    expect(slow.outs).toMatchObject({ stdout: "done\n", exitCode: 0 });
    process.env.CONTROL_TIMEOUT_SECONDS = "1"; // a new setting: a new client
    try {
      const calls = control.calls.length;
      const err = await make({ create: "sleep 3; touch /tmp/late" }).catch((e: Error) => e);
      expect(err.message).toMatch(/ops:controlTimeoutSeconds/);
      expect(control.calls.slice(calls).filter((c) => c.tool === "run_command")).toHaveLength(1); // sent once, never again
    } finally {
      delete process.env.CONTROL_TIMEOUT_SECONDS;
    }
  });
});

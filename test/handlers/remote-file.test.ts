/**
 * RemoteFile against the control emulator (the spec's run_command: a command and nothing else, on a simulated Mac)
 * and against mcp-server-commands 0.5.0 (npm; its run_command takes `stdin`) running on this machine: written with
 * its mode, read back by hash, changed on the host found and written again, a file already there taken only with
 * adopt (or as it is when it holds the program's content), a secret content sent on stdin only and refused where
 * the tool takes none, removed by destroy unless kept.
 */
import { mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ControlEmulator } from "../../emulators";
import { call } from "../../provider/door";
import { collectWarnings } from "../../provider/log";
import { writeScript } from "../../provider/control/file/script";
import { commandsServer } from "../helpers/mcp-commands";

type Bag = Record<string, any>;
let control: ControlEmulator;
const stops: (() => void)[] = [];

beforeAll(async () => (control = await new ControlEmulator().start()));
afterAll(async () => {
  await control.stop();
  stops.forEach((stop) => stop());
  delete process.env.CONTROL_URL;
});

async function checked(args: Bag, olds: Bag = {}) {
  const { inputs, failures } = await call("control:RemoteFile", "check", [olds, args]);
  expect(failures).toEqual([]);
  return inputs;
}
async function make(args: Bag) {
  const inputs = await checked(args);
  return { inputs, ...(await call("control:RemoteFile", "create", [inputs])) };
}
const commands = () => control.calls.filter((c) => c.tool === "run_command").map((c) => String(c.args.command));

describe("RemoteFile on the control emulator (run_command without stdin)", () => {
  beforeEach(() => {
    control.reset();
    process.env.CONTROL_URL = control.url;
  });

  it("written with its mode; read back without drift; changed on the host: said at refresh and written again; destroy removes it, or keeps it", async () => {
    const f = await make({ path: "/etc/bakery/app.conf", content: "oven=on\n", mode: "0644" });
    expect(f.id).toBe("/etc/bakery/app.conf");
    expect(control.machine.files.get("/etc/bakery/app.conf")).toBe("oven=on\n");
    expect(control.machine.modeOf("/etc/bakery/app.conf")).toBe("644");
    expect(f.outs).toMatchObject({ mode: "644", size: 8, contentHash: f.inputs.contentHash });
    expect([...control.machine.files.keys()].filter((k) => k.includes(".pulumi-ops-"))).toEqual([]);
    expect(await call("control:RemoteFile", "read", [f.id, f.outs])).toEqual({ id: f.id, props: f.outs });

    control.machine.files.set("/etc/bakery/app.conf", "oven=off\n");
    control.machine.modes.set("/etc/bakery/app.conf", "666");
    const reading = collectWarnings(() => call("control:RemoteFile", "read", [f.id, f.outs]));
    const read = await reading.result;
    expect(reading.warnings.join("\n")).toMatch(
      /\/etc\/bakery\/app\.conf was changed on the host: its content \(sha256 \w{12}… → \w{12}…\); its mode 644 → 666/,
    );
    expect(await call("control:RemoteFile", "diff", [f.id, read.props, f.inputs])).toMatchObject({ changes: true, replaces: [] });
    const u = await call("control:RemoteFile", "update", [f.id, read.props, f.inputs]);
    expect(control.machine.files.get("/etc/bakery/app.conf")).toBe("oven=on\n");
    expect(control.machine.modeOf("/etc/bakery/app.conf")).toBe("644");
    expect(await call("control:RemoteFile", "read", [f.id, u.outs])).toEqual({ id: f.id, props: u.outs });

    await call("control:RemoteFile", "delete", [f.id, { ...u.outs, keep: true }]);
    expect(control.machine.files.has("/etc/bakery/app.conf")).toBe(true);
    await call("control:RemoteFile", "delete", [f.id, u.outs]);
    expect(control.machine.files.has("/etc/bakery/app.conf")).toBe(false);
    expect(await call("control:RemoteFile", "read", [f.id, u.outs])).toEqual({});
  });

  it("a file already there: refused without adopt, written with it; one holding the program's content is taken with nothing written", async () => {
    control.machine.files.set("/etc/motd", "Hand-written\n");
    const inputs = await checked({ path: "/etc/motd", content: "Deployed\n" });
    await expect(call("control:RemoteFile", "create", [inputs])).rejects.toThrow(
      /the host already has a file at \/etc\/motd with another content .*Set `adopt: true`/,
    );
    expect(control.machine.files.get("/etc/motd")).toBe("Hand-written\n");
    await make({ path: "/etc/motd", content: "Deployed\n", adopt: true });
    expect(control.machine.files.get("/etc/motd")).toBe("Deployed\n");

    control.machine.files.set("/etc/issue", "Welcome\n");
    control.machine.modes.set("/etc/issue", "600");
    control.calls.length = 0;
    const same = await make({ path: "/etc/issue", content: "Welcome\n" });
    expect(commands()).toHaveLength(1); // the read alone
    expect(same.outs.contentHash).toBe(same.inputs.contentHash);
  });

  it("a secret content is refused before anything is written, as it would travel in the command line; a plain one is in it", async () => {
    const inputs = await checked({ path: "/etc/bakery/token", content: "s3cret-oven-token", secret: true });
    await expect(call("control:RemoteFile", "create", [inputs])).rejects.toThrow(
      /the content is secret, and this endpoint's run_command takes no stdin.*mcp-server-commands does/,
    );
    expect(commands().some((c) => c.includes(Buffer.from("s3cret-oven-token").toString("base64")))).toBe(false);
    expect(control.machine.files.has("/etc/bakery/token")).toBe(false);
  });

  it("an owner the host does not let the endpoint's user set fails in one line, and leaves no half-written file", async () => {
    const inputs = await checked({ path: "/etc/bakery/app.conf", content: "x\n", owner: "root:wheel" });
    await expect(call("control:RemoteFile", "create", [inputs])).rejects.toThrow(
      /writing \/etc\/bakery\/app\.conf failed.*Operation not permitted/,
    );
    expect([...control.machine.files.keys()].filter((k) => k.startsWith("/etc/bakery"))).toEqual([]);
    const mine = await make({ path: "/etc/bakery/app.conf", content: "x\n", owner: "ops:admin" });
    expect(control.machine.ownerOf("/etc/bakery/app.conf")).toBe("ops:admin");
    expect(await call("control:RemoteFile", "read", [mine.id, mine.outs])).toEqual({ id: mine.id, props: mine.outs });
  });

  it("refuses at check what cannot be a file: a relative path, a bad mode, both or neither of content and source", async () => {
    const failures = async (args: Bag) =>
      (await call("control:RemoteFile", "check", [{}, args])).failures.map((f: Bag) => `${f.property}: ${f.reason}`);
    expect(await failures({ path: "etc/motd", content: "x" })).toEqual([
      expect.stringMatching(/^path: path must be an absolute file path/),
    ]);
    expect(await failures({ path: "/etc/motd", content: "x", mode: "rw-r--r--" })).toEqual([
      expect.stringMatching(/^mode: mode must be an octal/),
    ]);
    expect(await failures({ path: "/etc/motd" })).toEqual([expect.stringMatching(/give exactly one of content and source/)]);
    expect(control.calls).toEqual([]);
  });
});

describe("RemoteFile on mcp-server-commands (run_command with stdin), on this machine", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "remote-file-"));
  beforeAll(async () => {
    const server = await commandsServer(false);
    stops.push(server.stop);
    process.env.CONTROL_URL = server.url;
  });

  it("a secret content goes on stdin, never in the command; mode 600 by default; a change on the host is found and put back; destroy removes it", async () => {
    const file = path.join(dir, "token");
    const f = await make({ path: file, content: "s3cret-oven-token\n", secret: true });
    expect(readFileSync(file, "utf8")).toBe("s3cret-oven-token\n");
    expect((statSync(file).mode & 0o777).toString(8)).toBe("600");
    expect(await call("control:RemoteFile", "read", [f.id, f.outs])).toEqual({ id: f.id, props: f.outs });
    writeFileSync(file, "edited\n");
    const read = await call("control:RemoteFile", "read", [f.id, f.outs]);
    expect(read.props.contentHash).not.toBe(f.outs.contentHash);
    await call("control:RemoteFile", "update", [f.id, read.props, f.inputs]);
    expect(readFileSync(file, "utf8")).toBe("s3cret-oven-token\n");
    await call("control:RemoteFile", "delete", [f.id, f.outs]);
    expect(await call("control:RemoteFile", "read", [f.id, f.outs])).toEqual({});
  });

  it("a local source file's bytes, with their mode", async () => {
    const local = path.join(dir, "local.conf");
    writeFileSync(local, "from a local file\n");
    const file = path.join(dir, "deep/er/app.conf");
    await make({ path: file, source: local, mode: "640" });
    expect(readFileSync(file, "utf8")).toBe("from a local file\n");
    expect((statSync(file).mode & 0o777).toString(8)).toBe("640");
  });

  it("the script sent for stdin holds no content", () => {
    const script = writeScript({ file: "/etc/x", base64: Buffer.from("s3cret").toString("base64"), mode: "600", viaStdin: true });
    expect(script).not.toContain(Buffer.from("s3cret").toString("base64"));
    expect(script).toMatch(/^mkdir -p '\/etc' && umask 077 && base64 -d > '\/etc\/x\.pulumi-ops-[0-9a-f]{8}' && chmod 600/);
  });
});

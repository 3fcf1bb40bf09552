/**
 * The engine watch (provider/engine-watch.ts) in a plain node process: it finds the engine's address among the
 * plugin's arguments, and the process exits soon after whatever listens there goes away — by the engine's FIN, as
 * when the kernel closes a killed CLI's sockets — and not while it stays.
 */
import { spawn } from "node:child_process";
import * as net from "node:net";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { engineAddress } from "../../provider/engine-watch";

const WATCH = path.resolve(__dirname, "../../dist/provider/engine-watch.js");

describe("engine watch", () => {
  it("finds the engine address among the arguments, the last one first", () => {
    expect(engineAddress(["--logtostderr", "-v=9", "127.0.0.1:40001"])).toEqual({ host: "127.0.0.1", port: 40001 });
    expect(engineAddress(["[::1]:40002"])).toEqual({ host: "::1", port: 40002 });
    expect(engineAddress(["--root", "/tmp/x"])).toBeUndefined();
  });

  it("a provider process exits once the engine goes away, and not before", { timeout: 20_000 }, async () => {
    const held = new Set<net.Socket>();
    const engine = net.createServer((s) => held.add(s)); // accepts and never speaks, as a gRPC server to a stranger
    await new Promise<void>((r) => engine.listen(0, "127.0.0.1", r));
    const port = (engine.address() as net.AddressInfo).port;
    const child = spawn(
      process.execPath,
      ["-e", `require(${JSON.stringify(WATCH)}).watchEngine(["node", "plugin", "127.0.0.1:${port}"]); setInterval(() => {}, 1000);`],
      { stdio: ["ignore", "ignore", "pipe"] },
    );
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    const exited = new Promise<number>((r) => child.on("exit", () => r(Date.now())));
    await new Promise((r) => setTimeout(r, 1500));
    expect(child.exitCode, "still running while the engine is there").toBeNull();
    engine.close();
    for (const s of held) s.end(); // a FIN, as the kernel sends for a killed process
    const at = await Promise.race([exited, new Promise<number>((r) => setTimeout(() => r(-1), 5000))]);
    child.kill();
    expect(at, "the process did not exit within 5 s").toBeGreaterThan(0);
    expect(stderr).toMatch(/engine that started this provider is gone/);
  });
});

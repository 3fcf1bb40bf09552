/**
 * On a Node.js older than its dependencies need, pulumi-ops fails at once with one message naming the Node it needs
 * and why — the SDK on import, the dynamic door on its first call, the plugin on start — instead of every request
 * failing as "service not reachable" (undici 8 needs Node 22.19). Run with the machine's own older `node` when it
 * has one (this image ships Node 20; the project runs on the Node 22 of the `node` npm package).
 */
import { execFileSync, spawnSync } from "node:child_process";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { nodeProblem } from "../../provider/node-version";

const DIST = path.resolve(__dirname, "../../dist");
const olderNode = ["/usr/bin/node", "/usr/local/bin/node"].find((n) => {
  try {
    return Number(execFileSync(n, ["-p", "process.versions.node.split('.')[0]"]).toString().trim()) < 22;
  } catch {
    return false;
  }
});

describe("the Node.js version", () => {
  it("22.19 and newer pass; older ones are told what is needed and why", () => {
    expect(nodeProblem("22.19.0")).toBeUndefined();
    expect(nodeProblem("24.1.0")).toBeUndefined();
    expect(nodeProblem("22.18.1")).toMatch(
      /needs Node\.js 22\.19 or newer, and this is Node\.js 22\.18\.1 .*undici 8.*Install Node\.js 22/,
    );
    expect(nodeProblem("20.20.2")).toMatch(/this is Node\.js 20\.20\.2/);
  });

  it.runIf(olderNode)("on an older node, every door says so at once, in one message", () => {
    const sdk = spawnSync(olderNode!, ["-e", `require(${JSON.stringify(`${DIST}/sdk`)})`], { encoding: "utf8" });
    expect(sdk.status).not.toBe(0);
    expect(sdk.stderr).toMatch(/Error: pulumi-ops needs Node\.js 22\.19 or newer/);
    expect(sdk.stderr).not.toMatch(/^\s+at /m); // the message, not a stack trace

    const door = spawnSync(
      olderNode!,
      [
        "-e",
        `require(${JSON.stringify(`${DIST}/provider/door`)}).call("edge:DnsRecord", "check", [{}, {}]).catch((e) => { console.error(e.message); process.exit(3); })`,
      ],
      { encoding: "utf8" },
    );
    expect(door.status).toBe(3);
    expect(door.stderr.trim()).toMatch(/^pulumi-ops needs Node\.js 22\.19 or newer/);

    const plugin = spawnSync(olderNode!, [`${DIST}/provider/plugin.js`, "127.0.0.1:1"], { encoding: "utf8" });
    expect(plugin.status).toBe(1);
    expect(plugin.stderr.trim().split("\n")).toHaveLength(1);
    expect(plugin.stderr).toMatch(/^pulumi-ops needs Node\.js 22\.19 or newer/);
  });
});

/** `npm run emulators`: the compiled entry point starts on loopback and prints how to point a program at it. */
import { spawn } from "node:child_process";
import * as path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../..");

describe("npm run emulators", () => {
  it("stops with npx: a kill of the npm process that started it leaves no emulator on its ports", async () => {
    // A wrapper as npx is (npm sets npm_command for what it starts): the emulators its child, it killed by its own pid.
    const env = {
      npm_command: "exec",
      ...process.env,
      EDGE_EMULATOR_PORT: "0",
      PAGES_EMULATOR_PORT: "0",
      POSTS_EMULATOR_PORT: "0",
      RUNNER_EMULATOR_PORT: "0",
      SKILLS_EMULATOR_PORT: "0",
      CONTROL_EMULATOR_PORT: "0",
      CLAUDE_EMULATOR_PORT: "0",
    };
    const wrapper = spawn(
      "bash",
      ["-c", `"${path.join(ROOT, "node_modules/.bin/node")}" "${path.join(ROOT, "dist/emulators/main.js")}"; true`],
      { env, detached: true },
    );
    let out = "";
    await new Promise<void>((resolve, reject) => {
      wrapper.stdout.on("data", (d) => {
        out += d;
        if (out.includes("test hooks")) resolve();
      });
      wrapper.on("exit", (code) => reject(new Error(`exited ${code}: ${out}`)));
    });
    const base = /export EDGE_BASE_URL=(\S+)/.exec(out)![1];
    expect((await fetch(`${base}/client/v4/zones`)).status).toBeGreaterThanOrEqual(400); // it answers (no token)
    wrapper.kill("SIGKILL"); // the wrapper alone, as `kill <pid of npx>` would
    try {
      const deadline = Date.now() + 5000;
      let answering = true;
      while (answering && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 200));
        answering = await fetch(`${base}/client/v4/zones`).then(
          () => true,
          () => false,
        );
      }
      expect(answering, "the emulators still answer after their parent was killed").toBe(false);
    } finally {
      try {
        process.kill(-wrapper.pid!, "SIGKILL"); // what is left of its group, if the test failed
      } catch {
        // gone, as it should be
      }
    }
  });

  it("prints each base URL and the variables to export, and answers there", async () => {
    const child = spawn(path.join(ROOT, "node_modules/.bin/node"), [path.join(ROOT, "dist/emulators/main.js")], {
      env: {
        ...process.env,
        EDGE_EMULATOR_PORT: "0",
        PAGES_EMULATOR_PORT: "0",
        POSTS_EMULATOR_PORT: "0",
        RUNNER_EMULATOR_PORT: "0",
        SKILLS_EMULATOR_PORT: "0",
        CONTROL_EMULATOR_PORT: "0",
        CLAUDE_EMULATOR_PORT: "0",
      },
    });
    try {
      let out = "";
      await new Promise<void>((resolve, reject) => {
        child.stdout.on("data", (d) => {
          out += d;
          if (out.includes("test hooks")) resolve();
        });
        child.on("exit", (code) => reject(new Error(`exited ${code}: ${out}`)));
      });
      const base = /export EDGE_BASE_URL=(\S+)/.exec(out)![1];
      const token = /export EDGE_API_TOKEN=(\S+)/.exec(out)![1];
      expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(out).toContain("export EDGE_ACCOUNT_ID=");
      expect(out).toMatch(/export PAGES_BASE_URL=http:\/\/127\.0\.0\.1:\d+/);
      expect(out).toMatch(/export POSTS_BASE_URL=http:\/\/127\.0\.0\.1:\d+/);
      expect(out).toMatch(/export RUNNER_HOST=127\.0\.0\.1:\d+/);
      expect(out).toMatch(/export SKILLS_URL=http:\/\/127\.0\.0\.1:\d+/);
      expect(out).toMatch(/export CONTROL_URL=http:\/\/127\.0\.0\.1:\d+/);
      // The seed data a program needs, printed: the zones and their account, the page, the user, the hosts.
      expect(out).toMatch(/seeded: zones example\.com \(\w+\), example\.org \(\w+\) in account \w+/);
      expect(out).toMatch(/seeded: page 200000000000001 \(Example Bakery\)/);
      expect(out).toMatch(/seeded: the user @examplebakery/);
      // Every seeded identity and token of the social services, and their options (issue 47).
      for (const t of [
        "pages-user-token-0123456789",
        "pages-short-user-token-012345",
        "pages-moderator-token-0123",
        "pages-expired-token-0123456",
        "pages-app-secret-0123",
        "posts-short-token-0123456789",
        "posts-other-token-0123456789",
        "posts-app-secret-0123",
        "300000000000003 (Bob Editor)",
      ])
        expect(out).toContain(t);
      expect(out).toMatch(/options \(PagesEmulator\): extraPages/);
      expect(out).toMatch(/options \(PostsEmulator\): processingMs.*posts\/token-expiry/);
      expect(out).toMatch(/seeded: no model; pullable: .*qwen2\.5:0\.5b/);
      expect(out).toMatch(/remote desktops \(user ops\) kiosk\.local/);
      const res = await fetch(`${base}/client/v4/user/tokens/verify`, { headers: { authorization: `Bearer ${token}` } });
      expect(((await res.json()) as any).result.status).toBe("active");
      // The Claude API's skills endpoints too (issue 57), with the line that signs a program in, which is no
      // `export` line (pasting every export keeps skills on the registry).
      const claude =
        /to publish skills here instead of the registry, set: SKILLS_KIND=claude ANTHROPIC_BASE_URL=(\S+) ANTHROPIC_API_KEY=(\S+)$/m.exec(
          out,
        )!;
      expect(claude).not.toBeNull();
      expect(out).not.toMatch(/export (SKILLS_KIND|ANTHROPIC_)/);
      const listed = await fetch(`${claude[1]}/v1/skills?source=custom`, {
        headers: { "x-api-key": claude[2], "anthropic-version": "2023-06-01" },
      });
      expect(listed.status).toBe(200);
      expect((await listed.json()) as any).toMatchObject({ data: [] });
    } finally {
      child.kill("SIGTERM");
    }
  });

  it("a port in use is one line naming the variable that moves it, and a non-zero exit", async () => {
    const { createServer } = await import("node:net");
    const held = createServer().listen(0, "127.0.0.1");
    await new Promise((r) => held.once("listening", r));
    const taken = (held.address() as { port: number }).port;
    try {
      const child = spawn(path.join(ROOT, "node_modules/.bin/node"), [path.join(ROOT, "dist/emulators/main.js")], {
        env: {
          ...process.env,
          EDGE_EMULATOR_PORT: "0",
          PAGES_EMULATOR_PORT: String(taken),
          POSTS_EMULATOR_PORT: "0",
          RUNNER_EMULATOR_PORT: "0",
          SKILLS_EMULATOR_PORT: "0",
          CONTROL_EMULATOR_PORT: "0",
          CLAUDE_EMULATOR_PORT: "0",
        },
      });
      let err = "";
      child.stderr.on("data", (d) => (err += d));
      const code = await new Promise((r) => child.on("exit", r));
      expect(code).toBe(1);
      expect(err.trim().split("\n")).toEqual([
        `pulumi-ops emulators: port ${taken} (the page-management service emulator's) is in use by another process; set PAGES_EMULATOR_PORT to another port (0 takes any free one)`,
      ]);
    } finally {
      held.close();
    }
  });
});

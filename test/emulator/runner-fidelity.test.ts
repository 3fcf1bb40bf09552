/**
 * The runner emulator checked with a client nobody here wrote: the official `ollama` npm client lists, pulls
 * (streaming progress), shows, creates, chats with and deletes models against it.
 */
import { Ollama } from "ollama";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RunnerEmulator } from "../../emulators";

let runner: RunnerEmulator;
let client: Ollama;
beforeAll(async () => {
  runner = await new RunnerEmulator().start();
  client = new Ollama({ host: runner.url });
});
afterAll(() => runner.stop());

describe("runner emulator with the official ollama client", () => {
  it("pulls with streamed per-layer progress, lists and shows", async () => {
    const progress = [];
    for await (const p of await client.pull({ model: "qwen2.5:0.5b", stream: true })) progress.push(p);
    expect(progress[0].status).toBe("pulling manifest");
    expect(progress.some((p) => p.total > 0 && p.completed === p.total)).toBe(true);
    expect(progress.at(-1)!.status).toBe("success");
    const { models } = await client.list();
    expect(models.map((m) => m.name)).toEqual(["qwen2.5:0.5b"]);
    expect(models[0].details).toMatchObject({ family: "qwen2", quantization_level: "Q4_K_M" });
    expect((await client.show({ model: "qwen2.5:0.5b" })).details.parameter_size).toBe("494.03M");
  });

  it("creates from a base with a system prompt and parameters, chats, and deletes", async () => {
    await client.create({ model: "baker", from: "qwen2.5:0.5b", system: "You are a baker.", parameters: { temperature: 0.2 } });
    const shown = await client.show({ model: "baker" });
    expect(shown.system).toBe("You are a baker.");
    expect(shown.parameters).toMatch(/^temperature +0\.2$/m);
    const reply = await client.chat({ model: "baker", messages: [{ role: "user", content: "When is bread ready?" }] });
    expect(reply.message.content).toMatch(/When is bread ready\?/);
    const again = await client.chat({ model: "baker", messages: [{ role: "user", content: "When is bread ready?" }] });
    expect(again.message.content).toBe(reply.message.content); // deterministic
    expect((await client.ps()).models.map((m) => m.name)).toContain("baker:latest");
    await client.delete({ model: "baker" });
    expect((await client.list()).models.map((m) => m.name)).not.toContain("baker:latest");
  });

  it("fails as the real runner does: unknown model, full disk mid-pull, occupied GPU", async () => {
    const unknown = await (async () => {
      for await (const _ of await client.pull({ model: "no-such-model", stream: true })) void _;
    })().catch((e: Error) => e);
    expect(String(unknown)).toMatch(/file does not exist/);
    await expect(client.show({ model: "nothing-here" })).rejects.toThrow(/not found/);

    const small = await new RunnerEmulator({ diskBytes: 500_000_000 }).start();
    const tiny = new Ollama({ host: small.url });
    const full = await (async () => {
      for await (const _ of await tiny.pull({ model: "tinyllama", stream: true })) void _;
    })().catch((e: Error) => e);
    expect(String(full)).toMatch(/no space left on device/);
    expect((await tiny.list()).models).toEqual([]);
    await small.stop();

    runner.gpu = "occupied";
    await expect(client.chat({ model: "qwen2.5:0.5b", messages: [{ role: "user", content: "hi" }] })).rejects.toThrow(/out of memory/);
    runner.gpu = "available";
  });

  it("answers the chat-completions interface, accepting and ignoring an API key", async () => {
    const res = await fetch(`${runner.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer anything" },
      body: JSON.stringify({ model: "qwen2.5:0.5b", messages: [{ role: "user", content: "hello" }] }),
    });
    const body = (await res.json()) as any;
    expect(body.choices[0].message.role).toBe("assistant");
    expect(body.object).toBe("chat.completion");
  });

  it("refuses browser origins that RUNNER_ORIGINS does not allow, and listens on loopback by default", async () => {
    expect(runner.url).toMatch(/^http:\/\/127\.0\.0\.1:/);
    const foreign = await fetch(`${runner.url}/api/tags`, { headers: { origin: "https://evil.example" } });
    expect(foreign.status).toBe(403);
    const open = await new RunnerEmulator({ origins: ["*"] }).start();
    expect((await fetch(`${open.url}/api/tags`, { headers: { origin: "https://evil.example" } })).status).toBe(200);
    await open.stop();
  });
});

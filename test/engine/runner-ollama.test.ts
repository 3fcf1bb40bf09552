/**
 * RunnerModel through the real Pulumi engine against the real Ollama server (built from its Go module by
 * scripts/install-ollama.sh), at the release users run today and at the oldest the provider supports
 * (provider/runner/version.ts): a model from a local GGUF file, one from a definition file with stop, TEMPLATE,
 * MESSAGE and LICENSE lines, one inline, one quantized on the way in; each made model must answer a chat. Then no
 * change on the next up, an update in place, a model changed out of band said field by field at refresh, one removed
 * out of band revealed by refresh and made again, and destroy leaving nothing.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { engineStack, ROOT } from "../../scripts/engine";
import { withoutEnvFallback, type EngineStack } from "../helpers/engine";
import { OllamaServer, TINY_GGUF } from "../helpers/ollama";

const MODELS = ["bakery/chat:latest", "compact:latest", "terse:latest", "tiny:latest"];

describe.each(["current", "oldest"] as const)("models on the real Ollama server (%s release), through the engine", (release) => {
  const ollama = new OllamaServer(release);
  let engine: EngineStack;

  async function everyModelAnswers() {
    for (const model of await ollama.models()) {
      const res = await ollama.chat(model);
      expect(res, `${model} should answer a chat`).toMatchObject({ status: 200, body: { done: true, message: { role: "assistant" } } });
    }
  }

  beforeAll(async () => {
    withoutEnvFallback();
    await ollama.start();
    // OLLAMA_HOST alone, as an Ollama user has it set: no ops:runnerHost, no RUNNER_HOST.
    engine = await engineStack(
      path.join(ROOT, "test/programs/runner-ollama"),
      { "runner-ollama:gguf": { value: TINY_GGUF } },
      `ollama-${release}`,
      { OLLAMA_HOST: ollama.url.replace("http://", ""), PULUMI_OPS_QUIET: "0" },
    );
  }, 900_000);

  afterAll(async () => {
    await engine?.dispose();
    await ollama.stop();
  });

  describe("the stack's life", { timeout: 300_000 }, () => {
    // What the engine and the server said, printed when a step fails (a timeout too): a step that takes seconds here
    // once hung for its whole timeout in CI, and a bare "timed out" tells nobody where.
    const said: string[] = [];
    beforeEach((ctx) => {
      said.length = 0;
      ctx.onTestFailed(() =>
        console.error(
          `The engine said:\n${said.join("").slice(-6000)}\nOllama ${ollama.version}'s log ends:\n${ollama.output.slice(-6000)}`,
        ),
      );
    });
    const listen = { onOutput: (l: string) => said.push(l), onError: (l: string) => said.push(l) };

    it("1. preview makes nothing", async () => {
      const preview = await engine.stack.preview();
      expect(preview.changeSummary.create).toBe(5);
      expect(await ollama.models()).toEqual([]);
    });

    it("1b. a plain llama model as another's DRAFT fails the preview naming why (the release would make it and fail to load it), with nothing sent (issue 57)", async () => {
      await engine.stack.setConfig("runner-ollama:draft", { value: TINY_GGUF });
      try {
        const failed = await engine.stack.preview().then(
          () => "",
          (e: Error) => e.message,
        );
        if (release === "current")
          expect(failed).toMatch(
            /draft tiny\.gguf is a plain llama model without MTP layers: the runner at .* \(Ollama 0\.32\.15\) runs an external draft as an MTP draft/,
          );
        else expect(failed).toMatch(/is version 0\.17\.4; a draft model .* needs 0\.30\.0 or later/);
        expect(await ollama.models()).toEqual([]);
      } finally {
        await engine.stack.removeConfig("runner-ollama:draft");
      }
      if (release !== "current") return;
      // What the refusal spares: the release itself, given the same create, makes the model and then cannot load it.
      const bytes = readFileSync(TINY_GGUF);
      const digest = `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
      await fetch(`${ollama.url}/api/blobs/${digest}`, { method: "POST", body: bytes });
      const made = await ollama.post("/api/create", {
        model: "speedy-by-hand",
        files: { "tiny.gguf": digest },
        draft_files: { "tiny.gguf": digest },
        stream: false,
      });
      expect(made.status).toBe(200);
      const chat = await ollama.chat("speedy-by-hand");
      expect(JSON.stringify(chat)).toMatch(/MTP/);
      await fetch(`${ollama.url}/api/delete`, { method: "DELETE", body: JSON.stringify({ model: "speedy-by-hand" }) });
    });

    it("2. up makes the four models, one quantized, and each answers a chat", async () => {
      expect(((await (await fetch(`${ollama.url}/api/version`)).json()) as any).version).toBe(ollama.version);
      const up = await engine.stack.up(listen);
      expect(up.summary.resourceChanges).toMatchObject({ create: 5 });
      expect(up.outputs.compactLevel.value).toBe("Q8_0");
      expect(await ollama.models()).toEqual(MODELS);
      expect(up.outputs.chatStop.value).toEqual(["User:", "Assistant:"]);
      const shown = (await ollama.post("/api/show", { model: "bakery/chat" })).body;
      expect(shown.parameters).toMatch(/stop\s+"User:"\nstop\s+"Assistant:"/);
      expect(shown.messages).toHaveLength(2);
      expect((await ollama.post("/api/show", { model: "terse" })).body.parameters).toMatch(/stop\s+"User:"/);
      await everyModelAnswers();
    });

    it("3. the next up changes nothing; a refresh finds no drift", async () => {
      await engine.stack.up({ expectNoChanges: true, ...listen });
      const refresh = await engine.stack.refresh(listen);
      expect(refresh.summary.resourceChanges).toEqual({ same: 5 });
    });

    it("4. a changed system prompt updates the model in place; it answers", async () => {
      await engine.stack.setConfig("terseSystem", { value: "Answer in one word." });
      const up = await engine.stack.up(listen);
      expect(up.summary.resourceChanges).toMatchObject({ update: 1 });
      expect((await ollama.post("/api/show", { model: "terse" })).body.system).toBe("Answer in one word.");
      await everyModelAnswers();
    });

    it("5. a model changed out of band is said at refresh, field by field, and the next up restores it", async () => {
      // Someone makes terse again by hand, with another system prompt and temperature.
      const made = await ollama.post("/api/create", {
        model: "terse",
        from: "tiny",
        system: "Ramble on.",
        parameters: { stop: ["User:"], temperature: 0.9 },
        stream: false,
      });
      expect(made.status).toBe(200);
      const lines: string[] = [];
      await engine.stack.refresh({ onOutput: (l: string) => lines.push(l), onError: (l: string) => lines.push(l) });
      const said = lines.join("");
      expect(said).toMatch(/terse:latest was replaced out of band .*the system prompt "Answer in one word\." → "Ramble on\."/);
      expect(said).toMatch(/parameter temperature "0\.1" → "0\.9"/);
      const up = await engine.stack.up(listen);
      expect(up.summary.resourceChanges).toMatchObject({ update: 1 });
      expect((await ollama.post("/api/show", { model: "terse" })).body.system).toBe("Answer in one word.");
    });

    it("6. a model removed out of band is revealed by refresh and made again by up", async () => {
      await fetch(`${ollama.url}/api/delete`, { method: "DELETE", body: JSON.stringify({ model: "bakery/chat" }) });
      const refresh = await engine.stack.refresh(listen);
      expect(refresh.summary.resourceChanges).toMatchObject({ delete: 1 });
      const up = await engine.stack.up(listen);
      expect(up.summary.resourceChanges).toMatchObject({ create: 1 });
      expect(await ollama.models()).toEqual(MODELS);
      await everyModelAnswers();
    });

    it("7. destroy leaves no model", async () => {
      await engine.stack.destroy();
      expect(await ollama.models()).toEqual([]);
    });
  });
});

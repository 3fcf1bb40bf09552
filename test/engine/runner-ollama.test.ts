/**
 * RunnerModel through the real Pulumi engine against the real Ollama server (built from its Go module by
 * scripts/install-ollama.sh): a model from a local GGUF file, one from a definition file with stop, TEMPLATE,
 * MESSAGE and LICENSE lines, one inline; each made model must answer a chat. Then no change on the next up, an
 * update in place, a model removed out of band revealed by refresh and made again, and destroy leaving nothing.
 */
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { engineStack, ROOT } from "../../scripts/engine";
import { withoutEnvFallback, type EngineStack } from "../helpers/engine";
import { OllamaServer, TINY_GGUF } from "../helpers/ollama";

const ollama = new OllamaServer();
let engine: EngineStack;
const MODELS = ["bakery/chat:latest", "terse:latest", "tiny:latest"];

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
  engine = await engineStack(path.join(ROOT, "test/programs/runner-ollama"), { "runner-ollama:gguf": { value: TINY_GGUF } }, "ollama", { OLLAMA_HOST: ollama.url.replace("http://", "") });
}, 900_000);

afterAll(async () => {
  await engine?.dispose();
  await ollama.stop();
});

describe("models on the real Ollama server, through the engine", { timeout: 300_000, sequential: true }, () => {
  it("1. preview makes nothing", async () => {
    const preview = await engine.stack.preview();
    expect(preview.changeSummary.create).toBe(4);
    expect(await ollama.models()).toEqual([]);
  });

  it("2. up makes the three models, and each answers a chat", async () => {
    const up = await engine.stack.up();
    expect(up.summary.resourceChanges).toMatchObject({ create: 4 });
    expect(await ollama.models()).toEqual(MODELS);
    expect(up.outputs.chatStop.value).toEqual(["User:", "Assistant:"]);
    const shown = (await ollama.post("/api/show", { model: "bakery/chat" })).body;
    expect(shown.parameters).toMatch(/stop\s+"User:"\nstop\s+"Assistant:"/);
    expect(shown.messages).toHaveLength(2);
    expect((await ollama.post("/api/show", { model: "terse" })).body.parameters).toMatch(/stop\s+"User:"/);
    await everyModelAnswers();
  });

  it("3. the next up changes nothing; a refresh finds no drift", async () => {
    await engine.stack.up({ expectNoChanges: true });
    const refresh = await engine.stack.refresh();
    expect(refresh.summary.resourceChanges).toEqual({ same: 4 });
  });

  it("4. a changed system prompt updates the model in place; it answers", async () => {
    await engine.stack.setConfig("terseSystem", { value: "Answer in one word." });
    const up = await engine.stack.up();
    expect(up.summary.resourceChanges).toMatchObject({ update: 1 });
    expect((await ollama.post("/api/show", { model: "terse" })).body.system).toBe("Answer in one word.");
    await everyModelAnswers();
  });

  it("5. a model removed out of band is revealed by refresh and made again by up", async () => {
    await fetch(`${ollama.url}/api/delete`, { method: "DELETE", body: JSON.stringify({ model: "bakery/chat" }) });
    const refresh = await engine.stack.refresh();
    expect(refresh.summary.resourceChanges).toMatchObject({ delete: 1 });
    const up = await engine.stack.up();
    expect(up.summary.resourceChanges).toMatchObject({ create: 1 });
    expect(await ollama.models()).toEqual(MODELS);
    await everyModelAnswers();
  });

  it("6. destroy leaves no model", async () => {
    await engine.stack.destroy();
    expect(await ollama.models()).toEqual([]);
  });
});

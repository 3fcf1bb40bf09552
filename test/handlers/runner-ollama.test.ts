/**
 * RunnerModel against the real Ollama server (built from its Go module by scripts/install-ollama.sh), through the
 * provider's own handlers: a model from a local GGUF file (uploaded as a blob), from a base with `stop`, TEMPLATE,
 * MESSAGE, LICENSE and REQUIRES, in a definition file as `ollama show --modelfile` writes it; then a chat with every
 * model made — a model that cannot answer is a failure.
 */
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "../../provider/door";
import { gateLacksOllama, OllamaServer, TINY_GGUF } from "../helpers/ollama";

const ollama = new OllamaServer();
/** Left out of the gate only where the server is not built yet (helpers/ollama.ts); never under CI. */
const skipped = gateLacksOllama();
const made: string[] = [];
const dir = mkdtempSync(path.join(tmpdir(), "ollama-models-"));

beforeAll(async () => {
  if (skipped) return;
  await ollama.start();
  process.env.RUNNER_HOST = ollama.url;
}, 900_000);
afterAll(() => ollama.stop());

async function make(args: Record<string, unknown>) {
  const { inputs, failures } = await call("runner:RunnerModel", "check", [{}, args]);
  expect(failures).toEqual([]);
  const created = await call("runner:RunnerModel", "create", [inputs]);
  made.push(created.id);
  return { inputs, ...created };
}

async function answers(model: string) {
  const res = await ollama.chat(model);
  expect(res, `${model} should answer a chat`).toMatchObject({ status: 200, body: { done: true, message: { role: "assistant" } } });
}

describe.skipIf(skipped)("RunnerModel on the real Ollama server", () => {
  it("makes a model from a local GGUF file, uploaded as a blob, and it answers", async () => {
    const m = await make({ name: "tiny", from: TINY_GGUF });
    expect(m.id).toBe("tiny:latest");
    expect(m.outs).toMatchObject({ family: "llama", digest: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(await ollama.models()).toContain("tiny:latest");
    await answers("tiny");
  });

  it("makes a model from a definition file with stop, TEMPLATE, MESSAGE, LICENSE and REQUIRES, as the runner stores them", async () => {
    const file = path.join(dir, "chat.model");
    writeFileSync(
      file,
      [
        "FROM tiny",
        'SYSTEM """You answer briefly.',
        'Always."""',
        'TEMPLATE "{{ if .System }}{{ .System }} {{ end }}{{ .Prompt }}"',
        'PARAMETER stop "User:"',
        'PARAMETER stop "Assistant:"',
        "PARAMETER temperature 0.3",
        "PARAMETER num_ctx 512",
        "MESSAGE user Is the oven hot?",
        "MESSAGE assistant Yes.",
        "LICENSE MIT",
        "REQUIRES 0.14.0",
        "",
      ].join("\n"),
    );
    const m = await make({ name: "chatty", definitionFile: file });
    expect(m.outs.parameters).toEqual({ stop: ["User:", "Assistant:"], temperature: 0.3, num_ctx: 512 });
    const shown = (await ollama.post("/api/show", { model: "chatty" })).body;
    expect(shown.parameters).toMatch(/stop\s+"User:"\nstop\s+"Assistant:"/);
    expect(shown.template).toBe("{{ if .System }}{{ .System }} {{ end }}{{ .Prompt }}");
    expect(shown.system).toBe("You answer briefly.\nAlways.");
    expect(shown.messages).toEqual([
      { role: "user", content: "Is the oven hot?" },
      { role: "assistant", content: "Yes." },
    ]);
    expect(shown.license).toBe("MIT");
    await answers("chatty");
  });

  it("an inline stop given as one text is sent as a list, and the model answers", async () => {
    await make({ name: "inline", from: "tiny", parameters: { stop: "User:", num_thread: 2 }, messages: [{ role: "user", content: "Hi" }] });
    await answers("inline");
  });

  it("a definition file whose FROM is a GGUF file beside it, relative to the file", async () => {
    const sub = mkdtempSync(path.join(dir, "weights-"));
    copyFileSync(TINY_GGUF, path.join(sub, "model.gguf"));
    writeFileSync(path.join(sub, "Modelfile"), "FROM ./model.gguf\nPARAMETER seed 7\n");
    await make({ name: "myteam/local", definitionFile: path.join(sub, "Modelfile") });
    await answers("myteam/local");
  });

  it("the definition `ollama show --modelfile` prints passes the check and makes the same model", async () => {
    const shown = (await ollama.post("/api/show", { model: "chatty" })).body;
    const file = path.join(dir, "shown.model");
    writeFileSync(file, shown.modelfile);
    const m = await make({ name: "chatty-copy", definitionFile: file });
    expect(m.outs.parameters.stop).toEqual(["User:", "Assistant:"]);
    await answers("chatty-copy");
  });

  it("pulumi-ops import --runner writes a custom model as what it is made of; after the model is deleted, those inputs make it again", async () => {
    const out = mkdtempSync(path.join(dir, "import-"));
    const { importCommand } = await import("../../provider/cli/import");
    expect(await importCommand(["--runner", "--out", out])).toBe(0);
    const program = readFileSync(path.join(out, "index.ts"), "utf8");
    const written = [...program.matchAll(/new ops\.runner\.RunnerModel\("[^"]+", (\{[\s\S]*?\n\})(?:, \{ protect: true \})?\);/g)].map(
      (m) => JSON.parse(m[1]),
    );
    const chatty = written.find((w) => w.name === "chatty:latest");
    expect(chatty).toMatchObject({
      name: "chatty:latest",
      from: "tiny:latest",
      system: "You answer briefly.\nAlways.",
      template: "{{ if .System }}{{ .System }} {{ end }}{{ .Prompt }}",
      parameters: { stop: ["User:", "Assistant:"], temperature: 0.3, num_ctx: 512 },
      messages: [
        { role: "user", content: "Is the oven hot?" },
        { role: "assistant", content: "Yes." },
      ],
      license: ["MIT"],
      requires: "0.14.0",
      adopt: true,
    });
    await fetch(`${ollama.url}/api/delete`, { method: "DELETE", body: JSON.stringify({ model: "chatty" }) });
    const { adopt: _a, ...inputs } = chatty;
    await make(inputs);
    const shown = (await ollama.post("/api/show", { model: "chatty" })).body;
    expect(shown.system).toBe("You answer briefly.\nAlways.");
    expect(shown.parameters).toMatch(/stop\s+"User:"\nstop\s+"Assistant:"/);
    await answers("chatty");
  });

  it("0.30 and later: a definition file with DRAFT and draft_num_predict is taken as the runner reads it, and `quantize` makes a Q8_0 model that answers", async () => {
    const sub = mkdtempSync(path.join(dir, "draft-"));
    copyFileSync(TINY_GGUF, path.join(sub, "model.gguf"));
    copyFileSync(TINY_GGUF, path.join(sub, "draft.gguf"));
    // draft_num_predict 0: the tiny model is a plain llama, which the runner would start as an MTP draft and fail to
    // load (refused at check and up otherwise, issue 57); with 0 it makes the model and never loads the draft.
    writeFileSync(path.join(sub, "Modelfile"), "FROM ./model.gguf\nDRAFT ./draft.gguf\nPARAMETER draft_num_predict 0\n");
    const m = await make({ name: "drafted", definitionFile: path.join(sub, "Modelfile") });
    expect(m.outs.parameters).toEqual({ draft_num_predict: 0 });
    const shown = (await ollama.post("/api/show", { model: "drafted" })).body;
    expect(shown.modelfile).toMatch(/^DRAFT \S+sha256-[0-9a-f]{64}$/m); // kept as the model's draft layer
    expect(shown.parameters).toMatch(/draft_num_predict\s+0/);
    await answers("drafted"); // speculation off: the draft is never loaded, and the model answers
    const q = await make({ name: "compact", from: TINY_GGUF, quantize: "q8_0" });
    expect(q.outs.quantizationLevel).toBe("Q8_0");
    await answers("compact");
    await call("runner:RunnerModel", "delete", ["drafted:latest", {}]);
    made.splice(made.indexOf("drafted:latest"), 1);
  });

  it("updates in place, finds a model removed out of band, and removes every model (deletes one at a time, confirmed by the list)", async () => {
    const before = (await call("runner:RunnerModel", "read", ["inline:latest", { name: "inline:latest", digest: undefined }])).props;
    const changed = (
      await call("runner:RunnerModel", "check", [
        {},
        { name: "inline", from: "tiny", system: "Be terse.", parameters: { stop: ["User:"] } },
      ])
    ).inputs;
    const { outs } = await call("runner:RunnerModel", "update", ["inline:latest", before, changed]);
    expect(outs.digest).not.toBe(before.digest);
    expect((await ollama.post("/api/show", { model: "inline" })).body.system).toBe("Be terse.");
    await answers("inline");

    await fetch(`${ollama.url}/api/delete`, { method: "DELETE", body: JSON.stringify({ model: "chatty-copy" }) });
    expect(await call("runner:RunnerModel", "read", ["chatty-copy:latest", { name: "chatty-copy:latest", digest: "x" }])).toEqual({});

    // Every model this file made answered a chat above; now all go at once, as a destroy sends them.
    await Promise.all(made.filter((id) => id !== "chatty-copy:latest").map((id) => call("runner:RunnerModel", "delete", [id, {}])));
    expect(await ollama.models()).toEqual([]);
  });
});

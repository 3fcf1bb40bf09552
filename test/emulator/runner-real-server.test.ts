/**
 * The runner emulator held to the real Ollama server (scripts/install-ollama.sh): the requests the provider sends —
 * version, blobs, create from files and from a base, show, list, chat, delete, and their refusals — answered by
 * both, compared by status, error text and the shape and values of their bodies.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RunnerEmulator } from "../../emulators";
import { gateLacksOllama, OllamaServer, TINY_GGUF } from "../helpers/ollama";

const real = new OllamaServer();
/** Left out of the gate only where the server is not built yet (helpers/ollama.ts); never under CI. */
const skipped = gateLacksOllama();
let emu: RunnerEmulator;
const gguf = () => readFileSync(TINY_GGUF);
const digest = () => `sha256:${createHash("sha256").update(gguf()).digest("hex")}`;
const ZERO = `sha256:${"0".repeat(64)}`;

beforeAll(async () => {
  if (skipped) return;
  await real.start();
  emu = await new RunnerEmulator().start();
}, 900_000);
afterAll(async () => {
  await real.stop();
  await emu?.stop();
});

/** The same request to both; the answers' statuses and bodies (the last line of a stream), paths of the store blanked. */
async function both(method: string, route: string, body?: unknown) {
  const ask = async (base: string) => {
    const res = await fetch(`${base}${route}`, {
      method,
      body: body === undefined ? undefined : Buffer.isBuffer(body) ? body : JSON.stringify(body),
    });
    const text = (await res.text()).replace(/\/\S*\/blobs\//g, "<store>/blobs/");
    const last = text.trim().split("\n").at(-1) ?? "";
    return { status: res.status, body: last.startsWith("{") ? JSON.parse(last) : last };
  };
  return { real: await ask(real.url), emulated: await ask(emu.url) };
}

const keysOf = (o: Record<string, unknown>) => Object.keys(o).sort();

describe.skipIf(skipped)("the runner emulator answers as the real Ollama server", () => {
  it("version, blob upload and its digest check", async () => {
    expect((await both("GET", "/api/version")).emulated).toEqual((await both("GET", "/api/version")).real);
    for (const [method, route, body] of [
      ["HEAD", `/api/blobs/${digest()}`, undefined],
      ["POST", `/api/blobs/${ZERO}`, Buffer.from("hello")],
      ["POST", `/api/blobs/${digest()}`, gguf()],
      ["HEAD", `/api/blobs/${digest()}`, undefined],
    ] as const) {
      const { real: r, emulated: e } = await both(method, route, body);
      expect(e, `${method} ${route}`).toEqual(r);
    }
  });

  it("create: from files, from a base with every field, and the refusals", async () => {
    for (const request of [
      { model: "tiny", files: { "tiny.gguf": digest() }, stream: false },
      { model: "missing", files: { "a.gguf": ZERO }, stream: false },
      { model: "nothing", stream: false },
      { model: "broken-template", from: "tiny", template: "{{ .Prompt", stream: false },
      {
        model: "chat",
        from: "tiny",
        system: "S",
        template: "{{ .System }} {{ .Prompt }}",
        license: ["MIT", "Apache"],
        messages: [{ role: "user", content: "x" }],
        requires: "0.14.0",
        parameters: { stop: ["a", "b"], temperature: 0.3 },
      },
      { model: "text-stop", from: "tiny", parameters: { stop: "User:" }, stream: false },
    ]) {
      const { real: r, emulated: e } = await both("POST", "/api/create", request);
      expect(e, request.model).toEqual(r);
    }
  });

  it("show, list, chat and delete, and their answers for a model that is not there", async () => {
    const { real: r, emulated: e } = await both("POST", "/api/show", { model: "chat" });
    expect(keysOf(e.body)).toEqual(keysOf(r.body).filter((k) => k !== "tensors"));
    for (const k of ["system", "template", "license", "messages", "requires", "capabilities"]) expect(e.body[k], k).toEqual(r.body[k]);
    // Parameters in Go's map order (random): the same lines, `%-30s %#v`.
    expect(e.body.parameters.split("\n").sort()).toEqual(r.body.parameters.split("\n").sort());
    expect(e.body.details.parent_model).toBe(r.body.details.parent_model);
    expect(keysOf(e.body.details)).toEqual(keysOf(r.body.details));

    const tags = await both("GET", "/api/tags");
    expect(tags.emulated.body.models.map((m: { name: string }) => m.name).sort()).toEqual(
      tags.real.body.models.map((m: { name: string }) => m.name).sort(),
    );
    expect(keysOf(tags.emulated.body.models[0])).toEqual(keysOf(tags.real.body.models[0]));

    for (const [method, route, body] of [
      ["POST", "/api/chat", { model: "text-stop", messages: [{ role: "user", content: "hi" }], stream: false }],
      ["POST", "/api/show", { model: "nope" }],
      ["POST", "/api/chat", { model: "nope", messages: [], stream: false }],
      ["DELETE", "/api/delete", { model: "nope" }],
      ["DELETE", "/api/delete", { model: "chat" }],
      ["POST", "/api/show", { model: "chat" }],
    ] as const) {
      const { real: r2, emulated: e2 } = await both(method, route, body);
      expect(e2.status, `${method} ${route} ${JSON.stringify(body)}`).toBe(r2.status);
      if (r2.status >= 400) expect(e2.body).toEqual(r2.body);
    }
    const chat = await both("POST", "/api/chat", {
      model: "tiny",
      messages: [{ role: "user", content: "hi" }],
      stream: false,
      options: { num_predict: 4 },
    });
    expect(keysOf(chat.emulated.body)).toEqual(
      expect.arrayContaining(["model", "created_at", "message", "done", "done_reason", "prompt_eval_count", "eval_count"]),
    );
    expect(keysOf(chat.real.body)).toEqual(expect.arrayContaining(keysOf(chat.emulated.body)));
  });
});

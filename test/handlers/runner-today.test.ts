/**
 * The model runner as Ollama is: `stop` a list (repeated lines add up, quotes taken off) and the runner's own
 * parameters, OLLAMA_HOST read as its client reads it, names compared as the runner compares them, a removal
 * confirmed by the model list, a pull that ends without `success` failed.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import * as http from "node:http";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { runnerUrl } from "../../provider/urls";
import { call } from "../../provider/door";
import { forgetPreviewChecks, previewCheck } from "../../provider/preflight";
import { RunnerClient } from "../../provider/runner/client";
import { canonicalModel } from "../../provider/runner/model-name";
import { HttpClient } from "../../provider/http/client";
import { useAi } from "../helpers/ai";

const { runner } = useAi();

async function make(type: string, args: Record<string, unknown>) {
  const { inputs, failures } = await call(type, "check", [{}, args]);
  expect(failures).toEqual([]);
  return { inputs, ...(await call(type, "create", [inputs])) };
}

async function chat(model: string) {
  const res = await fetch(`${runner.url}/api/chat`, {
    method: "POST",
    body: JSON.stringify({ model, messages: [{ role: "user", content: "Hello" }], stream: false }),
  });
  return { status: res.status, body: (await res.json()) as any };
}

describe("definition files as the runner reads them", () => {
  it("repeated stop lines add up to a list, quotes taken off; the model answers", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "model-"));
    const file = path.join(dir, "chat.model");
    writeFileSync(
      file,
      'FROM qwen2.5:0.5b\nSYSTEM You answer briefly.\nPARAMETER stop "User:"\nPARAMETER stop "Assistant:"\nPARAMETER temperature 0.3\nPARAMETER use_mmap false\nPARAMETER presence_penalty 0.5\n',
    );
    const m = await make("runner:RunnerModel", { name: "chatty", definitionFile: file });
    expect(runner.models.get("chatty:latest")!.parameters).toEqual({
      stop: ["User:", "Assistant:"],
      temperature: 0.3,
      use_mmap: false,
      presence_penalty: 0.5,
    });
    expect(m.outs.parameters.stop).toEqual(["User:", "Assistant:"]);
    expect(await chat("chatty")).toMatchObject({ status: 200 });
  });

  it("an inline stop given as one text is sent as a list; the runner refuses every chat with a model whose stop is text", async () => {
    await make("runner:RunnerModel", { name: "inline", from: "qwen2.5:0.5b", parameters: { stop: "User:", num_thread: 2 } });
    expect(runner.models.get("inline:latest")!.parameters).toEqual({ stop: ["User:"], num_thread: 2 });
    expect((await chat("inline")).status).toBe(200);
    // What a client that sends one text makes (pulumi-ops before 0.5.0): the runner stores it, then every chat fails.
    await fetch(`${runner.url}/api/create`, {
      method: "POST",
      body: JSON.stringify({ model: "broken", from: "qwen2.5:0.5b", parameters: { stop: "User:" }, stream: false }),
    });
    expect(await chat("broken")).toMatchObject({ status: 500, body: { error: 'option "stop" must be of type array' } });
  });

  it("sends a parameter its list lacks, as the runner stores any (a newer runner may know it); draft_num_predict is typed", async () => {
    const { failures, inputs } = await call("runner:RunnerModel", "check", [
      {},
      { name: "x", from: "qwen2.5:0.5b", parameters: { tfs_z: 1, draft_num_predict: 4 } },
    ]);
    expect(failures).toEqual([]);
    await call("runner:RunnerModel", "create", [inputs]);
    expect(runner.models.get("x:latest")!.parameters).toEqual({ tfs_z: 1, draft_num_predict: 4 });
    const typed = await call("runner:RunnerModel", "check", [
      {},
      { name: "y", from: "qwen2.5:0.5b", parameters: { draft_num_predict: "four" } },
    ]);
    expect(typed.failures[0]).toMatchObject({
      property: "parameters.draft_num_predict",
      reason: expect.stringMatching(/needs an integer/),
    });
  });
});

describe("names and hosts as the runner's own client reads them", () => {
  it.each([
    ["library/Qwen2.5:0.5B", "qwen2.5:0.5b"],
    ["registry.ollama.ai/library/tinyllama", "tinyllama:latest"],
    ["myteam/baker", "myteam/baker:latest"],
    ["localhost:5000/ns/m", "localhost:5000/ns/m:latest"],
  ])("%s is %s", (name, canonical) => expect(canonicalModel(name)).toBe(canonical));

  it("a model pulled as library/x, in another case, is found and kept", async () => {
    const m = await make("runner:RunnerModel", { name: "library/TinyLlama" });
    expect(m.id).toBe("tinyllama:latest");
    expect((await call("runner:RunnerModel", "read", [m.id, m.outs])).props.name).toBe("tinyllama:latest");
  });

  it.each([
    ["::1", "http://[::1]:11434"],
    ["[::1]:9999", "http://[::1]:9999"],
    ["0.0.0.0", "http://127.0.0.1:11434"],
    ["[::]:11500", "http://[::1]:11500"],
    ["https://gpu.example/ollama/", "https://gpu.example/ollama"],
    ["http://gpu.example:8080/proxy/ollama", "http://gpu.example:8080/proxy/ollama"],
    ["ollama.com", "https://ollama.com"],
    ["gpu-box:notaport", "http://gpu-box:11434"],
  ])("OLLAMA_HOST=%s reaches %s", (host, url) => expect(runnerUrl(host)).toBe(url));

  it("OLLAMA_HOST is read when ops:runnerHost and RUNNER_HOST are unset", async () => {
    const host = process.env.RUNNER_HOST!;
    delete process.env.RUNNER_HOST;
    process.env.OLLAMA_HOST = host;
    try {
      await make("runner:RunnerModel", { name: "tinyllama" });
      expect(runner.models.has("tinyllama:latest")).toBe(true);
    } finally {
      delete process.env.OLLAMA_HOST;
      process.env.RUNNER_HOST = host;
    }
  });
});

describe("removals and pulls that are sure", () => {
  it("a delete answered 404 while the model stays is not taken as gone: it is deleted again, then confirmed", async () => {
    const m = await make("runner:RunnerModel", { name: "tinyllama" });
    runner.spuriousDelete404 = 1;
    await call("runner:RunnerModel", "delete", [m.id, m.outs]);
    expect(runner.models.has("tinyllama:latest")).toBe(false);
    expect(runner.count("DELETE", /\/api\/delete$/)).toBe(2);
  });

  it("a model still listed after two deletes fails the destroy instead of being reported deleted", async () => {
    const m = await make("runner:RunnerModel", { name: "tinyllama" });
    runner.spuriousDelete404 = 5;
    await expect(call("runner:RunnerModel", "delete", [m.id, m.outs])).rejects.toThrow(/still listed after its delete/);
    expect(runner.models.has("tinyllama:latest")).toBe(true);
  });

  it("a pull whose stream ends without its final success fails", async () => {
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/x-ndjson" });
      res.end('{"status":"pulling manifest"}\n{"status":"pulling abc","total":10,"completed":5}\n');
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    try {
      const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
      const client = new RunnerClient(
        new HttpClient({ service: "runner", baseUrl: url, headers: {}, timeoutMs: 5000, maxRetries: 0 }),
        url,
        5000,
      );
      await expect(client.stream("/api/pull", { model: "x" }, "pull x")).rejects.toThrow(/pull x ended without its final "success"/);
    } finally {
      server.close();
    }
  });
});

describe("generation through /api/chat with a context sized to the prompt", () => {
  it("asks for a context that holds the prompt; a prompt the runner still cut fails instead of generating from part of it", async () => {
    await make("runner:RunnerModel", { name: "qwen2.5:0.5b" });
    const client = RunnerClient.fromConfig();
    const long = "Bake the loaves at 230 degrees. ".repeat(1000); // 32,000 characters: cut at the default 4,096 tokens
    await client.chat("qwen2.5:0.5b", [{ role: "user", content: long }]);
    const [sent] = runner.log.filter((e) => e.path === "/api/chat");
    expect(sent).toBeDefined();
    expect(sent.query).toBe(""); // (the context is in the body: the emulator's answer shows it held the prompt)
    runner.maxContext = 4096; // a runner short of memory gives less than asked
    const longer = long.repeat(4); // 128,000 characters, at least 16,000 tokens: 4,096 evaluated is a cut prompt
    await expect(client.chat("qwen2.5:0.5b", [{ role: "user", content: longer }])).rejects.toThrow(
      /did not fit: the runner evaluated 4096 tokens of it, with a context of \d+ asked for/,
    );
  });
});

describe("takeovers that never steal", () => {
  it("a model the runner already has is taken over only with adopt: true (or the recovery switch), at preview and at up", async () => {
    await fetch(`${runner.url}/api/pull`, { method: "POST", body: JSON.stringify({ model: "tinyllama", stream: false }) });
    forgetPreviewChecks();
    const { inputs } = await call("runner:RunnerModel", "check", [{}, { name: "TinyLlama" }]);
    await expect(previewCheck("runner:RunnerModel", undefined, inputs, {})).rejects.toThrow(
      /already has a model tinyllama:latest \(pulled by hand or made by another stack\).*adopt: true/,
    );
    await expect(call("runner:RunnerModel", "create", [inputs])).rejects.toThrow(/adopt: true/);
    const adopted = (await call("runner:RunnerModel", "check", [{}, { name: "TinyLlama", adopt: true }])).inputs;
    forgetPreviewChecks();
    await previewCheck("runner:RunnerModel", undefined, adopted, {});
    const taken = await call("runner:RunnerModel", "create", [adopted]);
    expect(taken.id).toBe("tinyllama:latest");
    // The runner keeps no owner: an adopted model may be another stack's, so destroy leaves it there.
    expect(taken.outs.adopted).toBe(true);
    await call("runner:RunnerModel", "delete", [taken.id, taken.outs]);
    expect(((await (await fetch(`${runner.url}/api/tags`)).json()) as any).models.map((m: { name: string }) => m.name)).toContain(
      "tinyllama:latest",
    );
    // Taken from a stack by name: no label to move, so refused until that stack lets go, at preview and at up.
    process.env.PULUMI_OPS_ADOPT_FROM_STACK = "site/prod";
    try {
      forgetPreviewChecks();
      await expect(previewCheck("runner:RunnerModel", undefined, adopted, {})).rejects.toThrow(
        /ops:adoptFromStack says it is stack site\/prod's.*pulumi state delete <its RunnerModel's URN> --stack prod/,
      );
      await expect(call("runner:RunnerModel", "create", [adopted])).rejects.toThrow(/ops:adoptFromStack says it is stack site\/prod's/);
    } finally {
      delete process.env.PULUMI_OPS_ADOPT_FROM_STACK;
    }
    // A recovery run after an interrupted up takes every such model over.
    process.env.RUNNER_ADOPT_EXISTING = "true";
    try {
      const recovered = await call("runner:RunnerModel", "create", [inputs]);
      expect(recovered.id).toBe("tinyllama:latest");
      expect(recovered.outs.adopted).toBeUndefined(); // a recovery run's model is its own: destroy removes it
    } finally {
      delete process.env.RUNNER_ADOPT_EXISTING;
    }
  });

  it("a base this run pulled for another model may be declared too; a runner older than a field's release fails the preview", async () => {
    const baker = await make("runner:RunnerModel", { name: "baker", from: "qwen2.5:0.5b", system: "Bake." });
    expect(baker.id).toBe("baker:latest");
    expect((await make("runner:RunnerModel", { name: "qwen2.5:0.5b" })).id).toBe("qwen2.5:0.5b");
    forgetPreviewChecks();
    const old = (await call("runner:RunnerModel", "check", [{}, { name: "needs-new", from: "qwen2.5:0.5b", requires: "0.40.0" }])).inputs;
    await expect(previewCheck("runner:RunnerModel", undefined, old, {})).rejects.toThrow(
      /is version 0\.32\.15; the model's own REQUIRES 0\.40\.0 needs 0\.40\.0 or later.*Upgrade the runner/,
    );
    const fine = (
      await call("runner:RunnerModel", "check", [{}, { name: "fine", from: "qwen2.5:0.5b", renderer: "qwen3", requires: "0.14.0" }])
    ).inputs;
    await previewCheck("runner:RunnerModel", undefined, fine, {});
  });
});

describe("definition files and creates as Ollama 0.32 takes them (issue 48)", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "runner-032-"));
  // The emulator reads a blob's bytes only by digest: any bytes stand for a GGUF file here.
  writeFileSync(path.join(dir, "model.gguf"), "GGUF main weights");
  writeFileSync(path.join(dir, "draft.gguf"), "GGUF draft weights");

  it("DRAFT and draft_num_predict in a definition file: the draft uploaded and sent as draft_files, quantize sent", async () => {
    const file = path.join(dir, "Modelfile");
    writeFileSync(file, "FROM ./model.gguf\nDRAFT ./draft.gguf\nPARAMETER draft_num_predict 4\n");
    const m = await make("runner:RunnerModel", { name: "speedy", definitionFile: file, quantize: "q4_K_M", draftQuantize: "q8_0" });
    expect(m.inputs).toMatchObject({ draft: path.join(dir, "draft.gguf"), parameters: { draft_num_predict: 4 } });
    const made = runner.models.get("speedy:latest")!;
    expect(made.parameters).toEqual({ draft_num_predict: 4 });
    expect(made.details.quantization_level).toBe("Q4_K_M");
    expect(runner.count("POST", /^\/api\/blobs\//)).toBe(2); // the weights and the draft
  });

  it("a draft on a runner older than 0.30 (which would drop draft_files silently) fails the preview and the up, naming the release; an old runner is warned of", async () => {
    const { RunnerEmulator } = await import("../../emulators");
    const old = await new RunnerEmulator({ version: "0.29.2" }).start();
    const saved = process.env.RUNNER_HOST;
    process.env.RUNNER_HOST = old.url;
    try {
      const file = path.join(dir, "Modelfile-old");
      writeFileSync(file, "FROM ./model.gguf\nDRAFT ./draft.gguf\n");
      const { inputs } = await call("runner:RunnerModel", "check", [{}, { name: "speedy", definitionFile: file }]);
      forgetPreviewChecks();
      await expect(previewCheck("runner:RunnerModel", undefined, inputs)).rejects.toThrow(
        /the runner at .* is version 0\.29\.2; a draft model .* needs 0\.30\.0 or later/,
      );
      forgetPreviewChecks();
      await expect(call("runner:RunnerModel", "create", [inputs])).rejects.toThrow(
        /a draft model .* needs 0\.30\.0 or later.*Upgrade the runner \(Ollama\) to 0\.30\.0/,
      );
      expect(old.count("POST", /^\/api\/(create|blobs)/)).toBe(0); // nothing sent
      // Without a draft the same runner makes the model.
      await make("runner:RunnerModel", { name: "plain", from: path.join(dir, "model.gguf") });
      expect(old.models.has("plain:latest")).toBe(true);
    } finally {
      process.env.RUNNER_HOST = saved;
      await old.stop();
    }
  });

  it("a plain model as DRAFT, which 0.30 and later create and then cannot load (an external draft runs as MTP), fails the preview and the up naming why; a draft with MTP layers, or draft_num_predict 0, goes (issue 57)", async () => {
    const plain = path.join(dir, "plain-draft.gguf");
    writeFileSync(plain, gguf({ "general.architecture": "llama", "llama.block_count": 2 }, ["token_embd.weight", "blk.0.attn_q.weight"]));
    const withMtp = path.join(dir, "mtp-draft.gguf");
    writeFileSync(withMtp, gguf({ "general.architecture": "glm4moe", "glm4moe.nextn_predict_layers": 1 }, ["token_embd.weight"]));
    const qwen = path.join(dir, "qwen-draft.gguf");
    writeFileSync(qwen, gguf({ "general.architecture": "qwen35" }, ["token_embd.weight", "mtp.0.eh_proj.weight"]));
    const file = path.join(dir, "Modelfile-plain-draft");
    writeFileSync(file, "FROM ./model.gguf\nDRAFT ./plain-draft.gguf\n");
    const { inputs } = await call("runner:RunnerModel", "check", [{}, { name: "speedy-plain", definitionFile: file }]);
    forgetPreviewChecks();
    runner.log.splice(0);
    await expect(previewCheck("runner:RunnerModel", undefined, inputs)).rejects.toThrow(
      /draft plain-draft\.gguf is a plain llama model without MTP layers: the runner at .* \(Ollama 0\.32\.15\) runs an external draft as an MTP draft.*context type MTP requested/,
    );
    await expect(call("runner:RunnerModel", "create", [inputs])).rejects.toThrow(
      /without MTP layers.*set parameters\.draft_num_predict to 0/,
    );
    expect(runner.count("POST", /^\/api\/(create|blobs)/)).toBe(0);
    for (const [name, draft] of [
      ["speedy-mtp", withMtp],
      ["speedy-qwen", qwen],
    ]) {
      forgetPreviewChecks();
      const ok = (await call("runner:RunnerModel", "check", [{}, { name, from: path.join(dir, "model.gguf"), draft }])).inputs;
      await previewCheck("runner:RunnerModel", undefined, ok);
    }
    forgetPreviewChecks();
    const off = (
      await call("runner:RunnerModel", "check", [
        {},
        { name: "speedy-off", from: path.join(dir, "model.gguf"), draft: plain, parameters: { draft_num_predict: 0 } },
      ])
    ).inputs;
    await previewCheck("runner:RunnerModel", undefined, off);
  });

  it("a parameter one slip from a known name (temprature) is refused at check naming the nearest; a name far from every known one is sent (issue 57)", async () => {
    const file = path.join(dir, "Modelfile-typo");
    writeFileSync(file, "FROM ./model.gguf\nPARAMETER temprature 0.7\n");
    const { failures } = await call("runner:RunnerModel", "check", [{}, { name: "typo", definitionFile: file }]);
    expect(failures.map((f: { reason: string }) => f.reason).join("\n")).toMatch(
      /line 2: parameter "temprature" is not one the runner knows: did you mean temperature\?/,
    );
    const inline = await call("runner:RunnerModel", "check", [{}, { name: "typo", from: "qwen2.5:0.5b", parameters: { num_cxt: 4096 } }]);
    expect(inline.failures).toEqual([{ property: "parameters.num_cxt", reason: expect.stringMatching(/did you mean num_ctx\?/) }]);
    expect(
      (await call("runner:RunnerModel", "check", [{}, { name: "newer", from: "qwen2.5:0.5b", parameters: { tfs_z: 1, mirostat: 1 } }]))
        .failures,
    ).toEqual([]);
  });

  it("a definition file with several faults reports them all in one check, each by its line", async () => {
    const file = path.join(dir, "Many-faults");
    writeFileSync(file, "FROM ./model.gguf\nDRAFT ./none.gguf\nADAPTER ./gone.gguf\nREQUIRES soon\nPARAMETER temperature hot\n");
    const { failures } = await call("runner:RunnerModel", "check", [{}, { name: "x", definitionFile: file }]);
    const said = failures.map((f: { reason: string }) => f.reason).join("\n");
    for (const line of ["line 2: DRAFT", "line 3: ADAPTER", "line 4: REQUIRES", "line 5"]) expect(said).toContain(line);
  });

  it("refuses at check what the runner's parser refuses: a DRAFT that is not a file here, or the FROM file itself; draftQuantize without a draft", async () => {
    const check = async (text: string) => {
      const file = path.join(dir, `M${Math.random().toString(36).slice(2)}`);
      writeFileSync(file, text);
      return (await call("runner:RunnerModel", "check", [{}, { name: "x", definitionFile: file }])).failures;
    };
    expect((await check("FROM ./model.gguf\nDRAFT ./none.gguf\n"))[0].reason).toMatch(
      /line 2: DRAFT \.\/none\.gguf is not a file or folder here/,
    );
    expect((await check("FROM ./model.gguf\nDRAFT ./model.gguf\n"))[0].reason).toMatch(/DRAFT \.\/model\.gguf is the FROM model itself/);
    const noDraft = await call("runner:RunnerModel", "check", [
      {},
      { name: "x", from: path.join(dir, "model.gguf"), draftQuantize: "q8_0" },
    ]);
    expect(noDraft.failures[0]).toMatchObject({ property: "draftQuantize", reason: expect.stringMatching(/give draft/) });
  });

  it("a quantization the runner does not take is its own refusal, one line", async () => {
    const { inputs } = await call("runner:RunnerModel", "check", [
      {},
      { name: "odd", from: path.join(dir, "model.gguf"), quantize: "q2_K" },
    ]);
    await expect(call("runner:RunnerModel", "create", [inputs])).rejects.toThrow(
      /unsupported quantization type Q2_K - supported types are F32, F16, Q4_K_S, Q4_K_M, Q8_0/,
    );
  });
});

describe("models you can reproduce: expectedDigest (issue 48)", () => {
  const registryDigest = async (model: string, tag: string) => {
    const res = await fetch(`${runner.url}/v2/library/${model}/manifests/${tag}`);
    return createHash("sha256")
      .update(Buffer.from(await res.arrayBuffer()))
      .digest("hex");
  };
  const retag = (name: string) => fetch(`${runner.url}/__emulator/retag`, { method: "POST", body: JSON.stringify({ name }) });

  it("a pull whose weights are the pinned ones is kept; the digest as `ollama list` shows it (12) is enough", async () => {
    process.env.RUNNER_REGISTRY_URL = runner.url;
    const digest = await registryDigest("qwen2.5", "0.5b");
    const m = await make("runner:RunnerModel", { name: "qwen2.5:0.5b", expectedDigest: digest.slice(0, 12) });
    expect(m.outs.digest).toBe(digest);
    // Taken over by a lookup or an import, a pulled model comes pinned to the weights it has.
    expect((await call("runner:RunnerModel", "read", [m.id, {}])).inputs).toEqual({ name: "qwen2.5:0.5b", expectedDigest: digest });
  });

  it("a tag the registry moved fails the preview without pulling, and an up that pulls other weights keeps nothing", async () => {
    process.env.RUNNER_REGISTRY_URL = runner.url;
    const pinned = await registryDigest("tinyllama", "latest");
    await retag("tinyllama:latest");
    const moved = await registryDigest("tinyllama", "latest");
    forgetPreviewChecks();
    const { inputs } = await call("runner:RunnerModel", "check", [{}, { name: "tinyllama", expectedDigest: pinned }]);
    runner.log.splice(0);
    await expect(previewCheck("runner:RunnerModel", undefined, inputs)).rejects.toThrow(
      new RegExp(
        `tinyllama:latest on the registry is ${moved.slice(0, 12)} now, not the expectedDigest ${pinned.slice(0, 12)}.*set expectedDigest to ${moved.slice(0, 12)}`,
      ),
    );
    expect(runner.log.filter((e) => e.path === "/api/pull")).toEqual([]);
    // At up too (the tag may move after the preview): refused before anything is pulled.
    await expect(call("runner:RunnerModel", "create", [inputs])).rejects.toThrow(
      /on the registry is \w+ now, not the expectedDigest \w+: nothing was pulled/,
    );
    expect(runner.log.filter((e) => e.path === "/api/pull")).toEqual([]);
    expect(runner.models.has("tinyllama:latest")).toBe(false);
    forgetPreviewChecks();
  });

  it("a create whose result is not the pinned digest fails the up, and the model is not kept", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "runner-pin-"));
    writeFileSync(path.join(dir, "model.gguf"), "GGUF weights to pin");
    const { inputs } = await call("runner:RunnerModel", "check", [
      {},
      { name: "pinned", from: path.join(dir, "model.gguf"), expectedDigest: "0123456789ab" },
    ]);
    await expect(call("runner:RunnerModel", "create", [inputs])).rejects.toThrow(
      /pinned:latest came with digest \w+, not the expectedDigest 0123456789ab: what it is made from changed; it was not kept/,
    );
    expect(runner.models.has("pinned:latest")).toBe(false);
  });
});

/** A GGUF file of these metadata and tensor names (no weights: a header is all the provider reads of a draft). */
function gguf(metadata: Record<string, string | number>, tensors: string[]): Buffer {
  const u32 = (n: number) => Buffer.from(new Uint32Array([n]).buffer);
  const u64 = (n: number) => Buffer.from(new BigUint64Array([BigInt(n)]).buffer);
  const str = (t: string) => Buffer.concat([u64(Buffer.byteLength(t)), Buffer.from(t)]);
  const kv = Object.entries(metadata).map(([k, v]) =>
    Buffer.concat([str(k), ...(typeof v === "string" ? [u32(8), str(v)] : [u32(4), u32(v)])]),
  );
  const infos = tensors.map((t) => Buffer.concat([str(t), u32(1), u64(8), u32(0), u64(0)]));
  return Buffer.concat([Buffer.from("GGUF"), u32(3), u64(tensors.length), u64(kv.length), ...kv, ...infos]);
}

/**
 * Getting a model onto the runner as Ollama's API does: `POST /api/pull` from the registry's catalogue (progress as
 * lines, a layer at a time, failing mid-stream when the disk is full), and `POST /api/create` from a base model, a
 * file's blobs or a Modelfile's fields (system, template, parameters, messages, quantization), refused as the runner
 * refuses.
 */
import { parseJson, type Reply, type Request } from "../kit";
import { canonical, layerDigest, manifestOf, sha, type Model } from "./catalogue";
import type { RunnerEmulator } from "./server";

const line = (o: unknown) => `${JSON.stringify(o)}\n`;
/** The quantizations 0.32's create takes (fs/ggml ParseFileType; Q4_K is Q4_K_M). */
const QUANTIZATIONS = ["F32", "F16", "BF16", "Q8_0", "Q4_K_S", "Q4_K_M", "Q4_K"];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function pull(runner: RunnerEmulator, req: Request): Reply {
  const body = parseJson(req) ?? runner.fail(400, "invalid JSON");
  const name = canonical(String(body.model ?? body.name ?? ""));
  const entry = runner.options.catalogue[name];
  const stream = body.stream !== false;
  if (!entry) {
    if (!stream) runner.fail(500, "pull model manifest: file does not exist");
    return {
      status: 200,
      body: null,
      stream: (async function* () {
        yield line({ status: "pulling manifest" });
        yield line({ error: "pull model manifest: file does not exist" });
      })(),
    };
  }
  const total = entry.layers.reduce((a, b) => a + b, 0);
  const free = runner.options.diskBytes - runner.used();
  // A pulled model's digest is its manifest's, as the registry serves it now.
  const digest = `sha256:${sha(manifestOf(name, entry))}`;
  const finish = () => {
    runner.models.set(name, {
      name,
      digest: sha(manifestOf(name, entry)),
      size: total,
      modifiedAt: runner.timestamp(),
      details: { format: "gguf", family: entry.family, parameter_size: entry.parameterSize, quantization_level: entry.quantization },
    });
  };
  if (!stream) {
    if (total > free) runner.fail(500, "write /models/blobs: no space left on device");
    finish();
    return { status: 200, body: { status: "success" } };
  }
  return {
    status: 200,
    body: null,
    stream: (async function* () {
      yield line({ status: "pulling manifest" });
      let written = 0;
      for (const [i, size] of entry.layers.entries()) {
        const layer = layerDigest(name, entry, i);
        for (const part of [0.25, 0.5, 0.75, 1]) {
          await sleep(runner.options.pullStepMs);
          if (written + size * part > free) {
            yield line({ error: "write /models/blobs: no space left on device" });
            return; // nothing is kept of a failed pull
          }
          yield line({ status: `pulling ${layer.slice(7, 19)}`, digest: layer, total: size, completed: Math.round(size * part) });
        }
        written += size;
      }
      yield line({ status: "verifying sha256 digest" });
      yield line({ status: "writing manifest" });
      finish();
      yield line({ status: "success", digest });
    })(),
  };
}

/**
 * A create as the runner answers it: from a model it has (a base it lacks is pulled, as the runner does), or from
 * uploaded blobs (`files`: a missing one fails as the runner's open does); the template checked; the rest stored.
 */
export function create(runner: RunnerEmulator, req: Request): Reply {
  const body = parseJson(req) ?? runner.fail(400, "invalid JSON");
  if (body.modelfile) runner.fail(400, "the modelfile field is no longer supported: send from, system and parameters");
  const name = canonical(String(body.model ?? body.name ?? ""));
  const files = Object.values((body.files ?? {}) as Record<string, string>);
  if (!body.from && !files.length) runner.fail(400, "neither 'from' or 'files' was specified");
  const draftFiles = Object.values((body.draft_files ?? {}) as Record<string, string>);
  for (const digest of [...files, ...draftFiles, ...Object.values((body.adapters ?? {}) as Record<string, string>)]) {
    if (!runner.blobs.has(digest)) runner.fail(500, `open /models/blobs/${digest.replace(":", "-")}: no such file or directory`);
  }
  // 0.32's create: a draft model's quantization needs a draft; a quantization is one ParseFileType knows, of
  // unquantized weights (the emulator's GGUF files are F16 unless made from a pulled, quantized base).
  if (body.draft_quantize && !draftFiles.length) runner.fail(400, "--draft-quantize requires a DRAFT model");
  // These come while the model is made: in the progress stream (status 200), as the runner sends them.
  const late = (error: string): Reply =>
    body.stream === false
      ? runner.fail(500, error)
      : {
          status: 200,
          body: null,
          stream: (async function* () {
            yield line({ status: "parsing GGUF" });
            yield line({ error });
          })(),
        };
  for (const q of [body.quantize, body.draft_quantize].filter(Boolean).map((x: string) => x.toUpperCase())) {
    if (!QUANTIZATIONS.includes(q)) return late(`unsupported quantization type ${q} - supported types are F32, F16, Q4_K_S, Q4_K_M, Q8_0`);
  }
  // From weights not yet quantized only (a file here is F16; a base, what its catalogue entry says).
  const baseQuantization = body.from
    ? (runner.options.catalogue[canonical(body.from)]?.quantization ?? runner.models.get(canonical(body.from))?.details.quantization_level)
    : undefined;
  if (body.quantize && !files.length && !["F16", "BF16", "F32"].includes(String(baseQuantization)))
    return late("quantization is only supported for F16, BF16 and F32 models");
  if (typeof body.template === "string" && body.template.split("{{").length !== body.template.split("}}").length)
    runner.fail(400, "template error: template: :1: unclosed action");
  let base: Model | undefined;
  if (body.from) {
    base = runner.models.get(canonical(body.from));
    if (!base && runner.options.catalogue[canonical(body.from)]) {
      pull(runner, { ...req, rawBody: JSON.stringify({ model: body.from, stream: false }) });
      base = runner.models.get(canonical(body.from));
    }
    if (!base) runner.fail(500, "pull model manifest: file does not exist");
  }
  const fromFiles = files.length ? `/models/blobs/${files[0].replace(":", "-")}` : undefined;
  const parameters = (body.parameters ?? {}) as Record<string, unknown>;
  const made = {
    system: body.system,
    template: body.template,
    license: body.license,
    messages: body.messages,
    requires: body.requires,
    adapters: body.adapters,
    draft: draftFiles.length ? draftFiles : undefined,
    quantize: body.quantize,
  };
  const definition = JSON.stringify({ from: base?.name ?? files, parameters, ...made });
  const size = (base?.size ?? files.reduce((n, d) => n + (runner.blobs.get(d) ?? 0), 0)) + Buffer.byteLength(definition);
  runner.models.set(name, {
    name,
    digest: sha(`${base?.digest ?? files.join()}:${definition}`),
    size,
    modifiedAt: runner.timestamp(),
    details: base
      ? { ...base.details, parent_model: base.name }
      : {
          format: "gguf",
          family: "llama",
          parameter_size: "75K",
          quantization_level: body.quantize
            ? String(body.quantize)
                .toUpperCase()
                .replace(/^Q4_K$/, "Q4_K_M")
            : "F16",
          parent_model: fromFiles,
        },
    system: body.system ?? base?.system,
    template: body.template ?? base?.template,
    license: typeof body.license === "string" ? [body.license] : body.license,
    messages: body.messages,
    requires: body.requires,
    parameters: Object.keys(parameters).length ? parameters : base?.parameters,
    from: base?.name ?? fromFiles,
  });
  const stream = (async function* () {
    yield line({ status: files.length ? "parsing GGUF" : "using existing layer" });
    yield line({ status: "writing manifest" });
    yield line({ status: "success" });
  })();
  return body.stream === false ? { status: 200, body: { status: "success" } } : { status: 200, body: null, stream };
}

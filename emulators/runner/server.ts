/**
 * A stateful emulator of Ollama's API (github.com/ollama/ollama, docs/api.md): the local model runner (native `/api/*` and the chat-completions
 * interface under `/v1`), shaped like the real runner (wire-facts). It never runs a model: answers are
 * deterministic, and a chat that asks for a skill document gets a valid one, so generation can be tested.
 */
import { createHash } from "node:crypto";
import { Emulator, HttpError, parseJson, type Reply, type Request } from "../kit";
import { skillDocument } from "./answers";

export interface CatalogueEntry {
  family: string;
  parameterSize: string;
  quantization: string;
  /** Layer sizes in bytes; a pull streams progress per layer. */
  layers: number[];
  /** Bumped by the test hook `retag`: the tag then points at another manifest (new weights), as a registry's can. */
  revision?: number;
}

export const DEFAULT_CATALOGUE: Record<string, CatalogueEntry> = {
  "llama3.2:latest": { family: "llama", parameterSize: "3.2B", quantization: "Q4_K_M", layers: [2_019_377_376, 1_429, 7_711, 6_016] },
  "qwen2.5:0.5b": { family: "qwen2", parameterSize: "494.03M", quantization: "Q4_K_M", layers: [397_807_936, 6_975, 11_343] },
  "tinyllama:latest": { family: "llama", parameterSize: "1B", quantization: "Q4_0", layers: [637_699_456, 98, 483] },
};

export interface RunnerEmulatorOptions {
  port?: number;
  /** The RUNNER_HOST rule: loopback unless a host is given. */
  host?: string;
  catalogue?: Record<string, CatalogueEntry>;
  /** Model storage capacity in bytes: a pull that does not fit fails mid-stream. */
  diskBytes?: number;
  gpu?: "available" | "occupied" | "none";
  /** RUNNER_ORIGINS: allowed cross-origin sources (`*` for all). */
  origins?: string[];
  /** Milliseconds between progress lines of a pull. */
  pullStepMs?: number;
  /** What `GET /api/version` answers (an older runner, for the provider's version checks); RUNNER_VERSION by default. */
  version?: string;
}

export interface Model {
  name: string;
  digest: string;
  size: number;
  modifiedAt: string;
  details: { format: string; family: string; parameter_size: string; quantization_level: string; parent_model?: string };
  system?: string;
  parameters?: Record<string, unknown>;
  from?: string;
  template?: string;
  license?: string[];
  messages?: { role: string; content: string }[];
  requires?: string;
}

/** The runner's version: what `GET /api/version` answers (the real server this emulator is held to). */
export const RUNNER_VERSION = "0.32.15";

/** `model` or `model:tag`, lowercased, with the tag defaulting to `latest`. */
/** A name as the runner keeps it (types/model/name.go: ParseName, then DisplayShortest; matched without regard to case). */
export function canonical(name: string): string {
  const slash = name.lastIndexOf("/");
  const colon = name.lastIndexOf(":");
  const [path, tag] = colon > slash ? [name.slice(0, colon), name.slice(colon + 1)] : [name, "latest"];
  const parts = path.trim().toLowerCase().split("/");
  const [host, ns] =
    parts.length === 3 ? parts : parts.length === 2 ? ["registry.ollama.ai", ...parts] : ["registry.ollama.ai", "library", ...parts];
  const model = parts.at(-1)!;
  const shown = host === "registry.ollama.ai" ? (ns === "library" ? model : `${ns}/${model}`) : `${host}/${ns}/${model}`;
  return `${shown}:${tag.toLowerCase() || "latest"}`;
}

const sha = (s: string) => createHash("sha256").update(s).digest("hex");
const layerDigest = (name: string, entry: CatalogueEntry, i: number) => `sha256:${sha(`${name}:${i}:${entry.revision ?? 0}`)}`;
/** The registry's manifest of a catalogue model (the Docker v2 schema the Ollama registry serves); its digest is the model's. */
export function manifestOf(name: string, entry: CatalogueEntry): string {
  const layers = entry.layers.map((size, i) => ({
    mediaType:
      i === 0
        ? "application/vnd.ollama.image.model"
        : i === 1
          ? "application/vnd.ollama.image.template"
          : "application/vnd.ollama.image.params",
    digest: layerDigest(name, entry, i),
    size,
  }));
  return JSON.stringify({
    schemaVersion: 2,
    mediaType: "application/vnd.docker.distribution.manifest.v2+json",
    config: {
      mediaType: "application/vnd.docker.container.image.v1+json",
      digest: `sha256:${sha(`${name}:config:${entry.revision ?? 0}`)}`,
      size: 487,
    },
    layers,
  });
}
const line = (o: unknown) => `${JSON.stringify(o)}\n`;
/** The quantizations 0.32's create takes (fs/ggml ParseFileType; Q4_K is Q4_K_M). */
const QUANTIZATIONS = ["F32", "F16", "BF16", "Q8_0", "Q4_K_S", "Q4_K_M", "Q4_K"];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class RunnerEmulator extends Emulator {
  readonly options: Required<RunnerEmulatorOptions>;
  models = new Map<string, Model>();
  /** Uploaded blobs by digest (`sha256:<hex>`): their sizes. */
  blobs = new Map<string, number>();
  loaded = new Map<string, number>(); // name -> expires at
  gpu: "available" | "occupied" | "none";
  /** How many of the next skill documents answered leave out a required section (to test regeneration). */
  invalidSkillAnswers = 0;

  constructor(options: RunnerEmulatorOptions = {}) {
    super("runner", options.port ?? 0, options.host ?? "127.0.0.1");
    this.options = {
      port: options.port ?? 0,
      host: options.host ?? "127.0.0.1",
      catalogue: structuredClone(options.catalogue ?? DEFAULT_CATALOGUE), // its own: `retag` changes it
      diskBytes: options.diskBytes ?? 50 * 1024 ** 3,
      gpu: options.gpu ?? "available",
      origins: options.origins ?? [],
      pullStepMs: options.pullStepMs ?? 5,
      version: options.version ?? RUNNER_VERSION,
    };
    this.gpu = this.options.gpu;
    this.reset();
    this.registerRoutes();
  }

  /** The largest context the runner gives, whatever is asked (a machine short of memory); a test hook. */
  maxContext = 131_072;
  /** The next N deletes answer 404 and delete nothing, as the real runner once did to one of three concurrent deletes. */
  spuriousDelete404 = 0;

  reset(): void {
    this.invalidSkillAnswers = 0;
    this.spuriousDelete404 = 0;
    this.maxContext = 131_072;
    this.models.clear();
    this.blobs.clear();
    this.loaded.clear();
  }

  used(): number {
    return [...this.models.values()].reduce((n, m) => n + m.size, 0);
  }

  protected notFound(): Reply {
    return { status: 404, body: "404 page not found" };
  }

  protected faultReply(status: number, retryAfter?: number): Reply {
    return {
      status,
      body: { error: status === 429 ? "too many requests" : "internal error" },
      headers: retryAfter ? { "retry-after": String(retryAfter) } : {},
    };
  }

  /** RUNNER_ORIGINS: a browser origin that is not allowed is refused. */
  protected before(req: Request): Record<string, string> {
    const origin = req.headers.origin;
    if (!origin) return {};
    const allowed =
      this.options.origins.includes("*") ||
      this.options.origins.includes(String(origin)) ||
      /^https?:\/\/(localhost|127\.0\.0\.1)(:\d+)?$/.test(String(origin));
    if (!allowed) throw new HttpError({ status: 403, body: "" });
    return { "access-control-allow-origin": String(origin) };
  }

  private fail(status: number, error: string): never {
    throw new HttpError({ status, body: { error } });
  }

  /** The model by name; not there: 404 naming it as asked, or as the runner spells it (`show` says `nope:latest` since 0.30). */
  private model(name: unknown, spelled: "asked" | "full" = "asked"): Model {
    const m = this.models.get(canonical(String(name ?? "")));
    if (!m)
      this.fail(404, `model '${spelled === "full" && !String(name).includes(":") ? `${String(name)}:latest` : String(name)}' not found`);
    return m!;
  }

  /** Loading a model: fails when another process holds the GPU; falls back to the CPU when there is none. */
  private load(m: Model): { processor: string } {
    // A `stop` stored as text (what a client that sends one string makes): the runner then refuses every request.
    if (m.parameters && "stop" in m.parameters && !Array.isArray(m.parameters.stop)) this.fail(500, 'option "stop" must be of type array');
    if (this.gpu === "occupied")
      this.fail(500, "llama runner process has terminated: cudaMalloc failed: out of memory (the GPU is in use by another process)");
    this.loaded.set(m.name, this.now() + 5 * 60_000);
    return { processor: this.gpu === "none" ? "100% CPU" : "100% GPU" };
  }

  private registerRoutes(): void {
    this.route("GET", "/api/version", () => ({ status: 200, body: { version: this.options.version } }));
    // The registry's manifest endpoint (registry.ollama.ai/v2/<namespace>/<model>/manifests/<tag>), served here too.
    const manifest = (path: string, tag: string) => {
      const [ns, model] = path.split("/");
      const name = canonical(`${ns === "library" ? "" : `${ns}/`}${model}:${tag}`);
      const entry = this.options.catalogue[name];
      if (!entry)
        return { status: 404, body: { errors: [{ code: "MANIFEST_UNKNOWN", message: "manifest unknown", detail: { Tag: tag } }] } };
      const bytes = manifestOf(name, entry);
      return {
        status: 200,
        body: bytes,
        headers: {
          "content-type": "application/vnd.docker.distribution.manifest.v2+json",
          "docker-content-digest": `sha256:${sha(bytes)}`,
        },
      };
    };
    this.route("GET", "/v2/:ns/:model/manifests/:tag", (req) => manifest(`${req.params.ns}/${req.params.model}`, req.params.tag));
    this.route("HEAD", "/api/blobs/:digest", (req) => ({ status: this.blobs.has(req.params.digest) ? 200 : 404, body: "" }));
    this.route("POST", "/api/blobs/:digest", (req) => {
      const got = `sha256:${createHash("sha256").update(req.bytes).digest("hex")}`;
      if (got !== req.params.digest) this.fail(400, `digest mismatch, expected "${req.params.digest}", got "${got}"`);
      this.blobs.set(got, req.bytes.length);
      return { status: 201, body: "" };
    });
    this.route("GET", "/", () => ({ status: 200, body: "Runner is running" }));
    this.route("GET", "/api/tags", () => ({
      status: 200,
      body: {
        // Each with its capabilities since 0.30 (api/types.go ListModelResponse), as /api/show gives them.
        models: [...this.models.values()].map((m) => ({
          name: m.name,
          model: m.name,
          modified_at: m.modifiedAt,
          size: m.size,
          digest: m.digest,
          details: m.details,
          capabilities: ["completion"],
        })),
      },
    }));
    this.route("GET", "/api/ps", () => {
      const now = this.now();
      const running = [...this.loaded]
        .filter(([, exp]) => exp > now)
        .map(([name, exp]) => this.models.get(name))
        .filter((m): m is Model => !!m);
      return {
        status: 200,
        body: {
          models: running.map((m) => ({
            name: m.name,
            model: m.name,
            size: m.size,
            digest: m.digest,
            details: m.details,
            expires_at: new Date(this.loaded.get(m.name)!).toISOString(),
            size_vram: this.gpu === "none" ? 0 : m.size,
          })),
        },
      };
    });
    this.route("POST", "/api/show", (req) => {
      const body = parseJson(req) ?? this.fail(400, "invalid JSON");
      const m = this.model(body.model ?? body.name, "full");
      // As the runner shows them (`%-30s %#v`): the name padded, a value as Go prints it, a list's texts a line each.
      const params = Object.entries(m.parameters ?? {})
        .flatMap(([k, v]) => (Array.isArray(v) ? v : [v]).map((x) => `${k.padEnd(30)} ${JSON.stringify(x)}`))
        .join("\n");
      const lines = [
        `FROM ${m.from ?? m.name}`,
        ...(m.template ? [`TEMPLATE ${m.template}`] : []),
        ...(m.system ? [`SYSTEM ${m.system}`] : []),
        ...Object.entries(m.parameters ?? {}).flatMap(([k, v]) => (Array.isArray(v) ? v : [v]).map((x) => `PARAMETER ${k} ${x}`)),
        ...(m.license ?? []).map((l) => `LICENSE ${l}`),
        ...(m.messages ?? []).map((x) => `MESSAGE ${x.role} ${x.content}`),
      ];
      const shown: Record<string, unknown> = {
        modelfile: `# Modelfile generated by "ollama show"\n\n${lines.join("\n")}\n`,
        template: m.template ?? "{{ .Prompt }}",
        details: { parent_model: "", families: [m.details.family], ...m.details },
        model_info: { "general.architecture": m.details.family },
        capabilities: ["completion"],
        modified_at: m.modifiedAt,
      };
      if (params) shown.parameters = params;
      if (m.system) shown.system = m.system;
      if (m.license?.length) shown.license = m.license.join("\n");
      if (m.messages?.length) shown.messages = m.messages;
      if (m.requires) shown.requires = m.requires;
      return { status: 200, body: shown };
    });
    this.route("DELETE", "/api/delete", (req) => {
      const body = parseJson(req) ?? this.fail(400, "invalid JSON");
      const m = this.model(body.model ?? body.name);
      if (this.spuriousDelete404 > 0) {
        this.spuriousDelete404--;
        this.fail(404, `model '${body.model ?? body.name}' not found`);
      }
      this.models.delete(m.name);
      this.loaded.delete(m.name);
      return { status: 200, body: "" };
    });
    this.route("POST", "/api/pull", (req) => this.pull(req));
    this.route("POST", "/api/create", (req) => this.create(req));
    this.route("POST", "/api/generate", (req) => {
      const body = parseJson(req) ?? this.fail(400, "invalid JSON");
      const m = this.model(body.model);
      if (body.keep_alive === 0) {
        this.loaded.delete(m.name);
        return { status: 200, body: { model: m.name, created_at: this.timestamp(), response: "", done: true, done_reason: "unload" } };
      }
      const { processor } = this.load(m);
      if (!body.prompt)
        return {
          status: 200,
          body: { model: m.name, created_at: this.timestamp(), response: "", done: true, done_reason: "load", processor },
        };
      return {
        status: 200,
        body: {
          model: m.name,
          created_at: this.timestamp(),
          response: this.answer(m, String(body.prompt)),
          done: true,
          done_reason: "stop",
          processor,
        },
      };
    });
    this.route("POST", "/api/chat", (req) => {
      const body = parseJson(req) ?? this.fail(400, "invalid JSON");
      const m = this.model(body.model);
      this.load(m);
      const last = [...(body.messages ?? [])].reverse().find((x: { role: string }) => x.role === "user")?.content ?? "";
      const message = { role: "assistant", content: this.answer(m, String(last)) };
      // The prompt as evaluated: about 4 characters a token, cut to the context (options.num_ctx, else 4,096).
      const numCtx = Math.min(this.maxContext, Number(body.options?.num_ctx ?? m.parameters?.num_ctx ?? 4096));
      const chars = (body.messages ?? []).reduce((n: number, x: { content?: string }) => n + String(x.content ?? "").length, 0);
      const prompt_eval_count = Math.min(numCtx, Math.ceil(chars / 4));
      if (body.stream === false)
        return {
          status: 200,
          body: {
            model: m.name,
            created_at: this.timestamp(),
            message,
            done: true,
            done_reason: "stop",
            prompt_eval_count,
            eval_count: Math.ceil(message.content.length / 4),
          },
        };
      // eslint-disable-next-line @typescript-eslint/no-this-alias -- the stream below is a generator function: no lexical this
      const self = this;
      return {
        status: 200,
        body: null,
        stream: (async function* () {
          yield line({ model: m.name, created_at: self.timestamp(), message, done: false });
          yield line({
            model: m.name,
            created_at: self.timestamp(),
            message: { role: "assistant", content: "" },
            done: true,
            done_reason: "stop",
          });
        })(),
      };
    });
    this.route("POST", "/v1/chat/completions", (req) => {
      const body = parseJson(req);
      if (!body?.model)
        throw new HttpError({
          status: 400,
          body: { error: { message: "model is required", type: "invalid_request_error", param: "model", code: null } },
        });
      const m = this.models.get(canonical(body.model));
      if (!m)
        throw new HttpError({
          status: 404,
          body: { error: { message: `model "${body.model}" not found, try pulling it first`, type: "api_error", param: null, code: null } },
        });
      this.load(m);
      const last = [...(body.messages ?? [])].reverse().find((x: { role: string }) => x.role === "user")?.content ?? "";
      const content = this.answer(m, String(last));
      return {
        status: 200,
        body: {
          id: `chatcmpl-${sha(content).slice(0, 8)}`,
          object: "chat.completion",
          created: Math.floor(this.now() / 1000),
          model: m.name,
          choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
          usage: {
            prompt_tokens: Math.ceil(String(last).length / 4),
            completion_tokens: Math.ceil(content.length / 4),
            total_tokens: Math.ceil((String(last).length + content.length) / 4),
          },
        },
      };
    });
  }

  timestamp(): string {
    return new Date(this.now()).toISOString();
  }

  /** Deterministic answers; a request for a skill document gets a valid SKILL.md built from the prompt. */
  answer(m: Model, prompt: string): string {
    if (/SKILL\.md/i.test(prompt)) {
      const valid = this.invalidSkillAnswers <= 0;
      this.invalidSkillAnswers -= 1;
      return skillDocument(prompt, valid);
    }
    return `${m.system ? `[${m.system.slice(0, 40)}] ` : ""}Answer ${sha(m.name + prompt).slice(0, 12)} to: ${prompt.slice(0, 80)}`;
  }

  private pull(req: Request): Reply {
    const body = parseJson(req) ?? this.fail(400, "invalid JSON");
    const name = canonical(String(body.model ?? body.name ?? ""));
    const entry = this.options.catalogue[name];
    const stream = body.stream !== false;
    if (!entry) {
      if (!stream) this.fail(500, "pull model manifest: file does not exist");
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
    const free = this.options.diskBytes - this.used();
    // A pulled model's digest is its manifest's, as the registry serves it now.
    const digest = `sha256:${sha(manifestOf(name, entry))}`;
    const finish = () => {
      this.models.set(name, {
        name,
        digest: sha(manifestOf(name, entry)),
        size: total,
        modifiedAt: this.timestamp(),
        details: { format: "gguf", family: entry.family, parameter_size: entry.parameterSize, quantization_level: entry.quantization },
      });
    };
    if (!stream) {
      if (total > free) this.fail(500, "write /models/blobs: no space left on device");
      finish();
      return { status: 200, body: { status: "success" } };
    }
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the stream below is a generator function: no lexical this
    const self = this;
    return {
      status: 200,
      body: null,
      stream: (async function* () {
        yield line({ status: "pulling manifest" });
        let written = 0;
        for (const [i, size] of entry.layers.entries()) {
          const layer = layerDigest(name, entry, i);
          for (const part of [0.25, 0.5, 0.75, 1]) {
            await sleep(self.options.pullStepMs);
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
  private create(req: Request): Reply {
    const body = parseJson(req) ?? this.fail(400, "invalid JSON");
    if (body.modelfile) this.fail(400, "the modelfile field is no longer supported: send from, system and parameters");
    const name = canonical(String(body.model ?? body.name ?? ""));
    const files = Object.values((body.files ?? {}) as Record<string, string>);
    if (!body.from && !files.length) this.fail(400, "neither 'from' or 'files' was specified");
    const draftFiles = Object.values((body.draft_files ?? {}) as Record<string, string>);
    for (const digest of [...files, ...draftFiles, ...Object.values((body.adapters ?? {}) as Record<string, string>)]) {
      if (!this.blobs.has(digest)) this.fail(500, `open /models/blobs/${digest.replace(":", "-")}: no such file or directory`);
    }
    // 0.32's create: a draft model's quantization needs a draft; a quantization is one ParseFileType knows, of
    // unquantized weights (the emulator's GGUF files are F16 unless made from a pulled, quantized base).
    if (body.draft_quantize && !draftFiles.length) this.fail(400, "--draft-quantize requires a DRAFT model");
    // These come while the model is made: in the progress stream (status 200), as the runner sends them.
    const late = (error: string): Reply =>
      body.stream === false
        ? this.fail(500, error)
        : {
            status: 200,
            body: null,
            stream: (async function* () {
              yield line({ status: "parsing GGUF" });
              yield line({ error });
            })(),
          };
    for (const q of [body.quantize, body.draft_quantize].filter(Boolean).map((x: string) => x.toUpperCase())) {
      if (!QUANTIZATIONS.includes(q))
        return late(`unsupported quantization type ${q} - supported types are F32, F16, Q4_K_S, Q4_K_M, Q8_0`);
    }
    // From weights not yet quantized only (a file here is F16; a base, what its catalogue entry says).
    const baseQuantization = body.from
      ? (this.options.catalogue[canonical(body.from)]?.quantization ?? this.models.get(canonical(body.from))?.details.quantization_level)
      : undefined;
    if (body.quantize && !files.length && !["F16", "BF16", "F32"].includes(String(baseQuantization)))
      return late("quantization is only supported for F16, BF16 and F32 models");
    if (typeof body.template === "string" && body.template.split("{{").length !== body.template.split("}}").length)
      this.fail(400, "template error: template: :1: unclosed action");
    let base: Model | undefined;
    if (body.from) {
      base = this.models.get(canonical(body.from));
      if (!base && this.options.catalogue[canonical(body.from)]) {
        this.pull({ ...req, rawBody: JSON.stringify({ model: body.from, stream: false }) });
        base = this.models.get(canonical(body.from));
      }
      if (!base) this.fail(500, "pull model manifest: file does not exist");
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
    const size = (base?.size ?? files.reduce((n, d) => n + (this.blobs.get(d) ?? 0), 0)) + Buffer.byteLength(definition);
    this.models.set(name, {
      name,
      digest: sha(`${base?.digest ?? files.join()}:${definition}`),
      size,
      modifiedAt: this.timestamp(),
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

  protected testHook(op: string, _req: Request, body: any): Reply | undefined {
    if (op === "retag") {
      // The registry's tag now points at other weights: the next pull brings a model of another digest.
      const entry = this.options.catalogue[canonical(String(body.name))];
      if (!entry) return { status: 404, body: { error: "not in the catalogue" } };
      entry.revision = (entry.revision ?? 0) + 1;
      return { status: 200, body: { digest: sha(manifestOf(canonical(String(body.name)), entry)) } };
    }
    if (op === "invalid-skills") {
      this.invalidSkillAnswers = Number(body.count ?? 1);
      return { status: 200, body: { invalidSkillAnswers: this.invalidSkillAnswers } };
    }
    if (op === "gpu") {
      this.gpu = body.state;
      return { status: 200, body: { gpu: this.gpu } };
    }
    return undefined;
  }
}

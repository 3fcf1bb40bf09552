/**
 * A stateful emulator of Ollama's API (github.com/ollama/ollama, docs/api.md): the local model runner (native `/api/*` and the chat-completions
 * interface under `/v1`), shaped like the real runner (wire-facts). It never runs a model: answers are
 * deterministic, and a chat that asks for a skill document gets a valid one, so generation can be tested.
 */
import { createHash } from "node:crypto";
import { Emulator, HttpError, parseJson, type Reply, type Request } from "../kit";
import { canonical, DEFAULT_CATALOGUE, manifestOf, RUNNER_VERSION, sha, type CatalogueEntry, type Model } from "./catalogue";
import { registerInferenceRoutes } from "./inference";
import { create, pull } from "./models";

export { canonical, DEFAULT_CATALOGUE, manifestOf, RUNNER_VERSION, type CatalogueEntry, type Model } from "./catalogue";

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

  fail(status: number, error: string): never {
    throw new HttpError({ status, body: { error } });
  }

  /** The model by name; not there: 404 naming it as asked, or as the runner spells it (`show` says `nope:latest` since 0.30). */
  model(name: unknown, spelled: "asked" | "full" = "asked"): Model {
    const m = this.models.get(canonical(String(name ?? "")));
    if (!m)
      this.fail(404, `model '${spelled === "full" && !String(name).includes(":") ? `${String(name)}:latest` : String(name)}' not found`);
    return m!;
  }

  /** Loading a model: fails when another process holds the GPU; falls back to the CPU when there is none. */
  load(m: Model): { processor: string } {
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
    this.route("POST", "/api/pull", (req) => pull(this, req));
    this.route("POST", "/api/create", (req) => create(this, req));
    registerInferenceRoutes(this, (method, path, handler) => this.route(method, path, handler));
  }

  timestamp(): string {
    return new Date(this.now()).toISOString();
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

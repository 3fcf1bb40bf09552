/**
 * The model runner client (Ollama's API (github.com/ollama/ollama, docs/api.md); Ollama's native `/api/*` interface — `/v1` cannot size a context). A pull is
 * one streamed request whose newline-delimited progress is printed as it arrives.
 */
import type { Dispatcher } from "undici";
import { RUNNER_SETTINGS, read, readNumber, clientPerSettings } from "../config";
import { runnerUrl } from "../urls";
import { HttpClient, retryDelayMs } from "../http/client";
import { ApiError, NotFoundError, TransportError, ValidationError } from "../http/errors";
import { log } from "../log";
import { canonicalModel } from "./model-name";

export { runnerUrl };

/** Retries of a pull or create turned away before its stream started. */
const STREAM_RETRIES = 6;

export interface RunnerModelInfo {
  name: string;
  digest: string;
  size: number;
  modified_at: string;
  details: { family?: string; parameter_size?: string; quantization_level?: string; parent_model?: string };
}

/** What `/api/show` tells of a model: what it was made of (its parent a model name, or a blob's path for a file). */
export interface RunnerModelShown {
  system?: string;
  template?: string;
  /** One line a value, `%-30s %#v` (Go's syntax: texts quoted), a list's values a line each. */
  parameters?: string;
  license?: string;
  messages?: { role: "system" | "user" | "assistant"; content: string }[];
  requires?: string;
  details: RunnerModelInfo["details"];
}

/** The runner did not answer: say where it was looked for and the RUNNER_HOST rule. */
function unreachable(url: string, cause: string, ambiguous: boolean): TransportError {
  return new TransportError({
    service: "runner",
    message: `the runner at ${url} does not answer (${cause})`,
    remedy:
      "Start it, or point ops:runnerHost (RUNNER_HOST, OLLAMA_HOST) at it; the runner listens on the loopback address only unless OLLAMA_HOST is set where it runs (e.g. OLLAMA_HOST=0.0.0.0:11434 ollama serve)",
    ambiguous,
  });
}

function explain(error: string, status?: number): ApiError {
  const d = { service: "runner", status, message: error };
  if (/not found|does not exist/i.test(error))
    return new NotFoundError({ ...d, remedy: "Check the model name (model or model:tag) against the runner's library" });
  if (/no space left/i.test(error))
    return new ValidationError({
      ...d,
      remedy: "The runner's model storage is full: remove models you no longer need to free storage, then run again",
    });
  if (/out of memory|cudaMalloc/i.test(error))
    return new ValidationError({ ...d, remedy: "The GPU is in use by another inference process: stop it or wait, then run again" });
  return new ApiError(d);
}

export class RunnerClient {
  /** Deletes to this runner, one after another: the runner answered one of several concurrent deletes 404 while the model stayed. */
  private deletes: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly http: HttpClient,
    readonly url: string,
    private readonly timeoutMs: number,
    private readonly headers: Record<string, string> = {},
  ) {}

  static fromConfig(): RunnerClient {
    const url = runnerUrl(read(RUNNER_SETTINGS.host)!);
    const timeoutMs = readNumber(RUNNER_SETTINGS.timeoutSeconds) * 1000;
    const key = read(RUNNER_SETTINGS.apiKey);
    const headers: Record<string, string> = key ? { authorization: `Bearer ${key}` } : {};
    return new RunnerClient(
      new HttpClient({ service: "runner", baseUrl: url, headers, timeoutMs, maxRetries: 6, urlKey: "ops:runnerHost" }),
      url,
      timeoutMs,
      headers,
    );
  }

  /** Every JSON call here reads or deletes (show, chat, tags, delete): safe to repeat, POSTs included. */
  private async json<T>(method: "GET" | "POST" | "DELETE", path: string, body?: unknown): Promise<T> {
    let res;
    try {
      res = await this.http.request(method, path, body === undefined ? { idempotent: true } : { json: body, idempotent: true });
    } catch (e) {
      if (e instanceof TransportError) throw unreachable(this.url, e.apiMessage, e.ambiguous);
      throw e;
    }
    if (res.status >= 400) throw explain((res.json as { error?: string })?.error ?? res.text, res.status);
    return res.json as T;
  }

  /** Models this run pulled as the base of another (no other stack's): a RunnerModel of the same name may keep them. */
  readonly pulledAsBase = new Set<string>();

  /** The runner's version (`GET /api/version`, asked once per run); a build from source says 0.0.0. */
  version(): Promise<string> {
    // A failed ask is not kept: the next one asks again.
    this.versionAsked ??= this.json<{ version: string }>("GET", "/api/version").then(
      (v) => v.version,
      (e) => {
        this.versionAsked = undefined;
        throw e;
      },
    );
    return this.versionAsked;
  }
  private versionAsked?: Promise<string>;

  async list(): Promise<RunnerModelInfo[]> {
    return (await this.json<{ models: RunnerModelInfo[] }>("GET", "/api/tags")).models;
  }
  async running() {
    return (await this.json<{ models: (RunnerModelInfo & { expires_at: string; size_vram: number })[] }>("GET", "/api/ps")).models;
  }
  /** The model as listed, or undefined when the runner does not have it (names compared as the runner compares them). */
  async find(name: string): Promise<RunnerModelInfo | undefined> {
    const want = canonicalModel(name);
    return (await this.list()).find((m) => canonicalModel(m.name) === want);
  }
  async show(name: string) {
    return this.json<RunnerModelShown>("POST", "/api/show", { model: name });
  }
  /**
   * Removes the model, confirmed by the model list: a 404 alone never counts as gone (the runner answered one of
   * several concurrent deletes 404 while the model stayed), so deletes to one runner go one at a time, and a model
   * still listed after its delete is deleted once more, then reported.
   */
  async remove(name: string): Promise<void> {
    const turn = this.deletes.then(async () => {
      for (let attempt = 1; ; attempt++) {
        const listed = await this.find(name);
        if (!listed) return;
        await this.json("DELETE", "/api/delete", { model: listed.name }).catch((e) => {
          if (!(e instanceof NotFoundError)) throw e;
        });
        if (!(await this.find(name))) return;
        if (attempt >= 2)
          throw new ApiError({
            service: "runner",
            message: `${name} is still listed after its delete`,
            remedy: "Remove it on the runner (ollama rm), then run again",
          });
        log(`runner: ${name} is still listed after its delete; deleting it again`);
      }
    });
    this.deletes = turn.catch(() => undefined);
    return turn;
  }

  /**
   * One request under the retry policy of every other: `send` answers the response it wants kept, or the failure
   * (its status and text, or none for a connection that failed); a refusal the policy retries is sent again.
   */
  private async retrying<T>(
    what: string,
    send: () => Promise<{ done: T } | { status: number; text: string; retryAfter?: string | string[] }>,
    named = false,
  ): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      let failure: { status?: number; code?: string; retryAfter?: string | string[] };
      let text = "";
      try {
        const answer = await send();
        if ("done" in answer) return answer.done;
        failure = { status: answer.status, retryAfter: answer.retryAfter };
        text = answer.text;
      } catch (err) {
        failure = { code: (err as Error & { code?: string }).code ?? (err as Error).message };
      }
      const delay = retryDelayMs(attempt, "PUT", failure, STREAM_RETRIES);
      if (delay === undefined) {
        const error = JSON.parse(text.startsWith("{") ? text : "{}").error ?? text;
        throw failure.status ? explain(named ? `${what}: ${error}` : error, failure.status) : unreachable(this.url, failure.code!, false);
      }
      log(
        `runner: ${what}: ${failure.status ? `answered ${failure.status}` : failure.code}; retry ${attempt} of ${STREAM_RETRIES} in ${(delay / 1000).toFixed(1)} s`,
      );
      await new Promise((r) => setTimeout(r, delay));
    }
  }

  /**
   * Uploads the files a model is made of as blobs (`POST /api/blobs/sha256:…`), each unless the runner has it
   * (`HEAD`). A blob is named by its content, so sending one again is harmless: failures are retried like any request.
   * A 400 "digest mismatch" is a file changed between the preview's hash and this upload.
   */
  async uploadBlobs(paths: Record<string, string>): Promise<void> {
    const { request } = await import("undici");
    const { createReadStream } = await import("node:fs");
    for (const [digest, file] of Object.entries(paths)) {
      await this.retrying(
        `uploading ${file}`,
        async () => {
          const head = await request(`${this.url}/api/blobs/${digest}`, {
            method: "HEAD",
            headers: this.headers,
            headersTimeout: this.timeoutMs,
          });
          await head.body.dump();
          if (head.statusCode === 200) return { done: undefined };
          log(`runner: uploading ${file} (${digest.slice(7, 19)})`);
          const res = await request(`${this.url}/api/blobs/${digest}`, {
            method: "POST",
            headers: { "content-type": "application/octet-stream", ...this.headers },
            body: createReadStream(file),
            headersTimeout: this.timeoutMs,
            bodyTimeout: this.timeoutMs,
          });
          const text = await res.body.text();
          return res.statusCode < 300 ? { done: undefined } : { status: res.statusCode, text, retryAfter: res.headers["retry-after"] };
        },
        true,
      );
    }
  }

  /**
   * Streams a pull or a create, printing progress (percent and bytes) while large layers download. Both are
   * idempotent (the same name and definition give the same model), so a refusal before the stream starts (429,
   * 5xx, no connection) is retried with the same policy as every other request.
   */
  async stream(path: "/api/pull" | "/api/create", body: Record<string, unknown>, what: string): Promise<void> {
    // undici loads with the first request (http/client.ts says why)
    const { request } = await import("undici");
    const res = await this.retrying<Dispatcher.ResponseData>(what, async () => {
      const answer = await request(`${this.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", ...this.headers },
        body: JSON.stringify({ ...body, stream: true }),
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
      });
      return answer.statusCode < 400
        ? { done: answer }
        : { status: answer.statusCode, text: await answer.body.text(), retryAfter: answer.headers["retry-after"] };
    });
    let buffered = "";
    let lastShown = -1;
    let succeeded = false;
    const take = (l: string) => {
      const p = JSON.parse(l) as { status?: string; error?: string; total?: number; completed?: number };
      if (p.error) throw explain(p.error);
      if (p.total && p.completed !== undefined) {
        const pct = Math.floor((100 * p.completed) / p.total);
        if (p.total > 50_000_000 && pct >= lastShown + 25) {
          lastShown = pct;
          log(`runner: ${what}: ${p.status} ${pct}% (${(p.completed / 1e6).toFixed(0)} of ${(p.total / 1e6).toFixed(0)} MB)`);
        }
        if (pct === 100) lastShown = -1;
      } else if (p.status === "success") {
        succeeded = true;
        log(`runner: ${what}: done`);
      }
    };
    for await (const chunk of res.body) {
      buffered += chunk.toString();
      const lines = buffered.split("\n");
      buffered = lines.pop() ?? "";
      lines.filter(Boolean).forEach(take);
    }
    if (buffered.trim()) take(buffered.trim());
    // A stream that ends without its final `success` (the connection dropped, the runner stopped) made nothing sure.
    if (!succeeded)
      throw new ApiError({
        service: "runner",
        message: `${what} ended without its final "success"`,
        remedy: "Run again: the runner stopped answering before it finished",
      });
  }

  /**
   * One answer from `/api/chat`, with a context sized to the prompt: the runner's default context (4,096 tokens on
   * smaller machines) silently cuts a longer prompt, and `/v1` cannot set it. A prompt the runner still evaluated to
   * the brim of the context was cut: that fails, rather than generate from half the instructions.
   */
  async chat(model: string, messages: { role: string; content: string }[]): Promise<string> {
    const chars = messages.reduce((n, m) => n + m.content.length, 0);
    // About 4 characters a token in English; 3 leaves room for other text, plus 2,048 tokens for the answer.
    const numCtx = Math.max(4096, Math.ceil((Math.ceil(chars / 3) + 2048) / 1024) * 1024);
    const res = await this.json<{ message?: { content?: string }; prompt_eval_count?: number; error?: string }>("POST", "/api/chat", {
      model,
      messages,
      stream: false,
      options: { num_ctx: numCtx },
    });
    // Cut: evaluated to the brim of the context asked for, or to far fewer tokens than the text holds (the runner
    // gave a smaller context than asked, e.g. for lack of memory; no tokenizer puts 8 characters in a token).
    const evaluated = res.prompt_eval_count;
    if (evaluated !== undefined && (evaluated >= numCtx - 16 || evaluated < chars / 8)) {
      throw new ValidationError({
        service: "runner",
        message: `the prompt (${chars} characters) did not fit: the runner evaluated ${evaluated} tokens of it, with a context of ${numCtx} asked for`,
        remedy: "Give fewer or shorter sources, or use a model (and a runner with the memory) for a larger context",
      });
    }
    return res.message?.content ?? "";
  }
}

export const runner: () => RunnerClient = clientPerSettings([RUNNER_SETTINGS.host, RUNNER_SETTINGS.timeoutSeconds], () =>
  RunnerClient.fromConfig(),
);

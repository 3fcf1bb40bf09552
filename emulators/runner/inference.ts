/**
 * Running a model as Ollama's API does: `POST /api/generate` (a prompt; none loads the model, `keep_alive: 0` unloads
 * it), `POST /api/chat` (streamed as lines unless `stream: false`, the prompt counted against the context) and the
 * OpenAI-compatible `POST /v1/chat/completions`. Answers are deterministic; a request for a skill document gets one.
 */
import { HttpError, parseJson, type Handler } from "../kit";
import { skillDocument } from "./answers";
import { canonical, sha, type Model } from "./catalogue";
import type { RunnerEmulator } from "./server";

const line = (o: unknown) => `${JSON.stringify(o)}\n`;

export function registerInferenceRoutes(runner: RunnerEmulator, route: (method: string, path: string, handler: Handler) => void): void {
  route("POST", "/api/generate", (req) => {
    const body = parseJson(req) ?? runner.fail(400, "invalid JSON");
    const m = runner.model(body.model);
    if (body.keep_alive === 0) {
      runner.loaded.delete(m.name);
      return { status: 200, body: { model: m.name, created_at: runner.timestamp(), response: "", done: true, done_reason: "unload" } };
    }
    const { processor } = runner.load(m);
    if (!body.prompt)
      return {
        status: 200,
        body: { model: m.name, created_at: runner.timestamp(), response: "", done: true, done_reason: "load", processor },
      };
    return {
      status: 200,
      body: {
        model: m.name,
        created_at: runner.timestamp(),
        response: answer(runner, m, String(body.prompt)),
        done: true,
        done_reason: "stop",
        processor,
      },
    };
  });
  route("POST", "/api/chat", (req) => {
    const body = parseJson(req) ?? runner.fail(400, "invalid JSON");
    const m = runner.model(body.model);
    runner.load(m);
    const last = [...(body.messages ?? [])].reverse().find((x: { role: string }) => x.role === "user")?.content ?? "";
    const message = { role: "assistant", content: answer(runner, m, String(last)) };
    // The prompt as evaluated: about 4 characters a token, cut to the context (options.num_ctx, else 4,096).
    const numCtx = Math.min(runner.maxContext, Number(body.options?.num_ctx ?? m.parameters?.num_ctx ?? 4096));
    const chars = (body.messages ?? []).reduce((n: number, x: { content?: string }) => n + String(x.content ?? "").length, 0);
    const prompt_eval_count = Math.min(numCtx, Math.ceil(chars / 4));
    if (body.stream === false)
      return {
        status: 200,
        body: {
          model: m.name,
          created_at: runner.timestamp(),
          message,
          done: true,
          done_reason: "stop",
          prompt_eval_count,
          eval_count: Math.ceil(message.content.length / 4),
        },
      };
    return {
      status: 200,
      body: null,
      stream: (async function* () {
        yield line({ model: m.name, created_at: runner.timestamp(), message, done: false });
        yield line({
          model: m.name,
          created_at: runner.timestamp(),
          message: { role: "assistant", content: "" },
          done: true,
          done_reason: "stop",
        });
      })(),
    };
  });
  route("POST", "/v1/chat/completions", (req) => {
    const body = parseJson(req);
    if (!body?.model)
      throw new HttpError({
        status: 400,
        body: { error: { message: "model is required", type: "invalid_request_error", param: "model", code: null } },
      });
    const m = runner.models.get(canonical(body.model));
    if (!m)
      throw new HttpError({
        status: 404,
        body: { error: { message: `model "${body.model}" not found, try pulling it first`, type: "api_error", param: null, code: null } },
      });
    runner.load(m);
    const last = [...(body.messages ?? [])].reverse().find((x: { role: string }) => x.role === "user")?.content ?? "";
    const content = answer(runner, m, String(last));
    return {
      status: 200,
      body: {
        id: `chatcmpl-${sha(content).slice(0, 8)}`,
        object: "chat.completion",
        created: Math.floor(runner.now() / 1000),
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

/** Deterministic answers; a request for a skill document gets a valid SKILL.md built from the prompt. */
export function answer(runner: RunnerEmulator, m: Model, prompt: string): string {
  if (/SKILL\.md/i.test(prompt)) {
    const valid = runner.invalidSkillAnswers <= 0;
    runner.invalidSkillAnswers -= 1;
    return skillDocument(prompt, valid);
  }
  return `${m.system ? `[${m.system.slice(0, 40)}] ` : ""}Answer ${sha(m.name + prompt).slice(0, 12)} to: ${prompt.slice(0, 80)}`;
}

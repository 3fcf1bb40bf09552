/**
 * The six emulators the drift and takeover matrices run every resource type against, started once per file with the
 * provider's settings pointed at them, and what each row starts from: every emulator as seeded, no claim of an
 * earlier row, and what a type needs there first (the scripts a route or domain points at, the model a generated
 * skill is written by).
 */
import { afterAll, beforeAll, expect } from "vitest";
import { forgetClaims } from "../../provider/claims";
import { call } from "../../provider/door";
import { DEMO_ACCOUNT, DEMO_TOKEN, type Emulator, PAGES_USER_TOKEN, POSTS_USER_TOKEN, SKILLS_PUBLISH_TOKEN } from "../../emulators";
import { startEveryService, stopEveryService, type EveryService } from "../../emulators/every-service";
import { seedScripts } from "./type-cases";

type Bag = Record<string, any>;

export interface MatrixServices extends EveryService {
  all(): Emulator[];
}

/** The inputs `check` makes of `inputs`, which must pass it. */
export async function checked(type: string, inputs: Bag): Promise<Bag> {
  const { inputs: out, failures } = await call(type, "check", [{}, inputs]);
  expect(failures).toEqual([]);
  return out;
}

/** Starts the emulators for the file (filled in before its tests run) and stops them after. */
export function useMatrixServices(): MatrixServices {
  const s = { all: () => [s.edge, s.pages, s.posts, s.runner, s.skills, s.control] as Emulator[] } as MatrixServices;
  beforeAll(async () => {
    Object.assign(s, await startEveryService({ fast: true }));
    Object.assign(process.env, {
      EDGE_BASE_URL: s.edge.url,
      EDGE_API_TOKEN: DEMO_TOKEN,
      EDGE_ACCOUNT_ID: DEMO_ACCOUNT,
      PAGES_BASE_URL: s.pages.url,
      PAGES_ACCESS_TOKEN: PAGES_USER_TOKEN,
      POSTS_BASE_URL: s.posts.url,
      POSTS_ACCESS_TOKEN: POSTS_USER_TOKEN,
      RUNNER_HOST: s.runner.url.replace("http://", ""),
      SKILLS_URL: s.skills.url,
      SKILLS_TOKEN: SKILLS_PUBLISH_TOKEN,
      CONTROL_URL: s.control.url,
    });
  });
  afterAll(async () => {
    const { all: _all, ...started } = s;
    if (started.edge) await stopEveryService(started);
  });
  return s;
}

/** A row's start: the emulators as seeded (hooks off, logs empty), no claims, and what `type` needs there first. */
export async function freshFor(s: MatrixServices, type: string): Promise<void> {
  for (const e of s.all()) {
    e.reset();
    e.reverseKeys = false;
    e.log.splice(0);
  }
  forgetClaims(); // the emulators' ids start again: a claim of the last row is not this one's
  if (type === "edge:WorkerRoute" || type === "edge:WorkerDomain") seedScripts(s.edge);
  if (type === "skills:GeneratedSkill")
    await call("runner:RunnerModel", "create", [await checked("runner:RunnerModel", { name: "qwen2.5:0.5b" })]);
}

/** The model runner and skills registry emulators for a test file, with fresh state for every test. */
import { afterAll, beforeAll, beforeEach } from "vitest";
import {
  RunnerEmulator,
  SKILLS_PUBLISH_TOKEN,
  SkillsEmulator,
  type RunnerEmulatorOptions,
  type SkillsEmulatorOptions,
} from "../../emulators";
import { standIn } from "./social";

export function useAi(options: { runner?: RunnerEmulatorOptions; skills?: SkillsEmulatorOptions } = {}): {
  runner: RunnerEmulator;
  skills: SkillsEmulator;
} {
  let runner: RunnerEmulator | undefined;
  let skills: SkillsEmulator | undefined;
  beforeAll(async () => {
    runner = await new RunnerEmulator(options.runner).start();
    skills = await new SkillsEmulator({ publishToken: SKILLS_PUBLISH_TOKEN, ...options.skills }).start();
  });
  afterAll(async () => {
    await runner?.stop();
    await skills?.stop();
  });
  beforeEach(() => {
    for (const e of [runner!, skills!]) {
      e.reset();
      e.log.splice(0);
      e.clearFaults();
    }
    runner!.gpu = "available";
    Object.assign(process.env, {
      RUNNER_HOST: runner!.url.replace("http://", ""),
      SKILLS_URL: skills!.url,
      SKILLS_TOKEN: SKILLS_PUBLISH_TOKEN,
    });
  });
  return { runner: standIn(() => runner!), skills: standIn(() => skills!) };
}

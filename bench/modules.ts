/**
 * One resource type of each other module at a small N, in the same harness as the DNS records, so a regression
 * anywhere shows: page posts, skills, models and remote commands, each against its own emulator.
 */
import * as path from "node:path";
import type { ConfigMap } from "@pulumi/pulumi/automation";
import {
  ControlEmulator,
  type Emulator,
  PAGES_APP,
  PAGES_USER_TOKEN,
  PagesEmulator,
  RunnerEmulator,
  SKILLS_PUBLISH_TOKEN,
  SkillsEmulator,
} from "../emulators";
import { runPhases, type PhaseOptions, type PhaseRun } from "./harness";

interface Module {
  kind: string;
  resource: string;
  start(): Promise<{ emulator: Emulator; config: ConfigMap }>;
}

export const MODULES: Module[] = [
  {
    kind: "pagePost",
    resource: "ops.pages.PagePost (draft)",
    async start() {
      // The hourly allowances (200 calls per user, 4800 per app) are lifted, as the edge allowance is for the speed
      // phases: with the repeated phases a bench run makes more than 200 page calls within the hour.
      const emulator = await new PagesEmulator({ limits: { perUserPerHour: 1e9, perAppPerHour: 1e9, perPagePerDay: 1e9 } }).start();
      return {
        emulator,
        config: {
          "ops:pagesBaseUrl": { value: emulator.url },
          "ops:pagesAccessToken": { value: PAGES_USER_TOKEN, secret: true },
          "ops:pagesAppId": { value: PAGES_APP.id },
        },
      };
    },
  },
  {
    kind: "skill",
    resource: "ops.skills.Skill (from SKILL.md)",
    async start() {
      const emulator = await new SkillsEmulator({ publishToken: SKILLS_PUBLISH_TOKEN, allowDelete: true }).start();
      return {
        emulator,
        config: { "ops:skillsUrl": { value: emulator.url }, "ops:skillsToken": { value: SKILLS_PUBLISH_TOKEN, secret: true } },
      };
    },
  },
  {
    kind: "model",
    resource: "ops.runner.RunnerModel (created from a base)",
    async start() {
      const emulator = await new RunnerEmulator({ pullStepMs: 1 }).start();
      return { emulator, config: { "ops:runnerHost": { value: emulator.url } } };
    },
  },
  {
    kind: "command",
    resource: "ops.control.RemoteCommand",
    async start() {
      const emulator = await new ControlEmulator().start();
      return { emulator, config: { "ops:controlUrl": { value: emulator.url } } };
    },
  },
];

/** The module's program interleaved with `floor` (the no-I/O program at the same N): [floor run, module run]. */
export async function benchModule(programs: string, m: Module, n: number, floor: PhaseOptions): Promise<PhaseRun[]> {
  const { emulator, config } = await m.start();
  try {
    return await runPhases([
      floor,
      {
        dir: path.join(programs, "modules"),
        project: "bench-modules",
        n,
        config: { ...config, "bench-modules:kind": { value: m.kind } },
        logs: () => [emulator.log],
        label: m.kind,
      },
    ]);
  } finally {
    await emulator.stop();
  }
}

export { Emulator, type Fault, type LogEntry } from "./kit";
export {
  EdgeEmulator,
  DEMO_TOKEN,
  DEMO_ACCOUNT_TOKEN,
  READONLY_TOKEN,
  DEMO_ACCOUNT,
  ALL_PERMISSIONS,
  READ_PERMISSIONS,
  type EdgeEmulatorOptions,
} from "./edge/server";
export {
  PagesEmulator,
  PAGE_ID,
  PAGES_APP,
  PAGES_USER_TOKEN,
  PAGES_PAGE_TOKEN,
  PAGES_MODERATOR_TOKEN,
  PAGES_EXPIRED_TOKEN,
  PAGES_SHORT_USER_TOKEN,
  BUSINESS_ID,
  type PagesEmulatorOptions,
} from "./pages/server";
export {
  PostsEmulator,
  POSTS_APP,
  POSTS_USER_TOKEN,
  POSTS_SHORT_TOKEN,
  POSTS_OTHER_TOKEN,
  POSTS_USER_ID,
  POSTS_AUTH_CODE,
  PUBLISH_QUOTA,
  DELETE_QUOTA,
  type PostsEmulatorOptions,
} from "./posts/server";
export { RunnerEmulator, canonical as canonicalModelName, DEFAULT_CATALOGUE, type RunnerEmulatorOptions } from "./runner/server";
export { SkillsEmulator, SKILLS_PUBLISH_TOKEN, type SkillsEmulatorOptions } from "./skills/server";
export { ClaudeSkillsEmulator, CLAUDE_API_KEY, type ClaudeSkillsEmulatorOptions } from "./skills/claude";
export { ControlEmulator, VNC_TARGETS, type ControlEmulatorOptions } from "./control/server";
export { REALISTIC_LATENCY, parseLatency, type LatencyProfile } from "./latency";

/** The skills service's settings (provider/settings.ts gathers every service's). */
import { settings } from "../setting";

export const SKILLS_SETTINGS = settings("skills", {
  url: { env: "SKILLS_URL", default: "http://127.0.0.1:8300", url: true, description: "The skills registry's base URL." },
  token: { env: "SKILLS_TOKEN", secret: true, description: "Bearer token for publishing, when the registry asks for one." },
  timeoutSeconds: { env: "SKILLS_TIMEOUT_SECONDS", default: "30", range: [1, 3600], description: "Per-request timeout." },
  adoptExisting: {
    env: "SKILLS_ADOPT_EXISTING",
    default: "false",
    bool: true,
    description:
      "For a recovery run after an interrupted up: every skill whose slug the registry already holds takes it over, as if it had `adopt: true`. Unset it afterwards.",
  },
  kind: {
    env: "SKILLS_KIND",
    default: "registry",
    oneOf: ["registry", "claude"],
    description:
      "Where skills are published: `registry` (the skills registry at ops:skillsUrl, SKILL.md alone) or `claude` (the Claude API's skills endpoints at ops:skillsClaudeUrl: the whole skill folder, kept as versions).",
  },
  claudeUrl: {
    env: "ANTHROPIC_BASE_URL",
    default: "https://api.anthropic.com",
    url: true,
    description: "The Claude API's base URL, for ops:skillsKind `claude` (the official SDKs read ANTHROPIC_BASE_URL too).",
  },
  claudeApiKey: {
    env: "ANTHROPIC_API_KEY",
    secret: true,
    description:
      "An Anthropic API key of the workspace the skills belong to, for ops:skillsKind `claude` (sent as the official SDKs send it: Authorization: Bearer).",
  },
});

/** The runner service's settings (provider/settings.ts gathers every service's). */
import { settings } from "../setting";

export const RUNNER_SETTINGS = settings("runner", {
  host: {
    env: "RUNNER_HOST",
    alsoEnv: ["OLLAMA_HOST"],
    default: "127.0.0.1:11434",
    description:
      "The runner: `host`, `host:port`, `:port`, a bare IPv6 address or a URL (a path is kept, for a runner behind a proxy), read as the runner's own client reads OLLAMA_HOST: port 11434 unless a scheme says otherwise, `ollama.com` over https, a listen-on-all address (`0.0.0.0`, `::`) reached on the loopback.",
  },
  apiKey: {
    env: "RUNNER_API_KEY",
    alsoEnv: ["OLLAMA_API_KEY"],
    secret: true,
    description: "An API key for a hosted runner, sent as `Authorization: Bearer`.",
  },
  timeoutSeconds: {
    env: "RUNNER_TIMEOUT_SECONDS",
    default: "600",
    range: [1, 86_400],
    description: "Per-request timeout (a pull of a large model is one long request).",
  },
  adoptExisting: {
    env: "RUNNER_ADOPT_EXISTING",
    default: "false",
    bool: true,
    description:
      "For a recovery run after an interrupted up: every RunnerModel whose name the runner already lists takes it over, as if it had `adopt: true`. Unset it afterwards.",
  },
  registryUrl: {
    env: "RUNNER_REGISTRY_URL",
    default: "https://registry.ollama.ai",
    url: true,
    description:
      "The model registry a preview asks what a tag points at now (for a RunnerModel's `expectedDigest`); its manifests are read, nothing is pulled.",
  },
});

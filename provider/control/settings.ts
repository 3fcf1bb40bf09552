/** The control service's settings (provider/settings.ts gathers every service's). */
import { settings } from "../setting";

export const CONTROL_SETTINGS = settings("control", {
  url: {
    env: "CONTROL_URL",
    default: "http://127.0.0.1:8200",
    url: true,
    description: "The computer-control endpoint's base URL (`/mcp` is appended).",
  },
  token: { env: "CONTROL_TOKEN", secret: true, description: "Bearer token, when the endpoint asks for one." },
  vncPassword: { env: "CONTROL_VNC_PASSWORD", secret: true, description: "The remote-desktop password for openRemoteDesktop." },
  timeoutSeconds: {
    env: "CONTROL_TIMEOUT_SECONDS",
    default: "120",
    range: [1, 86_400],
    description: "Per-request timeout (a tool call waits for its command to finish).",
  },
  protocol: {
    env: "CONTROL_PROTOCOL",
    default: "auto",
    oneOf: ["auto", "2025"],
    description:
      "The MCP revision to speak: `auto` (the newest the endpoint answers: 2026-07-28's `server/discover` first, then the 2025 handshake) or `2025` (the 2025 handshake only, for an endpoint whose newer revision misbehaves).",
  },
  rerunInterrupted: {
    env: "CONTROL_RERUN_INTERRUPTED",
    default: "false",
    bool: true,
    description:
      "For one run after a killed `pulumi up`: `true` runs again the create commands that run had started and never recorded (by default they are refused, as pulumi-ops cannot tell whether they ran). Check the host first; unset it afterwards.",
  },
});

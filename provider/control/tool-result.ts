/**
 * What a tool answers, as the handlers read it: its text, and a host's refusal for lack of a privacy permission
 * turned into an error naming the permission and where to grant it.
 */
import { ValidationError } from "../http/errors";

export interface ToolResult {
  content: { type: string; text?: string; data?: string; mimeType?: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/**
 * macOS's refusals of a helper that lacks a privacy permission (its error numbers and texts), and where the user
 * grants it: the endpoint's tools run as the app that started the MCP server, which needs each once.
 */
const HOST_PERMISSIONS: { test: RegExp; what: string; fix: string }[] = [
  {
    test: /-1743\b|not authori[sz]ed to send apple events/i,
    what: "Automation",
    fix: "System Settings > Privacy & Security > Automation: allow the app that runs the control endpoint to control System Events and Screen Sharing",
  },
  {
    test: /-1719\b|-25211\b|assistive access/i,
    what: "Accessibility",
    fix: "System Settings > Privacy & Security > Accessibility: add the app that runs the control endpoint and switch it on",
  },
  {
    test: /could not create image from display|screen recording/i,
    what: "Screen Recording",
    fix: "System Settings > Privacy & Security > Screen & System Audio Recording: add the app that runs the control endpoint and switch it on",
  },
];

/** The host refused for lack of a privacy permission: an error naming the permission and where to grant it. */
export function hostPermissionError(text: string, quote = true): ValidationError | undefined {
  const p = HOST_PERMISSIONS.find((x) => x.test.test(text));
  const said = quote ? ` (${text.trim().split("\n")[0].slice(0, 200)})` : "";
  return (
    p &&
    new ValidationError({
      service: "control",
      message: `the host refused the helper the ${p.what} permission${said}`,
      remedy: `Grant it once on the host: ${p.fix}; then run again`,
    })
  );
}

/** The text of a tool result (its text parts joined). */
export function textOf(r: ToolResult): string {
  return r.content
    .filter((c) => c.type === "text")
    .map((c) => c.text ?? "")
    .join("\n");
}

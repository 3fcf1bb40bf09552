/**
 * A control resource's preview (Handler.preview): the endpoint's tools, read once per command (preflight.ts), must
 * include every tool the resource calls, or up would fail calling it.
 */
import { ValidationError } from "../http/errors";
import type { PreviewContext } from "../preview";

export async function previewTools(ctx: PreviewContext, need: readonly string[]): Promise<void> {
  if (!ctx.reads) return;
  const tools = (await ctx.serviceRead()) as string[];
  const missing = need.filter((t) => !tools.includes(t));
  if (missing.length) {
    throw new ValidationError({
      service: "control",
      message: `the endpoint offers no ${missing.join(" or ")} tool (it offers ${tools.join(", ") || "none"})`,
      remedy: "Point ops:controlUrl at an MCP server that runs commands (run_command) and GUI scripts (applescript)",
    });
  }
}

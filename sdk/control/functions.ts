/** Read-only functions of the computer-control endpoint. */
import { withStackConfig } from "../config";
import * as control from "../../provider/control/functions";

/** Takes a screenshot; writes the PNG to `path` when given; returns its size in pixels and in points. */
export const screenshot = withStackConfig(async (args: { path?: string } = {}) => {
  const { png: _png, ...rest } = await control.screenshot(args);
  return rest;
});
/** The endpoint's tools. */
export const listTools = withStackConfig(control.listTools);

/**
 * @deprecated It acted on a computer at every `pulumi preview` and twice per `pulumi up`. Declare
 * `new ops.control.RemoteDesktopSession(name, { host, username, ... })` instead: it opens the session when the stack
 * is applied, once.
 */
export async function openRemoteDesktop(_args?: unknown): Promise<never> {
  throw new Error("ops.control.openRemoteDesktop was removed: as a function it ran at every preview. Declare new ops.control.RemoteDesktopSession(name, { host, username, ... }) instead; it opens the session once, when the stack is applied");
}

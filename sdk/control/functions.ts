/** Read-only functions of the computer-control endpoint, and Document 3's remote-desktop procedure. */
import { withStackConfig } from "../config";
import * as control from "../../provider/control/functions";

/** Takes a screenshot; writes the PNG to `path` when given; returns its size in pixels and in points. */
export const screenshot = withStackConfig(async (args: { path?: string } = {}) => {
  const { png: _png, ...rest } = await control.screenshot(args);
  return rest;
});
/** The endpoint's tools. */
export const listTools = withStackConfig(control.listTools);
/** Opens a remote-desktop session through the helper's control tools and reports what the screen shows. */
export const openRemoteDesktop = withStackConfig(control.openRemoteDesktop);

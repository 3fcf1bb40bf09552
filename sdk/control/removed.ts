/** A function of the first release that acted on a computer at preview: it now only says what to use instead.
 *
 * @deprecated It acted on a computer at every `pulumi preview` and twice per `pulumi up`. Declare
 * `new ops.control.RemoteDesktopSession(name, { host, username, ... })` instead: it opens the session when the stack
 * is applied, once.
 */
export async function openRemoteDesktop(_args?: unknown): Promise<never> {
  throw new Error(
    "ops.control.openRemoteDesktop was removed: as a function it ran at every preview. Declare new ops.control.RemoteDesktopSession(name, { host, username, ... }) instead; it opens the session once, when the stack is applied",
  );
}

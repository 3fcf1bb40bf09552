export * from "./functions";
export { RemoteCommand, type RemoteCommandArgs } from "./remote-command";
export { RemoteDesktopSession, type RemoteDesktopSessionArgs } from "./remote-desktop-session";
export type * from "./types";
export { openRemoteDesktop } from "./removed";

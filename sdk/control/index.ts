export * from "./functions";
export { RemoteCommand, type RemoteCommandArgs } from "./remote-command";

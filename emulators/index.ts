export { Emulator, type Fault, type LogEntry } from "./kit";
export { EdgeEmulator, DEMO_TOKEN, READONLY_TOKEN, DEMO_ACCOUNT, ALL_PERMISSIONS, type EdgeEmulatorOptions } from "./edge/server";

export * from "./functions";
export { RunnerModel, type RunnerModelArgs } from "./runner-model";
export type * from "./types";

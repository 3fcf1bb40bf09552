/** Read-only functions of the model runner. */
import { withStackConfig } from "../config";
import * as runner from "../../provider/runner/functions";

/** The models the runner has downloaded. */
export const listModels = withStackConfig(runner.listModels);
/** The models loaded in memory now. */
export const listRunningModels = withStackConfig(runner.listRunningModels);

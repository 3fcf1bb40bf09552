import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import provider from "../../provider/providers/edge-WorkerScript";
import { WorkerScriptOutputs, type WorkerScriptInputs } from "../../provider/edge/worker-script/schema";
import { outputSlots, type InputsOf } from "../types";


export type WorkerScriptArgs = InputsOf<z.input<typeof WorkerScriptInputs>>;
type Out = WorkerScriptOutputs;

/**
 * An edge script of the account (ops:edgeAccountId unless `accountId` is given), from `content` or a `source` file.
 * Compared by content hash: editing the file updates the script; renaming it replaces it.
 *
 *     new ops.edge.WorkerScript("hello", { name: "hello", source: "worker.js" });
 */
export class WorkerScript extends pulumi.dynamic.Resource {
  declare readonly accountId: pulumi.Output<Out["accountId"]>;
  declare readonly name: pulumi.Output<Out["name"]>;
  declare readonly source: pulumi.Output<Out["source"]>;
  declare readonly contentHash: pulumi.Output<Out["contentHash"]>;
  declare readonly size: pulumi.Output<Out["size"]>;
  declare readonly createdOn: pulumi.Output<Out["createdOn"]>;
  declare readonly modifiedOn: pulumi.Output<Out["modifiedOn"]>;

  constructor(name: string, args: WorkerScriptArgs, opts?: pulumi.CustomResourceOptions) {
    super(provider, name, { ...outputSlots(WorkerScriptOutputs), ...args }, opts, "edge", "WorkerScript");
  }

  /** Reads an existing object without managing it. `id` is `<accountId>/<name>`. */
  static get(name: string, id: pulumi.Input<string>, opts?: pulumi.CustomResourceOptions): WorkerScript {
    return new WorkerScript(name, {} as WorkerScriptArgs, { ...opts, id });
  }
}

import * as pulumi from "@pulumi/pulumi";
import provider from "../../provider/providers/edge-WorkerScript";
import { outputSlots, secretsSlot, ownerSlot, refuseImport, setOutputs, CheckedResource } from "../types";
import { workerScriptOutputNames, type WorkerScriptArgs, type WorkerScriptOutputs as Out } from "./types";

export type { WorkerScriptArgs };

/**
 * An edge script of the account (ops:edgeAccountId unless `accountId` is given), from `content` or a `source` file,
 * in module syntax (`export default { fetch }`) or service-worker syntax, uploaded with its compatibility date.
 * Compared by content hash: editing the file updates the script; renaming it replaces it. A script of the same
 * name deployed elsewhere is taken over only with `adopt: true`. `vars` and `secrets` are its plain-text and secret
 * bindings (only the names given are managed; those set elsewhere are kept); `workersDev` serves it on workers.dev.
 * A script serves nothing on a zone until a WorkerRoute or a WorkerDomain points at it.
 *
 *     new ops.edge.WorkerScript("edgeScript", { name: "hello", source: "worker.js", vars: { GREETING: "hello" }, workersDev: false });
 */
export class WorkerScript extends CheckedResource {
  declare readonly accountId: pulumi.Output<Out["accountId"]>;
  declare readonly name: pulumi.Output<Out["name"]>;
  declare readonly source: pulumi.Output<Out["source"]>;
  declare readonly contentHash: pulumi.Output<Out["contentHash"]>;
  declare readonly size: pulumi.Output<Out["size"]>;
  declare readonly format: pulumi.Output<Out["format"]>;
  declare readonly compatibilityDate: pulumi.Output<Out["compatibilityDate"]>;
  declare readonly compatibilityFlags: pulumi.Output<Out["compatibilityFlags"]>;
  declare readonly vars: pulumi.Output<Out["vars"]>;
  declare readonly secretNames: pulumi.Output<Out["secretNames"]>;
  declare readonly secretsDigest: pulumi.Output<Out["secretsDigest"]>;
  declare readonly workersDev: pulumi.Output<Out["workersDev"]>;
  declare readonly previewUrls: pulumi.Output<Out["previewUrls"]>;
  declare readonly adopt: pulumi.Output<Out["adopt"]>;
  declare readonly createdOn: pulumi.Output<Out["createdOn"]>;
  declare readonly modifiedOn: pulumi.Output<Out["modifiedOn"]>;
  /** The named account (`ops:accounts`) that serves it; unset, the stack's own. */
  declare readonly account: pulumi.Output<Out["account"]>;

  constructor(name: string, args: WorkerScriptArgs, opts?: pulumi.CustomResourceOptions) {
    refuseImport("edge.WorkerScript", name, opts, false);
    // Secrets are secret whatever the program passes: the engine then keeps the inputs encrypted in state.
    if (args?.secrets !== undefined) args = { ...args, secrets: pulumi.secret(args.secrets) as WorkerScriptArgs["secrets"] };
    super(
      provider,
      name,
      { ...outputSlots(workerScriptOutputNames), ...args, ...ownerSlot(name, opts), ...secretsSlot(args, opts) },
      opts,
      "edge",
      "WorkerScript",
    );
    setOutputs(this, ["compatibilityFlags"]);
  }

  /** Reads an existing object without managing it. `id` is `<accountId>/<name>`. */
  static get(
    name: string,
    id: pulumi.Input<string>,
    state?: { account?: pulumi.Input<string> },
    opts?: pulumi.CustomResourceOptions,
  ): WorkerScript {
    return new WorkerScript(name, { ...state } as WorkerScriptArgs, { ...opts, id });
  }
}

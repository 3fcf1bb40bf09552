import * as pulumi from "@pulumi/pulumi";
import provider from "../../provider/providers/edge-WorkerRoute";
import { outputSlots, secretsSlot, ownerSlot, refuseImport, CheckedResource } from "../types";
import { workerRouteOutputNames, type WorkerRouteArgs, type WorkerRouteOutputs as Out } from "./types";

export type { WorkerRouteArgs };

/**
 * A route of a zone: the requests matching `pattern` run the edge script `script`. Without a route (or a custom
 * domain) a deployed script serves nothing on the zone. A pattern routed already elsewhere is refused at preview,
 * naming the script it runs, unless `adopt: true`.
 *
 *     const routedScript = new ops.edge.WorkerScript("routedScript", { name: "hello-routed", source: "worker.js" });
 *     new ops.edge.WorkerRoute("helloRoute", { zoneName: "example.com", pattern: "example.com/hello/*", script: routedScript.name });
 */
export class WorkerRoute extends CheckedResource {
  declare readonly zoneId: pulumi.Output<Out["zoneId"]>;
  declare readonly zoneName: pulumi.Output<Out["zoneName"]>;
  declare readonly pattern: pulumi.Output<Out["pattern"]>;
  declare readonly script: pulumi.Output<Out["script"]>;
  declare readonly adopt: pulumi.Output<Out["adopt"]>;
  declare readonly routeId: pulumi.Output<Out["routeId"]>;
  /** The named account (`ops:accounts`) that serves it; unset, the stack's own. */
  declare readonly account: pulumi.Output<Out["account"]>;

  constructor(name: string, args: WorkerRouteArgs, opts?: pulumi.CustomResourceOptions) {
    refuseImport("edge.WorkerRoute", name, opts, true);
    super(
      provider,
      name,
      { ...outputSlots(workerRouteOutputNames), ...args, ...ownerSlot(name, opts), ...secretsSlot(args, opts) },
      opts,
      "edge",
      "WorkerRoute",
    );
  }

  /** Reads an existing object without managing it. `id` is `<zoneId>/<routeId>`. */
  static get(
    name: string,
    id: pulumi.Input<string>,
    state?: { account?: pulumi.Input<string> },
    opts?: pulumi.CustomResourceOptions,
  ): WorkerRoute {
    return new WorkerRoute(name, { ...state } as WorkerRouteArgs, { ...opts, id });
  }
}

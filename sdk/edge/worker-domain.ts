import * as pulumi from "@pulumi/pulumi";
import provider from "../../provider/providers/edge-WorkerDomain";
import { outputSlots, secretsSlot, ownerSlot, refuseImport, CheckedResource } from "../types";
import { workerDomainOutputNames, type WorkerDomainArgs, type WorkerDomainOutputs as Out } from "./types";

export type { WorkerDomainArgs };

/**
 * A custom domain: the host name `hostname` is served by the edge script `script` as its origin. The service makes
 * the host's DNS record and certificate and keeps the record read-only, so no DnsRecord or DnsRecordSet may declare
 * that name (refused at preview). A host attached already elsewhere is refused at preview unless `adopt: true`.
 *
 *     const apiScript = new ops.edge.WorkerScript("apiScript", { name: "hello-api", source: "worker.js" });
 *     new ops.edge.WorkerDomain("helloDomain", { zoneName: "example.com", hostname: "hello.example.com", script: apiScript.name });
 */
export class WorkerDomain extends CheckedResource {
  declare readonly accountId: pulumi.Output<Out["accountId"]>;
  declare readonly zoneId: pulumi.Output<Out["zoneId"]>;
  declare readonly zoneName: pulumi.Output<Out["zoneName"]>;
  declare readonly hostname: pulumi.Output<Out["hostname"]>;
  declare readonly script: pulumi.Output<Out["script"]>;
  declare readonly environment: pulumi.Output<Out["environment"]>;
  declare readonly adopt: pulumi.Output<Out["adopt"]>;
  declare readonly domainId: pulumi.Output<Out["domainId"]>;
  declare readonly certId: pulumi.Output<Out["certId"]>;
  /** The named account (`ops:accounts`) that serves it; unset, the stack's own. */
  declare readonly account: pulumi.Output<Out["account"]>;

  constructor(name: string, args: WorkerDomainArgs, opts?: pulumi.CustomResourceOptions) {
    refuseImport("edge.WorkerDomain", name, opts, true);
    super(
      provider,
      name,
      { ...outputSlots(workerDomainOutputNames), ...args, ...ownerSlot(name, opts), ...secretsSlot(args, opts) },
      opts,
      "edge",
      "WorkerDomain",
    );
  }

  /** Reads an existing object without managing it. `id` is `<accountId>/<domainId>`. */
  static get(
    name: string,
    id: pulumi.Input<string>,
    state?: { account?: pulumi.Input<string> },
    opts?: pulumi.CustomResourceOptions,
  ): WorkerDomain {
    return new WorkerDomain(name, { ...state } as WorkerDomainArgs, { ...opts, id });
  }
}

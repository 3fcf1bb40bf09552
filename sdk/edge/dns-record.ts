import * as pulumi from "@pulumi/pulumi";
import provider from "../../provider/providers/edge-DnsRecord";
import { noteRecordIds } from "./program-records";
import { outputSlots, secretsSlot, ownerSlot, refuseImport, setOutputs, CheckedResource } from "../types";
import { dnsRecordOutputNames, type DnsRecordArgs, type DnsRecordOutputs as Out } from "./types";

export type { DnsRecordArgs };

/**
 * A DNS record of a zone. Give the zone by `zoneId` or `zoneName`; `name` may be `@`, a label or a full name.
 * Changing `type` or the zone replaces the record; everything else is updated in place.
 *
 *     new ops.edge.DnsRecord("www", {
 *       zoneName: "example.com",
 *       type: "A",
 *       name: "www",
 *       content: "203.0.113.10",
 *       proxied: true,
 *     });
 */
export class DnsRecord extends CheckedResource {
  declare readonly zoneId: pulumi.Output<Out["zoneId"]>;
  declare readonly zoneName: pulumi.Output<Out["zoneName"]>;
  declare readonly type: pulumi.Output<Out["type"]>;
  declare readonly name: pulumi.Output<Out["name"]>;
  declare readonly content: pulumi.Output<Out["content"]>;
  declare readonly data: pulumi.Output<Out["data"]>;
  declare readonly ttl: pulumi.Output<Out["ttl"]>;
  declare readonly proxied: pulumi.Output<Out["proxied"]>;
  declare readonly priority: pulumi.Output<Out["priority"]>;
  declare readonly comment: pulumi.Output<Out["comment"]>;
  declare readonly tags: pulumi.Output<Out["tags"]>;
  declare readonly settings: pulumi.Output<Out["settings"]>;
  declare readonly adopt: pulumi.Output<Out["adopt"]>;
  /** The record's full name, as the service reports it. */
  declare readonly hostname: pulumi.Output<Out["hostname"]>;
  declare readonly proxiable: pulumi.Output<Out["proxiable"]>;
  declare readonly createdOn: pulumi.Output<Out["createdOn"]>;
  declare readonly modifiedOn: pulumi.Output<Out["modifiedOn"]>;
  /** The named account (`ops:accounts`) that serves it; unset, the stack's own. */
  declare readonly account: pulumi.Output<Out["account"]>;

  constructor(name: string, args: DnsRecordArgs, opts?: pulumi.CustomResourceOptions) {
    refuseImport("edge.DnsRecord", name, opts, true);
    super(
      provider,
      name,
      { ...outputSlots(dnsRecordOutputNames), ...args, ...ownerSlot(name, opts), ...secretsSlot(args, opts) },
      opts,
      "edge",
      "DnsRecord",
    );
    setOutputs(this, ["tags"]);
    if (!opts?.id) noteRecordIds(() => this.id.apply((id) => [String(id).split("/").pop()!])); // DnsRecord.get manages nothing
  }

  /** Reads an existing record without managing it. `id` is the record's `.id` (its zone is found among the token's zones), or `<zoneId>/<recordId>`. */
  static get(
    name: string,
    id: pulumi.Input<string>,
    state?: { account?: pulumi.Input<string> },
    opts?: pulumi.CustomResourceOptions,
  ): DnsRecord {
    return new DnsRecord(name, { ...state } as DnsRecordArgs, { ...opts, id });
  }
}

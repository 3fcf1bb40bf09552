import * as pulumi from "@pulumi/pulumi";
import provider from "../../provider/providers/edge-DnsRecordSet";
import { outputSlots, refuseImport } from "../types";
import { dnsRecordSetOutputNames, type DnsRecordSetArgs, type DnsRecordSetOutputs as Out } from "./types";

export type { DnsRecordSetArgs };

/**
 * Many DNS records of one zone as one resource, each under a stable key of your choosing. The set manages exactly
 * its own records, so several sets (and single DnsRecords) can share a zone. Up sends only the records that
 * change, in parallel under the account's allowance; refresh is one listing of the zone; destroy removes exactly
 * the set's records. For thousands of records it is far faster than as many DnsRecords, and keeps the state small.
 *
 *     new ops.edge.DnsRecordSet("hosts", { zoneName: "example.com", records: {
 *       "www": { type: "CNAME", name: "www", content: "example.com", proxied: true },
 *       "api-a": { type: "A", name: "api", content: "203.0.113.20", ttl: 300 },
 *     } });
 */
export class DnsRecordSet extends pulumi.dynamic.Resource {
  declare readonly zoneId: pulumi.Output<Out["zoneId"]>;
  declare readonly zoneName: pulumi.Output<Out["zoneName"]>;
  /** The records as the service holds them, by key. */
  declare readonly records: pulumi.Output<Out["records"]>;
  /** Each record's id, by key. */
  declare readonly ids: pulumi.Output<Out["ids"]>;
  declare readonly adopt: pulumi.Output<Out["adopt"]>;
  /** The named account (`ops:accounts`) that serves it; unset, the stack's own. */
  declare readonly account: pulumi.Output<Out["account"]>;

  constructor(name: string, args: DnsRecordSetArgs, opts?: pulumi.CustomResourceOptions) {
    refuseImport("edge.DnsRecordSet", name, opts, true);
    super(provider, name, { ...outputSlots(dnsRecordSetOutputNames), ...args }, opts, "edge", "DnsRecordSet");
  }
}

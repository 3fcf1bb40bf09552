import * as pulumi from "@pulumi/pulumi";
import provider from "../../provider/providers/edge-DnsRecordSet";
import { recordsAndIds, recordsToText } from "../../provider/edge/dns-record-set/text";
import { noteRecordIds } from "./program-records";
import { outputSlots, secretsSlot, ownerSlot, refuseImport, setOutputs, settled, CheckedResource } from "../types";
import { dnsRecordSetOutputNames, type DnsRecordSetArgs, type DnsRecordSetOutputs as Out } from "./types";

export type { DnsRecordSetArgs };

/**
 * Many DNS records of one zone as one resource, each under a stable key of your choosing. The set manages exactly
 * its own records, so several sets (and single DnsRecords) can share a zone. Up sends only the records that
 * change, in parallel under the account's allowance; refresh is one listing of the zone; destroy removes exactly
 * the set's records. For thousands of records it is far faster than as many DnsRecords, and keeps the state small.
 *
 *     new ops.edge.DnsRecordSet("hosts", {
 *       zoneName: "example.com",
 *       records: { docs: { type: "CNAME", name: "docs", content: "docs-host.example.net", proxied: true }, "api-a": { type: "A", name: "api", content: "203.0.113.20", ttl: 300 } },
 *     });
 */
export class DnsRecordSet extends CheckedResource {
  declare readonly zoneId: pulumi.Output<Out["zoneId"]>;
  declare readonly zoneName: pulumi.Output<Out["zoneName"]>;
  /** The records as the service holds them, by key. */
  declare readonly records: pulumi.Output<Out["records"]>;
  /** Each record's id, by key. */
  declare readonly ids: pulumi.Output<Out["ids"]>;
  declare readonly adopt: pulumi.Output<Out["adopt"]>;
  /** Whether the set deletes the records of its names (or zone) it does not declare. */
  declare readonly authoritative: pulumi.Output<Out["authoritative"]>;
  /** The records an authoritative set leaves alone. */
  declare readonly ignore: pulumi.Output<Out["ignore"]>;
  /** The named account (`ops:accounts`) that serves it; unset, the stack's own. */
  declare readonly account: pulumi.Output<Out["account"]>;

  constructor(name: string, args: DnsRecordSetArgs, opts?: pulumi.CustomResourceOptions) {
    refuseImport("edge.DnsRecordSet", name, opts, true);
    // The engine carries the records as one text, a line per record (provider/edge/dns-record-set/text.ts): a map
    // of 10,000 objects costs it seconds at every step, one string almost nothing. The program reads maps.
    const records = args?.records === undefined ? undefined : compact(args.records);
    super(
      provider,
      name,
      { ...outputSlots(dnsRecordSetOutputNames), ...args, records, ...ownerSlot(name, opts), ...secretsSlot(args, opts) },
      opts,
      "edge",
      "DnsRecordSet",
    );
    setOutputs(this, ["ignore"]);
    // Outputs carry the ids in the records' lines (a state written by 0.2.0 has maps until its next up). They are
    // read back into maps on first use: most programs never read a set's records, and 10,000 of them cost time and
    // memory in the program's process.
    const { records: text, ids } = this as unknown as { records: pulumi.Output<unknown>; ids: pulumi.Output<unknown> };
    let both: pulumi.Output<{ records: unknown; ids: unknown }> | undefined;
    // The ids are read from the text alone where it has them: a preview's unchanged set has no `ids` output (the
    // state keeps none), and an apply over it would make every id, and what is built from them, unknown there. A
    // text without ids (a changed set's, at preview) waits on the `ids` output: unknown there, never wrong.
    const read = () =>
      (both ??= text.apply((r) => {
        const parsed: { records: unknown; ids?: unknown } = typeof r === "string" ? recordsAndIds(r) : { records: r };
        return parsed.ids
          ? pulumi.output({ records: parsed.records, ids: parsed.ids })
          : ids.apply((i) => ({ records: parsed.records, ids: i }));
      }) as pulumi.Output<{ records: unknown; ids: unknown }>);
    const lazily = (pick: (b: { records: unknown; ids: unknown }) => unknown) => {
      let out: pulumi.Output<unknown> | undefined;
      return { get: () => (out ??= read().apply(pick)), enumerable: true };
    };
    Object.defineProperty(
      this,
      "records",
      lazily((b) => b.records),
    );
    Object.defineProperty(
      this,
      "ids",
      lazily((b) => b.ids),
    );
    noteRecordIds(() => read().apply((b) => Object.values((b.ids ?? {}) as Record<string, string>)));
  }
}

function compact(records: DnsRecordSetArgs["records"]): pulumi.Input<string> | DnsRecordSetArgs["records"] {
  if (!records || typeof records !== "object") return records; // check names what is wrong with it
  if (settled(records)) return recordsToText(records as Record<string, unknown>);
  return pulumi.output(records).apply((r) => recordsToText(r as Record<string, unknown>));
}

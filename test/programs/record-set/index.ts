import { readFileSync } from "node:fs";
import * as pulumi from "@pulumi/pulumi";
import * as ops from "pulumi-ops";

const config = new pulumi.Config();
const count = config.getNumber("count") ?? 20;
/** Records whose index is a multiple of 10 get this ttl: raising it changes 10% of them. */
const ttl = config.getNumber("ttl") ?? 300;
const skip = new Set((config.get("skip") ?? "").split(",").filter(Boolean).map(Number));

const records: Record<string, ops.edge.DnsRecordSetRecordArgs> = {};
for (let i = 0; i < count; i++) {
  if (skip.has(i)) continue;
  records[`host-${i}`] = {
    type: "A",
    name: `host-${i}`,
    content: `203.0.${Math.floor(i / 250)}.${(i % 250) + 1}`,
    ttl: i % 10 === 0 ? ttl : 300,
  };
}
// One record with a TTL the service refuses, for the test of a check failure's size.
const badTtl = config.getNumber("badTtl");
if (badTtl !== undefined && records["host-7"]) records["host-7"].ttl = badTtl;
const set = new ops.edge.DnsRecordSet("hosts", { zoneName: "example.com", records });
// A record the set does not own, in the same zone: the set never touches it.
new ops.edge.DnsRecord("www", { zoneName: "example.com", type: "CNAME", name: "www", content: "example.com", proxied: true });
// A CNAME where the set has an A record: DNS refuses it, and so must the preview.
if (config.getBoolean("cnameClash"))
  new ops.edge.DnsRecord("clash", { zoneName: "example.com", type: "CNAME", name: "host-1", content: "example.com" });

export const recordCount = set.ids.apply((ids) => Object.keys(ids).length);

// Records read from a standard zone file, as a second set in the same zone.
export let exportedZone: pulumi.Output<string> | undefined;
const zoneFile = config.get("zoneFile");
if (zoneFile) {
  const parsed = ops.edge.parseZoneFileOutput({ text: readFileSync(zoneFile, "utf8"), origin: "example.com" });
  const fromFile = new ops.edge.DnsRecordSet("from-zone-file", { zoneName: "example.com", records: parsed.records });
  // The set as a zone file again: read back by parseZoneFile, it must give the same records.
  exportedZone = ops.edge.toZoneFileOutput({ origin: "example.com", records: fromFile.records }).text;
}

import * as pulumi from "@pulumi/pulumi";
import * as ops from "pulumi-ops";

const config = new pulumi.Config();
/** The records the set declares: the apex and count - 1 hosts. */
const count = config.requireNumber("count");
const authoritative = config.getBoolean("authoritative");

const records: Record<string, ops.edge.DnsRecordSetRecordArgs> = { apex: { type: "A", name: "@", content: "203.0.113.1", ttl: 300 } };
for (let i = 1; i < count; i++)
  records[`host-${i}`] = { type: "A", name: `host-${i}`, content: `203.0.${Math.floor(i / 250)}.${(i % 250) + 1}`, ttl: 300 };

const zone = new ops.edge.DnsRecordSet("zone", {
  zoneName: "example.com",
  records,
  adopt: true,
  // With the apex declared and ignore given, authoritative for the whole zone.
  ...(authoritative ? { authoritative: true, ignore: [] } : {}),
  ...(config.getBoolean("allowLargeChange") ? { allowLargeChange: true } : {}),
});

const outside = ops.edge.getUnmanagedRecordsOutput({ zoneName: "example.com", managedIds: zone.ids.apply((ids) => Object.values(ids)) });
export const unmanaged = outside.unmanaged.apply((list) => list.map((r) => `${r.type} ${r.name} ${r.content}`).sort());
export const apart = outside.apart.apply((list) => list.map((r) => `${r.reason} ${r.type} ${r.name}`).sort());

// Without managedIds, the program's own records (the set's) are left out all the same (issue 57).
export const unmanagedByDefault = ops.edge
  .getUnmanagedRecordsOutput({ zoneName: "example.com" })
  .unmanaged.apply((list) => list.map((r) => `${r.type} ${r.name} ${r.content}`).sort());

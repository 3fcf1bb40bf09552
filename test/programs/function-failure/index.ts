import * as pulumi from "@pulumi/pulumi";
import * as ops from "pulumi-ops";

const config = new pulumi.Config();
const zone = config.require("zone");
// As outputs (the usual form in a program), or awaited at the top level.
export const zoneId = config.getBoolean("awaited")
  ? ops.edge.getZone({ name: zone }).then((z) => z.id)
  : ops.edge.getZoneOutput({ name: zone }).id;

/**
 * Read-only functions of the edge network. Each returns a promise; wrap it in `pulumi.output(...)` to use the
 * result as an output. They read the same configuration as the resources (stack config, then environment).
 *
 *     const zone = ops.edge.getZone({ name: "example.com" });
 *     export const zoneId = pulumi.output(zone).id;
 */
import * as edge from "../../provider/edge/functions";
import { withStackConfig } from "../config";

/** The zone with this name; fails clearly when none or several match. */
export const getZone = withStackConfig(edge.getZone);
/** Whether the configured token is valid. */
export const verifyToken = withStackConfig(edge.verifyToken);
/** Totals for a window: `since` a negative offset in minutes or a time, `until` `now` or a time. */
export const getZoneAnalytics = withStackConfig(edge.getZoneAnalytics);
/** Recorded security events of a zone. */
export const getSecurityEvents = withStackConfig(edge.getSecurityEvents);
/** Cache statistics per location, with each location's hit ratio. */
export const getCacheStats = withStackConfig(edge.getCacheStats);
/** The account's edge scripts. */
export const listWorkerScripts = withStackConfig(edge.listWorkerScripts);

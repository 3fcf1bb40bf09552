/** pulumi-ops: `import * as ops from "pulumi-ops"`, then `new ops.edge.DnsRecord(...)`. */
import { requireSupportedNode } from "../provider/node-version";

requireSupportedNode(); // an older Node would load the SDK and then fail every request as "not reachable"

export * as control from "./control";
export * as edge from "./edge";
export * as pages from "./pages";
export * as posts from "./posts";
export * as runner from "./runner";
export * as skills from "./skills";

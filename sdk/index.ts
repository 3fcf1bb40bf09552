/** pulumi-ops: `import * as ops from "pulumi-ops"`, then `new ops.edge.DnsRecord(...)`. */
export * as edge from "./edge";

import * as ops from "pulumi-ops";

// What a program pays for importing pulumi-ops, and nothing else: no resource, so no provider starts.
export const modules = Object.keys(ops).length;

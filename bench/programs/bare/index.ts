import * as pulumi from "@pulumi/pulumi";

// The reference: the same program as bench-empty, without pulumi-ops.
export const modules = Object.keys(pulumi).length > 0 ? 6 : 0;

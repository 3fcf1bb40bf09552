import * as pulumi from "@pulumi/pulumi";
import * as ops from "pulumi-ops";

const config = new pulumi.Config();
const file = config.require("file");

// Writes a file on the host, and removes it on destroy.
const marker = new ops.control.RemoteCommand("marker", { create: `echo deployed > ${file}; cat ${file}`, delete: `rm -f ${file}` });
// A check that fails when asked to: the up must fail with the command's own exit status.
if (config.getBoolean("fail")) new ops.control.RemoteCommand("check", { create: "sh -c 'echo broken >&2; exit 3'" });

// A configuration file beside it, its content secret where the server takes it on stdin.
// (Optional: test/engine/config-noise.test.ts runs this program without it.)
const content = config.getBoolean("secretContent") ? config.requireSecret("content") : (config.get("content") ?? "oven=on\n");
new ops.control.RemoteFile("settings", { path: `${file}.conf`, content, mode: "640" });

export const printed = marker.stdout;
export const exitCode = marker.exitCode;

/** What a RemoteFile's class does in the program's process (provider/program-side.ts). */
import * as pulumi from "@pulumi/pulumi";
import type { ProgramSide } from "../../program-side";

export const program: ProgramSide = {
  // As a RemoteCommand's: a secret content makes the resource secret. The provider cannot tell (the engine strips
  // secrets before calling it), so `secret` becomes true here: the content then stays secret in state and the CLI,
  // and the provider sends it on the tool's standard input only.
  register(args, opts) {
    const fromSecret = args.content === undefined ? Promise.resolve(false) : pulumi.isSecret(pulumi.output(args.content));
    // A value that is not a boolean ("yes") goes to check as given, which refuses it: never read as false.
    const secret = pulumi
      .output(args.secret)
      .apply(async (s) => (s !== undefined && typeof s !== "boolean" ? s : s === true || (await fromSecret)));
    const content =
      args.content === undefined ? undefined : pulumi.all([args.content, secret]).apply(([c, s]) => (s === true ? pulumi.secret(c) : c));
    return { args: { ...args, secret, content }, opts };
  },
};

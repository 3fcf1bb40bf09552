/** What a RemoteCommand's class does in the program's process (provider/program-side.ts). */
import * as pulumi from "@pulumi/pulumi";
import type { ProgramSide } from "../../program-side";

export const program: ProgramSide = {
  // As pulumi-command does: a command or environment holding a secret makes the output secret too. The provider
  // cannot tell (the engine strips secrets before calling it), so `secret` becomes true here and it wraps them.
  register(args, opts) {
    const secret = args.secret === true;
    const hide = <T>(v: pulumi.Input<T> | undefined) => (secret && v !== undefined ? pulumi.secret(v) : v);
    const fromSecret = Promise.all(
      [args.create, args.update, args.delete, args.environment, args.triggers].map((v) =>
        v === undefined ? false : pulumi.isSecret(pulumi.output(v)),
      ),
    );
    // A value that is not a boolean ("yes") goes to check as given, which refuses it: never read as false.
    const effective = pulumi
      .output(args.secret)
      .apply(async (s) => (s !== undefined && typeof s !== "boolean" ? s : s === true || (await fromSecret).some(Boolean)));
    return {
      args: {
        ...args,
        secret: effective,
        create: hide(args.create),
        update: hide(args.update),
        delete: hide(args.delete),
        environment: hide(args.environment),
      },
      opts: secret ? { ...opts, additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), "stdout", "stderr"] } : opts,
    };
  },
};
